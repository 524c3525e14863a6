package simulate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/explorer/twophase"
)

func TestSameSeedSameWalk(t *testing.T) {
	m, props := twophase.New(4)
	a := Walk[twophase.State, twophase.Action](m, props, Seeded(7, 3), 40)
	b := Walk[twophase.State, twophase.Action](m, props, Seeded(7, 3), 40)
	c := Walk[twophase.State, twophase.Action](m, props, Seeded(8, 3), 40)
	if !cmp.Equal(a, b) {
		t.Fatalf("the same seed and walk gave different walks")
	}
	if cmp.Equal(a, c) {
		t.Fatalf("different seeds gave the same walk (possible but very unlikely at this length)")
	}
	if a.Violated != "" {
		t.Fatalf("correct TwoPhase violated %s", a.Violated)
	}
	if !a.Deadlock && len(a.Path.Steps) != 40 {
		t.Fatalf("walk stopped early without a reason: %d steps", len(a.Path.Steps))
	}
}

// TestFindsTheBrokenTwoPhase: random walks over TwoPhase with an RM that commits on its own
// find the TCConsistent violation, and each reported path really ends in a violating state.
func TestFindsTheBrokenTwoPhase(t *testing.T) {
	m, props := twophase.NewEagerCommit(3)
	found := 0
	for w := uint64(0); w < 200; w++ {
		r := Walk[twophase.State, twophase.Action](m, props, Seeded(1, w), 30)
		if r.Violated == "" {
			continue
		}
		found++
		for _, p := range props {
			if p.Name == r.Violated && p.Check(r.Path.Last()) {
				t.Fatalf("walk %d reports %s but its last state satisfies it", w, r.Violated)
			}
		}
		if r.Violated != "TCConsistent" {
			t.Fatalf("walk %d violated %s", w, r.Violated)
		}
	}
	if found == 0 {
		t.Fatalf("200 random walks never found the eager-commit violation")
	}
}
