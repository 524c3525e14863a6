package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestResetLosesPartitions: a member reset after its session expired reports its partitions
// lost in the poll that sends its next JoinGroup, and reset-loses-partitions holds on that
// step; had it kept them (mutant 455: a reset tested as "no generation and no member id"),
// the property names it.
func TestResetLosesPartitions(t *testing.T) {
	t.Parallel()
	c := config(t, twoMembers+"budget session-timeouts=1\n")
	pre, ev, post, _ := shortestStep(t, c, resetLosesPartitions, func(pre *spec.World, ev []spec.Event, _ *spec.World) bool {
		for _, e := range ev {
			if s, ok := e.(spec.SendEvent); ok {
				_, join := s.Request.(impl.JoinGroupRequest)
				cl := pre.Slots[s.Slot].Client
				if join && cl.Gen.ID == impl.NoGeneration && !cl.OwnedPartitions.IsEmpty() {
					return true
				}
			}
		}
		return false
	})
	i := ev[len(ev)-1].(spec.SendEvent).Slot
	kept := ownSlots(post)
	kept.Slots[i].Client.OwnedPartitions = pre.Slots[i].Client.OwnedPartitions
	if got := resetLosesPartitions.Step(&pre, ev, &kept); !strings.Contains(got, "joins without a generation") || !strings.Contains(got, "still owning") {
		t.Errorf("kept after a reset: %q", got)
	}
}
