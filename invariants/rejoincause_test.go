package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// TestRejoinCause: rejoin-cause holds up to a carried-out follow-up rebalance in a world whose
// assignor asks for one; it names a member that starts needing a rejoin in a step with no
// cause, and a follow-up carried out without a rejoin, mid-round or while not STABLE.
func TestRejoinCause(t *testing.T) {
	c := config(t, twoMembers+"budget followups=1\n")
	pre, ev, post, _ := shortestStep(t, c, rejoinCause, func(pre *spec.World, ev []spec.Event, post *spec.World) bool {
		for i := range pre.Slots {
			if pre.Slots[i].Client.FollowupDue && !post.Slots[i].Client.FollowupDue && len(ev) == 0 {
				return true
			}
		}
		return false
	})
	i := 0
	if !pre.Slots[0].Client.FollowupDue {
		i = 1
	}
	forge := func(w spec.World, f func(*consumer.Consumer)) spec.World {
		w = ownSlots(w)
		f(w.Slots[i].Client)
		return w
	}
	for want, pair := range map[string][2]spec.World{
		"out without rejoining":                {pre, forge(post, func(c *consumer.Consumer) { c.RejoinNeeded = false })},
		"out while PREPARING_REBALANCE":        {forge(pre, func(c *consumer.Consumer) { c.Status = consumer.PreparingRebalance }), post},
		"out while its own round is under way": {forge(pre, func(c *consumer.Consumer) { c.AwaitingAssignment = true }), post},
	} {
		if got := rejoinCause.Step(&pair[0], ev, &pair[1]); !strings.Contains(got, "carries its follow-up rebalance "+want) {
			t.Errorf("want %q, got %q", want, got)
		}
	}
	spurious := forge(post, func(c *consumer.Consumer) { c.FollowupDue = true })
	if got := rejoinCause.Step(&spurious, ev, ptr(forge(spurious, func(c *consumer.Consumer) { c.RejoinNeeded = true }))); got != "" {
		t.Errorf("rejoin flag already on: %q", got)
	}
	stable := forge(pre, func(c *consumer.Consumer) { c.FollowupDue = false })
	if got := rejoinCause.Step(&stable, nil, ptr(forge(stable, func(c *consumer.Consumer) { c.RejoinNeeded = true }))); !strings.Contains(got, "decides to rejoin without a cause") {
		t.Errorf("a rejoin without a cause: %q", got)
	}
}
