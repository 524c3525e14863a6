package oracle

import "github.com/groupcheck/groupcheck/oracle/history"

// What a response's Err says about membership. The rules are written once here so that every
// property reads errors the same way.

// fencing are the errors by which the coordinator tells a member it is no longer the member
// (or generation, or epoch) it thinks it is: the classic client resets its generation and
// calls onPartitionsLost (docs/protocol.md §1.11, §2.1 table), the KIP-848 client moves to FENCED
// (docs/protocol.md §3.7), kgo abandons its assignment (docs/clients.md §2).
var fencing = map[string]bool{
	"UNKNOWN_MEMBER_ID":   true,
	"ILLEGAL_GENERATION":  true,
	"FENCED_MEMBER_EPOCH": true,
	"STALE_MEMBER_EPOCH":  true,
	"FENCED_INSTANCE_ID":  true,
}

// commitFencing are the commit rejections that show the committer's membership is gone.
// STALE_MEMBER_EPOCH is not one: a KIP-848 commit carries an epoch, and a member whose epoch
// moved on since it built the commit is still a member (docs/protocol.md §3.1; kgo's comment on
// StaleMemberEpoch, "the server still has this member").
var commitFencing = map[string]bool{
	"UNKNOWN_MEMBER_ID":   true,
	"ILLEGAL_GENERATION":  true,
	"FENCED_MEMBER_EPOCH": true,
	"FENCED_INSTANCE_ID":  true,
}

// flowControl are errors that steer a healthy member through a rebalance and never mean it
// lost anything: KIP-429 as shipped keeps owned partitions on both (docs/protocol.md §2.1 table), and
// kgo rejoins on them without calling onPartitionsLost (docs/clients.md §2; consumer_group.go
// joinAndSync). Every other failure, including a retriable one such as
// COORDINATOR_LOAD_IN_PROGRESS, can end a client's session once its retries run out (kgo calls
// onPartitionsLost on any failed manage-loop iteration), so it counts as evidence.
var flowControl = map[string]bool{
	"REBALANCE_IN_PROGRESS": true,
	"MEMBER_ID_REQUIRED":    true,
}

// membershipOps are the requests by which a member joins, stays in and leaves the group.
var membershipOps = map[string]bool{
	history.JoinGroup:              true,
	history.SyncGroup:              true,
	history.Heartbeat:              true,
	history.LeaveGroup:             true,
	history.ConsumerGroupHeartbeat: true,
}

// answered reports whether an end carries a response: history.Recorder closes an interval that
// never ended with Note "unfinished", which is no answer at all (a request lost with its
// connection), not a success.
func answered(end history.Event) bool { return end.Note != history.Unfinished }

// isLeave reports whether a request (its begin) asks to leave the group: LeaveGroup, or a
// ConsumerGroupHeartbeat with epoch -1 or -2 (docs/protocol.md §3.1, §3.6).
func isLeave(begin history.Event) bool {
	return begin.Op == history.LeaveGroup || (begin.Op == history.ConsumerGroupHeartbeat && begin.Gen < 0)
}

// isCommit reports whether an event belongs to an offset commit, the client's (Kind Commit) or
// the wire's (an OffsetCommit request).
func isCommit(e history.Event) bool {
	return e.Kind == history.Commit || (e.Kind == history.Request && e.Op == history.OffsetCommit)
}

// isMembership reports whether e belongs to a membership request.
func isMembership(e history.Event) bool { return e.Kind == history.Request && membershipOps[e.Op] }

// okAnswer reports whether an end is an answered success.
func okAnswer(end history.Event) bool { return answered(end) && end.OK() }
