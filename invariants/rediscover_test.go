package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestRediscoverWhenTold: after a failover, rediscover-when-told holds up to the step where a
// member told NOT_COORDINATOR looks the coordinator up again; the member that keeps its stale
// connection then, or gives it up on an accepted heartbeat, is named.
func TestRediscoverWhenTold(t *testing.T) {
	t.Parallel()
	for _, world := range []string{
		twoMembers + "budget failovers=1\n",
		"protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t\nbudget failovers=1\n",
	} {
		c := config(t, world)
		pre, ev, post, _ := shortestStep(t, c, rediscoverWhenTold, func(pre *spec.World, _ []spec.Event, post *spec.World) bool {
			for i := range pre.Slots {
				if pre.Slots[i].Stale && !post.Slots[i].Stale && post.Slots[i].Process == spec.Running {
					return true
				}
			}
			return false
		})
		i := 0
		if !pre.Slots[0].Stale || post.Slots[0].Stale {
			i = 1
		}
		kept := ownSlots(post)
		kept.Slots[i].Stale = true
		if got := rediscoverWhenTold.Step(&pre, ev, &kept); !strings.Contains(got, "on its stale connection and keeps it") {
			t.Errorf("%s: kept: %q", c.Name, got)
		}
		calm := []spec.Event{spec.ReceiveEvent{Slot: i, Name: name(&pre, i), Response: impl.HeartbeatResponse{}}}
		if got := rediscoverWhenTold.Step(&pre, calm, &post); !strings.Contains(got, "up on NONE, which says nothing of a move") {
			t.Errorf("%s: given up on NONE: %q", c.Name, got)
		}
	}
}
