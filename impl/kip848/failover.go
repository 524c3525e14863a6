package kip848

import "github.com/groupcheck/groupcheck/impl"

// Reload is the group a new coordinator rebuilds, after a failover, by replaying the group's
// records in __consumer_offsets. Unlike the classic coordinator, which writes a record only
// per completed round, every state change of a consumer group is a record written before its
// response is sent: the group epoch (ConsumerGroupMetadata), the subscription metadata
// (ConsumerGroupPartitionMetadata), each member's subscription and instance id
// (ConsumerGroupMemberMetadata), the target assignment and its epoch
// (ConsumerGroupTargetAssignmentMetadata / Member) and each member's epoch, previous epoch,
// state, assigned and pending-revocation partitions (ConsumerGroupCurrentMemberAssignment).
// So nothing a client has seen is lost: only the timers are rebuilt — every session timer
// starts afresh, and a rebalance timer is armed, at the member's epoch, for each member in
// UNREVOKED_PARTITIONS and for no other (GroupMetadataManager.onLoaded).
// Reference: docs/protocol.md §3.2 ("all state changes are records … replayed on failover"), §3.5.
func (g Group) Reload() Group {
	g.members = append([]Member(nil), g.members...)
	for i := range g.members {
		m := &g.members[i]
		m.RebalanceTimer = RebalanceTimer{}
		if m.State == UnrevokedPartitions {
			m.RebalanceTimer = RebalanceTimer{Armed: true, Epoch: m.MemberEpoch}
		}
	}
	return g.checked("Reload")
}

// LoadingReply is the answer of a coordinator still loading the group's partition:
// COORDINATOR_LOAD_IN_PROGRESS to a ConsumerGroupHeartbeat and to an OffsetCommit.
// Reference: docs/protocol.md §3.1 (errors).
func LoadingReply(req impl.Request) impl.Reply {
	return errorReply(req, impl.CoordinatorLoadInProgress)
}

// NotCoordinatorReply is the answer of a broker that no longer leads the group's partition.
// Reference: docs/protocol.md §3.1 (errors).
func NotCoordinatorReply(req impl.Request) impl.Reply { return errorReply(req, impl.NotCoordinator) }

func errorReply(req impl.Request, code impl.ErrorCode) impl.Reply {
	switch req.(type) {
	case impl.ConsumerGroupHeartbeatRequest:
		return impl.Reply{To: req.From(), Response: impl.ConsumerGroupHeartbeatResponse{Error: code}}
	case impl.OffsetCommitRequest:
		return impl.Reply{To: req.From(), Response: impl.OffsetCommitResponse{Error: code}}
	}
	panic("kip848: errorReply: not a consumer-group request")
}
