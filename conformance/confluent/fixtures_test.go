package confluent

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// replay checks a testdata history with the oracle, linearizability included.
func replay(t *testing.T, name string) oracle.Report {
	t.Helper()
	_, rep := replayHistory(t, name)
	return rep
}

// replayHistory reads a testdata history and checks it with the oracle.
func replayHistory(t *testing.T, name string) (history.History, oracle.Report) {
	t.Helper()
	hist := h.Fixture(t, name)
	return hist, oracle.Check(hist, oracle.Options{Linearizability: oracle.Linearizable(time.Minute)})
}

// TestRejectedCommitDuringRejoin replays a real cooperative-sticky churn run: librdkafka
// commits at generation 3 from its poll loop while its follow-up JoinGroup is parked on the
// same coordinator connection; kfake (like Kafka, which answers one request per connection at
// a time) answers the commit after the JoinGroup, when generation 4 exists: ILLEGAL_GENERATION.
// Nobody misbehaved and nothing was accepted, so there must be no violation, and since the
// oracle reads ILLEGAL_GENERATION after the member's own newer generation as the generation
// moving on, no commit-from-owner zombie either (it listed them until it did).
func TestRejectedCommitDuringRejoin(t *testing.T) {
	rep := replay(t, "rejected-commit-during-rejoin-cooperative-sticky.jsonl")
	if len(rep.Violations) != 0 || len(rep.Zombies) != 0 {
		t.Errorf("librdkafka did nothing wrong, yet %d violations and %d zombies:\n%s", len(rep.Violations), len(rep.Zombies), rep)
	}
}

// TestKIP1251Commit replays a KIP-848 cut run: after the heal, b's commit at member epoch 5
// was accepted although kfake had just moved b to epoch 6. KIP-1251 (apache/kafka#21692;
// kfake groups.go handleConsumerOffsetCommit) accepts assignment epoch <= commit epoch <=
// member epoch, so kfake and librdkafka are right. The linearizability check's reference
// coordinator refused it until it learned KIP-1251; now it must accept it.
func TestKIP1251Commit(t *testing.T) {
	rep := replay(t, "kip1251-stale-epoch-commit-kip848.jsonl")
	if rep.Linearizable != oracle.LinYes {
		t.Errorf("linearizable %q, want yes: KIP-1251 accepts a commit at an older epoch", rep.Linearizable)
	}
	if len(rep.Violations) != 0 {
		t.Errorf("%d violations:\n%s", len(rep.Violations), rep)
	}
}

// TestLeaveBeforeRevoke replays a KIP-848 cut run whose close hung: during the final
// leave-all, a received a new assignment (epoch 6, seq 457), ran its assign callback, then
// librdkafka sent the leave heartbeat (epoch -1, accepted at seq 462) before it ran the
// revoke callback (seq 464), whose synchronous CommitOffsets never sent an OffsetCommit and
// never returned (the close timed out after 4.5 s). Java's consumer revokes before it
// leaves. The run's two exclusive-ownership violations about b are the harness's, since
// fixed: b's late Generation event at seq 301 (Node.GenerationsFromTap). This test pins the
// order of a's events.
func TestLeaveBeforeRevoke(t *testing.T) {
	hist, err := history.ReadFile(filepath.Join("testdata", "leave-before-revoke-kip848.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var left, revoked int64
	for _, e := range hist {
		switch {
		case e.Node == "a" && e.Op == history.ConsumerGroupHeartbeat && e.Phase == history.End && e.Gen == -1 && e.OK():
			left = e.Seq
		case e.Node == "a" && e.Kind == history.Revoke && e.Phase == history.Begin && left > 0 && revoked == 0:
			revoked = e.Seq
		}
	}
	if left == 0 || revoked <= left {
		t.Errorf("want a's accepted leave before its revoke began: leave at seq %d, revoke at seq %d", left, revoked)
	}
}

// TestEagerRejoinWithoutRevoke replays a range churn run: c's assign callback for generation
// 5 began (seq 456); while it ran, librdkafka saw t1 grow from 4 to 6 partitions and rejoined
// at once ("initiating rebalance (EAGER) in state up (join-state wait-assign-call) with 3
// assigned partition(s)", JoinGroup at seq 461), without the revoke callback an eager member
// owes before it rejoins, and handed the same partitions to the assign callback of
// generation 6 (seq 488). The oracle must report callbacks-consistent naming c; had the range
// leader moved them, it would have been a double assignment. knownBug must recognize it.
func TestEagerRejoinWithoutRevoke(t *testing.T) {
	hist, rep := replayHistory(t, "eager-rejoin-without-revoke-range.jsonl")
	if !(h.Verdict{Report: rep}).Has(oracle.CallbacksConsistent, oracle.ClassViolation, "c's assign") {
		t.Errorf("want callbacks-consistent naming c:\n%s", rep)
	}
	known(t, hist, rep, true)
}

// TestEagerRejoinDuringRevoke replays a roundrobin churn run (the short form, on a machine
// with load 42): d's revoke callback began at seq 426; librdkafka, in join-state
// wait-unassign-call, saw t1 grow and rejoined "without an assignment" at once (JoinGroup at
// seq 427), so c's assign of t2-1 in generation 5 (seq 437) began while d's application was
// still revoking it (its commit and end at seq 441-445): exclusive-ownership and
// revoke-before-assign, both librdkafka's.
func TestEagerRejoinDuringRevoke(t *testing.T) {
	hist, rep := replayHistory(t, "eager-rejoin-during-revoke-roundrobin.jsonl")
	v := h.Verdict{Report: rep}
	if !v.Has(oracle.ExclusiveOwnership, oracle.ClassViolation, "d") || !v.Has(oracle.RevokeBeforeAssign, oracle.ClassViolation, "d still owned") {
		t.Errorf("want exclusive-ownership and revoke-before-assign naming d:\n%s", rep)
	}
	known(t, hist, rep, true)
}

// knownBug must not excuse a violation whose first owner did not rejoin inside a callback:
// the KIP-848 fixture's two violations (the harness's late Generation event, since fixed) are
// not librdkafka's eager bug.
func TestKnownBugIsNarrow(t *testing.T) {
	hist, rep := replayHistory(t, "leave-before-revoke-kip848.jsonl")
	if len(rep.Violations) == 0 {
		t.Fatal("the fixture's violations are gone: pick another negative case")
	}
	known(t, hist, rep, false)
}

// known asserts that knownBug does (or does not) explain every violation of rep.
func known(t *testing.T, hist history.History, rep oracle.Report, want bool) {
	t.Helper()
	if len(rep.Violations) == 0 {
		t.Fatal("no violations")
	}
	for _, x := range rep.Violations {
		if _, ok := knownBug(hist, x); ok != want {
			t.Errorf("knownBug = %v, want %v, for %s: %s", ok, want, x.Property, x.Message)
		}
	}
}

// TestLostWhileRejoining replays a real cooperative-sticky delayed-commit run against Kafka
// 4.4.0: b's held commit stalled its coordinator connection, so Kafka removed b at the
// rebalance timeout; b learned it (UNKNOWN_MEMBER_ID) when the request was released, as d
// began its assign. librdkafka then ran b's lost callback, and its background thread sent
// one more Heartbeat (member ID "") while the callback ran. The 4 ms overlap is the zombie
// window Kafka allows: b was releasing, not going on owning (docs/real-kafka.md finding 4).
func TestLostWhileRejoining(t *testing.T) {
	rep := replay(t, "lost-overlaps-next-owner-delayed-commit-cooperative-sticky.jsonl")
	if len(rep.Violations) != 0 {
		t.Errorf("librdkafka did nothing wrong, yet %d violations:\n%s", len(rep.Violations), rep)
	}
	if !(h.Verdict{Report: rep}).Has(oracle.ExclusiveOwnership, oracle.ClassZombie, "b and d") {
		t.Errorf("want the overlap of b and d as a zombie:\n%s", rep)
	}
}

// TestLeaveBeforeRevokeOnKafka replays a KIP-848 burst run against Kafka 4.4.0 whose leave
// of a hung (3 of 10 such runs): a's cooperative revoke of t1-3 ended (seq 201), Leave
// stopped a's poll loop and closed, and Close served the "cooperative assign after revoke"
// still queued (an empty assign, seq 202-203) after the terminate had queued the revoke of
// everything. librdkafka took the answer to that assign as the full unassign and sent the
// leave heartbeat (epoch -1, seq 205) as a's revoke of t1-2 began (seq 204); the revoke's
// synchronous commit (seq 207) never returned. d was handed t1-2 (seq 290) while a was
// still inside that revoke: the oracle's exclusive-ownership, librdkafka's (the minimal
// reproduction is TestCloseWithAssignPending).
func TestLeaveBeforeRevokeOnKafka(t *testing.T) {
	hist, rep := replayHistory(t, "leave-before-revoke-burst-kafka-kip848.jsonl")
	if !(h.Verdict{Report: rep}).Has(oracle.ExclusiveOwnership, oracle.ClassViolation, "a and d") {
		t.Errorf("want exclusive-ownership naming a and d:\n%s", rep)
	}
	var left, revoking int64
	for _, e := range hist {
		switch {
		case e.Node == "a" && e.Kind == history.Revoke && e.Phase == history.Begin:
			revoking = e.Seq
		case e.Node == "a" && e.Op == history.ConsumerGroupHeartbeat && e.Phase == history.Begin && e.Gen == -1:
			left = e.Seq
		}
	}
	if left != 205 || revoking != 204 {
		t.Errorf("want a's leave (seq 205) sent inside its last revoke (begun at seq 204); leave at %d, revoke at %d", left, revoking)
	}
}

// TestKfakeIllegalGenerationAfterCrashMidJoin replays the kfake run of the CI dry run of
// 4 December (cooperative-sticky crash-mid-join), a kfake finding: generation 4 formed with b
// as its leader (seq 174) and b crashed, so a's, c's and d's SyncGroups waited for the sync
// deadline. librdkafka's rebalance timeout is max.poll.interval.ms, here equal to the 3 s
// session, and kfake's session timers, armed as it answered the JoinGroups, fire before its
// sync timer: kfake removed c (groups.go updateHeartbeat → removeMember) and never answered
// its SyncGroup (seq 180, unfinished), answered a's and d's REBALANCE_IN_PROGRESS (seq
// 186–187), and counted c's dropped SyncGroup as a join, so when a and d, all its members,
// rejoined (seq 191–192) the phase waited out its timer and their sessions expired first:
// the group was empty. c's retried commit at generation 4 (seq 194, on a new connection) was
// answered ILLEGAL_GENERATION (seq 195): kfake checks the member only in a group with members
// (handleOffsetCommit). Kafka keeps a member awaiting sync (ClassicGroupMember.hasSatisfiedHeartbeat),
// answers it REBALANCE_IN_PROGRESS at the deadline, and answers a commit from a member it does
// not hold UNKNOWN_MEMBER_ID (ClassicGroup.validateOffsetCommit → validateMember), as the
// reference: the search's violation at seq 195 is right. The harness judges the run's verdict
// known (kfakeParkedExpiry: c's SyncGroup given up unanswered; harness TestKfakeExpiresParkedSync
// reproduces it on kfake alone), and nothing else is violated.
func TestKfakeIllegalGenerationAfterCrashMidJoin(t *testing.T) {
	hist := h.Fixture(t, "kfake-illegal-generation-crash-mid-join-cooperative-sticky.jsonl")
	rep := oracle.Check(hist, oracle.Options{})
	if want := "violated at event 195:"; !strings.HasPrefix(rep.Reference, want) {
		t.Errorf("reference %q, want %s ...", rep.Reference, want)
	}
	for _, v := range rep.Violations {
		if v.Property != oracle.ReferenceSearch {
			t.Errorf("a plain violation: %s", v.Message)
		}
	}
	v := h.Verdict{History: hist, Report: rep}
	if v.ClassifyKnown(); !v.OK() || len(v.Known) != 1 || !strings.Contains(v.Known[0], "kfake expires a classic member while its JoinGroup or SyncGroup waits") {
		t.Errorf("want the search's violation known as kfake's parked expiry; ok %v, known %q", v.OK(), v.Known)
	}
}
