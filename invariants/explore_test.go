package invariants

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// TestPinnedCounts explores small worlds exhaustively and pins their size (worlds/pins.txt).
// A change in a count is a change in the model: it must be explained in the commit that makes
// it. Each world is explored with one and with two workers, which must agree on everything,
// counterexamples included.
func TestPinnedCounts(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"tests/two-members",
		"tests/two-members-crash",
		"tests/two-members-lost-response",
		"tests/two-members-leave",
		// 252 worlds more than without the hang (476): the leader may hang in its assignor
		// in any of its rounds, and the sync timer then removes it.
		"tests/two-members-hang",
		// A failover may come in any world; the log (the last Stable generation) and the
		// stale connections make the rest (FailoverEvent, coordinator.Load).
		"tests/two-members-failover",
		"tests/two-kip848",
		// The replayed group is the group (kip848.Group.Reload); the stale connections and
		// the loading phase make the rest.
		"tests/two-kip848-failover",
		// Two processes with one group.instance.id (instance=): KIP-345 replaces the first by
		// the second, which is then fenced for good (FENCED_INSTANCE_ID is fatal); under
		// KIP-848 the second is refused (UNRELEASED_INSTANCE_ID).
		"tests/twin-classic",
		"tests/twin-kip848",
		// KIP-1251 (the default): each member keeps the epoch it was assigned each partition
		// at, and a commit at an older epoch may be accepted.
		"tests/two-kip848-crash-commits",
		// The rule of Kafka 4.0 to 4.2 (commit-epochs exact): 144 states fewer.
		"tests/two-kip848-crash-commits-exact",
	} {
		t.Run(name, func(t *testing.T) {
			c := world(t, name)
			one, two := check(t, c, 1), check(t, c, 2)
			pinned(t, name, one)
			sameReports(t, c, one, two)
			for _, p := range one.Properties {
				q, _ := Lookup(p.Name)
				if p.Status != explorer.Holds && !(p.Status == explorer.Violated && q.ExpectedViolation(c) != "") {
					t.Errorf("%s: %s", p.Name, p.Status)
				}
			}
		})
	}
}

// zombieWindowOnly explores c whole and checks that the zombie window opens
// (exclusive-ownership-strict violated) and nothing the coordinator guarantees fails
// (exclusive-ownership, commit-fencing, no-handover-while-owned hold).
func zombieWindowOnly(t *testing.T, c spec.Config) explorer.Report[spec.World, spec.Action] {
	t.Helper()
	r := check(t, c, 0)
	if !r.Exhaustive {
		t.Fatalf("not exhaustive: %s", r.StoppedBy)
	}
	if s := status(r, "exclusive-ownership-strict"); s != explorer.Violated {
		t.Fatalf("exclusive-ownership-strict: %s, want violated", s)
	}
	for _, name := range []string{"exclusive-ownership", "commit-fencing", "no-handover-while-owned"} {
		if s := status(r, name); s != explorer.Holds {
			t.Errorf("%s: %s, want holds", name, s)
		}
	}
	return r
}

func sameReports(t *testing.T, c spec.Config, a, b explorer.Report[spec.World, spec.Action]) {
	t.Helper()
	if a.Distinct != b.Distinct || a.Generated != b.Generated || a.Depth != b.Depth {
		t.Errorf("workers disagree: %d/%d/%d vs %d/%d/%d", a.Distinct, a.Generated, a.Depth, b.Distinct, b.Generated, b.Depth)
	}
	for i := range a.Properties {
		pa, pb := a.Properties[i], b.Properties[i]
		if pa.Status != pb.Status || !cmp.Equal(pathText(c, pa.Path), pathText(c, pb.Path)) {
			t.Errorf("%s: workers disagree: %s %v vs %s %v", pa.Name, pa.Status, pathText(c, pa.Path), pb.Status, pathText(c, pb.Path))
		}
	}
}

// TestZombieWindow: once a live member's session can expire, the strict form of exclusive
// ownership fails (the removed member keeps its partitions until a response tells it) while
// the form over current members holds. Reference: docs/protocol.md §1.12.
func TestZombieWindow(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("explores 56k states")
	}
	c := config(t, twoMembers+"budget session-timeouts=1\ncommits on\n")
	zombieWindowOnly(t, c)
	p, _ := Lookup("exclusive-ownership-strict")
	if p.ExpectedViolation(c) == "" {
		t.Errorf("the violation is not marked expected under a session-timeout budget")
	}
	if p.ExpectedViolation(config(t, twoMembers+"budget crashes=1\n")) != "" {
		t.Errorf("a crash alone must not excuse the strict form: a crashed process owns nothing")
	}
}

const (
	twinClassic = twoMembersStatic + "member a2 topics=t static instance=a\ncommits on\n"
	twinKIP848  = "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\n" +
		"member a topics=t static\nmember a2 topics=t static instance=a\ncommits on\n"
	twoMembersStatic = "protocol cooperative\nconsumer kafka\ncoordinator kafka\nassignor cooperative-sticky\ntopic t 2\nmember a topics=t static\n"
)
