package sarama

import (
	"slices"

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

// closeOverclaim is Sarama's rejoin on its way out, found by crash-mid-join on kfake: while
// the group closes, the cooperative session's loop may take a pending rebalance signal instead
// of the close (consumeCooperative selects between c.closed and sess.rejoin), and
// rejoinCooperative lists sess.Claims() as owned, claims whose handlers the close has already
// returned. The member leaves right after; what it over-claims it does not process.
const closeOverclaim = "Sarama: a cooperative member that rejoins while closing claims the partitions whose handlers the close already returned " +
	"(consumer_group_cooperative.go rejoinCooperative: held.claims = sess.Claims()); conformance/sarama/testdata/close-overclaim-*.jsonl"

// knownBug says which of Sarama's known behaviours x is, if any: claimLag or closeOverclaim.
func knownBug(h history.History, x oracle.Violation) (string, bool) {
	if what, ok := overclaimOnClose(h, x); ok {
		return what, true
	}
	return lagsClaims(h, x)
}

// overclaimOnClose says whether x is closeOverclaim: a claims-truthful violation of a JoinGroup
// its node sent after its close began, every partition it misstates revoked since then.
func overclaimOnClose(h history.History, x oracle.Violation) (string, bool) {
	if x.Property != oracle.ClaimsTruthful || len(x.Events) != 1 {
		return "", false
	}
	join := x.Events[0]
	closing := int64(-1)
	revoked := history.Parts{}
	for _, e := range h {
		if e.Node != join.Node || e.Seq >= join.Seq {
			continue
		}
		switch {
		case e.Kind == history.Start:
			closing, revoked = -1, history.Parts{}
		case e.Kind == history.Close && e.Phase == history.Begin:
			closing = e.Seq
		case closing >= 0 && e.Kind == history.Revoke && e.Phase == history.Begin:
			for t, ps := range e.Parts {
				revoked[t] = append(revoked[t], ps...)
			}
		}
	}
	if closing < 0 || join.Op != history.JoinGroup || join.Owned.Count() == 0 {
		return "", false
	}
	for t, ps := range join.Owned {
		for _, p := range ps {
			if !slices.Contains(revoked[t], p) {
				return "", false
			}
		}
	}
	return closeOverclaim, true
}

// lagsClaims says whether x is claimLag: an ownership violation whose last event is a lost end
// of the earlier owner, whose learning (a fencing answer) is among x's events, and between
// which the earlier owner only commits, heartbeats and releases, the broker perhaps saying it
// fenced it (no assign, no JoinGroup, SyncGroup or LeaveGroup).
func lagsClaims(h history.History, x oracle.Violation) (string, bool) {
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
