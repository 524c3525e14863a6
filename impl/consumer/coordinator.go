package consumer

import "github.com/groupcheck/groupcheck/impl"

// MarksCoordinatorUnknown reports whether an answer makes the client mark its coordinator
// unknown: NOT_COORDINATOR and COORDINATOR_NOT_AVAILABLE, on every request kind
// (AbstractCoordinator's JoinGroup, SyncGroup and Heartbeat response handlers and
// ConsumerCoordinator's OffsetCommit handler call markCoordinatorUnknown). The client then
// disconnects from it, which fails every other request in flight to it, and rediscovers the
// coordinator (FindCoordinator) before its next request. COORDINATOR_LOAD_IN_PROGRESS is
// retried against the same coordinator. Neither resets the member id or the generation
// (KAFKA-13214): the reactions to these answers are OnJoinGroupResponse's, OnSyncGroupResponse's,
// OnHeartbeatResponse's and OnOffsetCommitResponse's "coordinator errors" (a failed round is
// retried, a heartbeat or a commit just fails).
// Reference: docs/protocol.md §1.11 (JoinGroup COORDINATOR_NOT_AVAILABLE / NOT_COORDINATOR row).
func MarksCoordinatorUnknown(code impl.ErrorCode) bool {
	return code == impl.NotCoordinator || code == impl.CoordinatorNotAvailable
}
