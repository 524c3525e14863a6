package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

var commitFencing = Property{
	Name:      "commit-fencing",
	Kind:      explorer.Always,
	Statement: "an accepted OffsetCommit for a partition comes from its owner in the current generation",
	Source:    "KAFKA.md §1.8, §1.12 (the check is generation-only)",
	Applies:   func(c spec.Config) bool { return c.Commits && classic(c) },
	Step: func(pre spec.World, ev []spec.Event, _ spec.World) string {
		for _, e := range ev {
			c, ok := e.(spec.CommitEvent)
			if !ok || c.Error != impl.None {
				continue
			}
			m, ok := pre.Coord.Member(c.MemberID)
			if !ok || c.Generation != pre.Coord.Generation() {
				return fmt.Sprintf("commit of %s from %s gen %d accepted, but the group is at gen %d without it", c.Partitions, c.MemberID, c.Generation, pre.Coord.Generation())
			}
			if extra := c.Partitions.Minus(m.Assignment.Partitions); !extra.IsEmpty() {
				return fmt.Sprintf("commit of %s from %s gen %d accepted, but gen %d assigned it %s", c.Partitions, c.MemberID, c.Generation, pre.Coord.Generation(), m.Assignment.Partitions)
			}
		}
		return ""
	},
}

var generationMonotonic = Property{
	Name:      "generation-monotonic",
	Kind:      explorer.Always,
	Statement: "the group's generation never decreases",
	Source:    "KAFKA.md §1.3 (generation rules)",
	Applies:   classic,
	Step: func(pre spec.World, _ []spec.Event, post spec.World) string {
		if post.Coord.Generation() < pre.Coord.Generation() {
			return fmt.Sprintf("generation went from %d to %d", pre.Coord.Generation(), post.Coord.Generation())
		}
		return ""
	},
}

var coordinatorTransitions = Property{
	Name:      "coordinator-transitions",
	Kind:      explorer.Always,
	Statement: "the group's state changes only along the allowed-predecessor graph (a step may pass through PreparingRebalance)",
	Source:    "KAFKA.md §1.3 (ClassicGroupState predecessors)",
	Applies:   classic,
	Step: func(pre spec.World, _ []spec.Event, post spec.World) string {
		from, to := pre.Coord.State(), post.Coord.State()
		// A removal rebalances and the join phase may complete in the same step (no member
		// left to wait for), so one step can take two edges through PreparingRebalance.
		via := coordinator.CanTransition(from, coordinator.PreparingRebalance) && coordinator.CanTransition(coordinator.PreparingRebalance, to)
		if from != to && !coordinator.CanTransition(from, to) && !via {
			return fmt.Sprintf("group went %s -> %s", from, to)
		}
		return ""
	},
}

// fencingCodes are the answers that tell a member the coordinator no longer knows it.
var fencingCodes = map[impl.ErrorCode]bool{impl.UnknownMemberID: true, impl.IllegalGeneration: true, impl.FencedInstanceID: true}

var fencedReachable = Property{
	Name:      "fenced-reachable",
	Kind:      explorer.Sometimes,
	Statement: "some member is told UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION or FENCED_INSTANCE_ID",
	Source:    "KAFKA.md §1.11 (reaction table); vacuity guard when timeouts of live members are budgeted",
	Applies:   func(c spec.Config) bool { return fencingTimeouts(c) && classic(c) },
	Step: func(_ spec.World, ev []spec.Event, _ spec.World) string {
		for _, e := range ev {
			if r, ok := e.(spec.ReplyEvent); ok && !r.Dropped && fencingCodes[r.Response.Code()] {
				return fmt.Sprintf("coord told %s %s", r.Name, r.Response.Code())
			}
		}
		return ""
	},
}
