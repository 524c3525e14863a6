package sarama

import (
	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// claimLag is Sarama's way of learning that its member was removed, found by delayed-commit
// against Kafka 4.4.0 (docs/real-kafka.md, finding 6). Sarama learns per claim: the
// session's context is cancelled when the heartbeat loop is told UNKNOWN_MEMBER_ID (a
// refused commit does not end the session), and each ConsumeClaim goroutine sees it only
// when it next selects on that context, so a claim inside a commit releases its partition
// only after the commit is answered, while its siblings have already returned. The member
// takes no step that needs its membership meanwhile; its late claims are refused every
// commit and end in a lost.
const claimLag = "Sarama: a claim learns that its session ended only when it next checks the session's context, " +
	"after its siblings released (conformance/sarama/testdata/claim-lag-*.jsonl)"

// classicFencing are the answers by which a classic coordinator tells a member it is gone.
var classicFencing = map[string]bool{"UNKNOWN_MEMBER_ID": true, "ILLEGAL_GENERATION": true, "FENCED_INSTANCE_ID": true}

// knownBug says whether x is claimLag: an ownership violation whose last event is a lost end
// of the earlier owner, whose learning (a fencing answer) is among x's events, and between
// which the earlier owner only commits, heartbeats and releases, the broker perhaps saying it
// fenced it (no assign, no JoinGroup, SyncGroup or LeaveGroup).
func knownBug(h history.History, x oracle.Violation) (string, bool) {
	if x.Property != oracle.ExclusiveOwnership && x.Property != oracle.RevokeBeforeAssign || len(x.Events) == 0 {
		return "", false
	}
	last := x.Events[0]
	for _, e := range x.Events {
		if e.Seq > last.Seq {
			last = e
		}
	}
	if last.Kind != history.Lost || last.Phase != history.End {
		return "", false
	}
	learned := int64(-1)
	for _, e := range x.Events {
		if e.Node == last.Node && e.Phase == history.End && classicFencing[e.Err] && (learned < 0 || e.Seq < learned) {
			learned = e.Seq
		}
	}
	if learned < 0 {
		return "", false
	}
	for _, e := range h {
		if e.Node != last.Node || e.Seq <= learned || e.Seq >= last.Seq {
			continue
		}
		switch {
		case e.Kind == history.Commit, e.Kind == history.Lost, e.Kind == history.Mark, e.Kind == history.Fenced:
		case e.Kind == history.Request && (e.Op == history.OffsetCommit || e.Op == history.Heartbeat):
		default:
			return "", false
		}
	}
	return claimLag, true
}
