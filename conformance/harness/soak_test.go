package harness

import (
	"slices"
	"testing"
	"time"
)

// TestSoakRounds pins Soak8's rounds: each slot in turn, its incarnations numbered, crash and
// close alternating within a pass and from one pass to the next, a settle after each change.
func TestSoakRounds(t *testing.T) {
	for _, c := range []struct {
		round int
		want  []Step
	}{
		{0, []Step{{Op: OpCrash, Node: "a"}, {Op: OpSettle}, {Op: OpStart, Node: "a2"}, {Op: OpSettle}}},
		{1, []Step{{Op: OpLeave, Node: "b"}, {Op: OpSettle}, {Op: OpStart, Node: "b2"}, {Op: OpSettle}}},
		{7, []Step{{Op: OpLeave, Node: "h"}, {Op: OpSettle}, {Op: OpStart, Node: "h2"}, {Op: OpSettle}}},
		{8, []Step{{Op: OpLeave, Node: "a2"}, {Op: OpSettle}, {Op: OpStart, Node: "a3"}, {Op: OpSettle}}},
		{17, []Step{{Op: OpLeave, Node: "b3"}, {Op: OpSettle}, {Op: OpStart, Node: "b4"}, {Op: OpSettle}}},
	} {
		if got := soakRound(c.round); !slices.Equal(got, c.want) {
			t.Errorf("round %d: %v, want %v", c.round, got, c.want)
		}
	}
	sc := Soak8(time.Minute)
	if !sc.Long || sc.For != time.Minute || len(sc.Steps) != len(SoakSlots)+1 || sc.Tail[0].Op != OpLeaveAll {
		t.Errorf("Soak8: %+v", sc)
	}
}
