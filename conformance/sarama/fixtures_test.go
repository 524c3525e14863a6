package sarama

import (
	"slices"
	"testing"
	"time"

	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// replay checks a testdata history with the oracle, linearizability included.
func replay(t *testing.T, name string) oracle.Report {
	t.Helper()
	return oracle.Check(h.Fixture(t, name), oracle.Options{Linearizability: oracle.Linearizable(time.Minute)})
}

// TestKfakeJoinExpiry replays a real run (cooperative-sticky, crash, with the 1.5 s session
// of harness.DefaultTiming) that found a kfake deviation. Generation 5 had just synced; a
// revoked one partition and sent its follow-up JoinGroup at once (6.056 s), e at 6.172 s;
// Sarama sends no heartbeat while its JoinGroup is parked. c rejoined only at 7.921 s, and
// by then kfake's session timer (groups.go updateHeartbeat) had removed a and e, so
// generation 6 was c alone, given everything. kfake never answered the parked JoinGroups
// (removeMember drops waitingReply), so a kept its partitions until Sarama's 30 s read
// timeout. Kafka keeps a member awaiting join alive and answers a removed member's parked
// JoinGroup with UNKNOWN_MEMBER_ID. The oracle must call the overlap a zombie (a was fenced
// first, and had not learned it), never a violation: Sarama did nothing wrong. The reference
// search finds kfake's deviation where it shows in an answer: a's commit at seq 2526 refused
// ILLEGAL_GENERATION, where Kafka, having removed a, answers UNKNOWN_MEMBER_ID; the harness
// classifies it (kfakeParkedExpiry).
func TestKfakeJoinExpiry(t *testing.T) {
	rep := replay(t, "kfake-join-expiry-cooperative-sticky.jsonl")
	kfake := func(x oracle.Violation) bool {
		return x.Property == oracle.ReferenceSearch && len(x.Events) == 1 && x.Events[0].Seq == 2526
	}
	if len(rep.Violations) != 1 || !kfake(rep.Violations[0]) {
		t.Errorf("Sarama did nothing wrong, yet %d violations (want only the search's of kfake at seq 2526):\n%s", len(rep.Violations), rep)
	}
	if !(h.Verdict{Report: rep}).Has(oracle.ExclusiveOwnership, oracle.ClassZombie, "a and c") {
		t.Errorf("want the overlap of a and c as a zombie:\n%s", rep)
	}
	// The harness knows the deviation from the history (a's JoinGroup at seq 597, given up
	// unanswered), so a run like this one is reported, not failed.
	v := h.Verdict{History: h.Fixture(t, "kfake-join-expiry-cooperative-sticky.jsonl"), Report: rep}
	if v.ClassifyKnown(); !v.OK() || len(v.Known) == 0 {
		t.Errorf("want the search's violation known as kfake's parked expiry; ok %v, known %q", v.OK(), v.Known)
	}
}

// TestRevokeFinishingAfterRemoval replays a real range delayed-commit run against Kafka
// 4.4.0: b's held commit stalled its coordinator connection, so Kafka removed b at the
// rebalance timeout. Sarama runs one revoke per claimed partition; b learned it was removed
// (UNKNOWN_MEMBER_ID) while two of them ran, c began its assign, and the two returned 0.1 ms
// and 31 ms later. b was releasing throughout, so the overlap is the zombie window Kafka
// allows, not a violation (docs/real-kafka.md finding 4).
func TestRevokeFinishingAfterRemoval(t *testing.T) {
	rep := replay(t, "revoke-finishing-after-removal-delayed-commit-range.jsonl")
	if len(rep.Violations) != 0 {
		t.Errorf("Sarama did nothing wrong, yet %d violations:\n%s", len(rep.Violations), rep)
	}
	if !(h.Verdict{Report: rep}).Has(oracle.ExclusiveOwnership, oracle.ClassZombie, "b and c") {
		t.Errorf("want the overlap of b and c as a zombie:\n%s", rep)
	}
}

// TestClaimLag replays a range delayed-commit run against Kafka 4.4.0 (docs/real-kafka.md,
// finding 6): b's held commit was refused UNKNOWN_MEMBER_ID, its next heartbeat was too, and
// its t2-1 claim released at once while its t1-2 claim, inside a commit begun just before
// the session's context was cancelled, released only after that commit was refused. The
// oracle rightly reports the overlap as a violation (b knew); knownBug names it, and only it:
// with a JoinGroup of b inserted before the late release the same overlap is not claimLag.
func TestClaimLag(t *testing.T) {
	hist := h.Fixture(t, "claim-lag-delayed-commit-range.jsonl")
	rep := oracle.Check(hist, oracle.Options{})
	if len(rep.Violations) == 0 {
		t.Fatalf("want the late claim's overlap as a violation:\n%s", rep)
	}
	for _, x := range rep.Violations {
		if what, ok := knownBug(hist, x); !ok || what != claimLag {
			t.Errorf("%s not classified as the claim lag:\n%s", x.Property, rep)
		}
	}
	x := rep.Violations[0]
	rejoin := x.Events[len(x.Events)-1]
	rejoin.Seq--
	rejoin.Kind, rejoin.Phase, rejoin.Op = history.Request, history.Begin, history.JoinGroup
	rejoined := append(slices.Clone(hist), rejoin)
	if what, ok := knownBug(rejoined, x); ok {
		t.Errorf("a member that rejoins before its late release is not the claim lag, yet %q", what)
	}
}

// TestCloseOverclaim: Sarama's cooperative member d rejoined while closing (crash-mid-join on
// kfake), listing t1-2 as owned after its close had returned that claim's handler: the
// oracle's claims-truthful violation, classified as Sarama's closeOverclaim. The same JoinGroup
// without the close before it is not.
func TestCloseOverclaim(t *testing.T) {
	hist := h.Fixture(t, "close-overclaim-crash-mid-join-cooperative.jsonl")
	rep := oracle.Check(hist, oracle.Options{})
	if len(rep.Violations) != 1 || rep.Violations[0].Property != oracle.ClaimsTruthful {
		t.Fatalf("want d's one over-claim:\n%s", rep)
	}
	x := rep.Violations[0]
	if what, ok := knownBug(hist, x); !ok || what != closeOverclaim {
		t.Errorf("not classified as the close over-claim (%q):\n%s", what, rep)
	}
	open := slices.DeleteFunc(slices.Clone(hist), func(e history.Event) bool {
		return e.Node == x.Events[0].Node && e.Kind == history.Close
	})
	if what, ok := knownBug(open, x); ok {
		t.Errorf("an over-claim by a member that is not closing was classified %q", what)
	}
}
