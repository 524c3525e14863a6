package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
)

// TestPausedMember: a paused member (budget pauses) is removed while paused and acts as a
// zombie when it resumes, so the strict forms of exclusive ownership fail — expected, the
// zombie window — while ownership among current members, commit fencing, the handover rule
// and no-orphan-member hold, in both protocols. Without the pause the same worlds violate nothing (the pinned
// two-member worlds). Reference: docs/protocol.md §1.9, §1.12, §6.
func TestPausedMember(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, world     string
		distinct        int64
		strict, current []string
	}{
		{"classic", twoMembers + "budget pauses=1\n", 54237, []string{"exclusive-ownership-strict"},
			[]string{"exclusive-ownership", "no-handover-while-owned", "lost-only-after-membership-lost", "fenced-reachable", "no-orphan-member"}},
		{"KIP-848", twoKIP848 + "budget pauses=1\n", 2794, []string{"kip848-exclusive-ownership-strict"},
			[]string{"kip848-exclusive-ownership", "kip848-partition-epochs", "kip848-epoch-monotonic", "no-orphan-member"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.distinct > 10000 {
				t.Skip("explores 54k states")
			}
			c := config(t, tc.world)
			r := check(t, c, 0)
			if !r.Exhaustive || r.Distinct != tc.distinct {
				t.Fatalf("exhaustive %v, %d states, want %d", r.Exhaustive, r.Distinct, tc.distinct)
			}
			for _, name := range tc.strict {
				p, _ := Lookup(name)
				if s := status(r, name); s != explorer.Violated || p.ExpectedViolation(c) == "" {
					t.Errorf("%s: %s (expected: %q), want an expected violation", name, s, p.ExpectedViolation(c))
				}
			}
			for _, name := range tc.current {
				if s := status(r, name); s != explorer.Holds {
					t.Errorf("%s: %s, want holds", name, s)
				}
			}
		})
	}
}
