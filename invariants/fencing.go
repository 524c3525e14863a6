package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// commitFencing is the harm commit fencing exists to prevent: a commit accepted from outside
// the current generation (the coordinator's only check, docs/protocol.md §1.8), or one that overwrites
// the progress of a partition another member of the group owns or is assigned — its next
// owner would resume from the wrong offset. A member committing a partition it still owns
// from an earlier generation that nobody else has is not that (librdkafka does it with the
// generation of a round it has not synced; commitFencingStrict flags it).
var commitFencing = Property{
	Name:      "commit-fencing",
	Kind:      explorer.Always,
	Statement: "an accepted OffsetCommit comes from a member of the current generation, for partitions no other member of the group owns or is assigned",
	Source:    "docs/protocol.md §1.8, §1.12 (the check is generation-only)",
	Applies:   func(c spec.Config) bool { return c.Commits && classic(c) },
	Expected:  staticKeptAtDeadline,
	Step: func(pre *spec.World, ev []spec.Event, _ *spec.World) string {
		return firstAcceptedCommit(ev, func(c spec.CommitEvent) string {
			if why := commitOutsideGeneration(pre, c); why != "" {
				return why
			}
			return commitOfOthers(pre, c)
		})
	},
}

// firstAcceptedCommit is judge's verdict on the first accepted OffsetCommit of a step's
// events that it faults, or "".
func firstAcceptedCommit(ev []spec.Event, judge func(spec.CommitEvent) string) string {
	for _, e := range ev {
		if c, ok := e.(spec.CommitEvent); ok && c.Error == impl.None {
			if why := judge(c); why != "" {
				return why
			}
		}
	}
	return ""
}

// commitFencingStrict asks more than the harm: every partition an accepted commit names is
// the committer's in the current generation's assignment. A client that commits with the
// generation it holds before it has synced breaks it without harm (librdkafka; README
// Real-deployment faults), so there its violation is expected.
var commitFencingStrict = Property{
	Name:      "commit-fencing-strict",
	Kind:      explorer.Always,
	Statement: "an accepted OffsetCommit for a partition comes from its owner in the current generation's assignment (stricter than the harm: fails where a client commits what it still owns before it has synced)",
	Source:    "docs/protocol.md §1.8, §1.12 (the check is generation-only)",
	Applies:   func(c spec.Config) bool { return c.Commits && classic(c) },
	Expected: func(c spec.Config) string {
		if c.CommitPolicy == consumer.CommitLibrdkafka {
			return "librdkafka commits with the generation of a round it has not synced, naming partitions it still owns that the round has not assigned yet (rd_kafka_cgrp_offsets_commit; README Real-deployment faults)"
		}
		if c.Consumer == impl.Kafka && c.Protocol == impl.Cooperative && c.Budget.SubscriptionChanges > 0 {
			return "a cooperative Kafka member whose subscription changed during the round ignores the round's assignment and keeps what it owned (ConsumerCoordinator.onJoinComplete returns early on checkAssignmentMatchedSubscription), then its onJoinPrepare auto-commit names those partitions with the new generation (README Real-deployment faults)"
		}
		return ""
	},
	Step: func(pre *spec.World, ev []spec.Event, _ *spec.World) string {
		return firstAcceptedCommit(ev, func(c spec.CommitEvent) string {
			if why := commitOutsideGeneration(pre, c); why != "" {
				return why
			}
			m, _ := pre.Coord.Member(c.MemberID)
			if extra := c.Partitions.Minus(m.Assignment.Partitions); !extra.IsEmpty() {
				return fmt.Sprintf("commit of %s from %s gen %d accepted, but gen %d assigned it %s", c.Partitions, c.MemberID, c.Generation, pre.Coord.Generation(), m.Assignment.Partitions)
			}
			return ""
		})
	},
}

// commitOutsideGeneration says why an accepted commit did not come from a member of the
// current generation, or "".
func commitOutsideGeneration(pre *spec.World, c spec.CommitEvent) string {
	if _, ok := pre.Coord.Member(c.MemberID); !ok || c.Generation != pre.Coord.Generation() {
		return fmt.Sprintf("commit of %s from %s gen %d accepted, but the group is at gen %d without it", c.Partitions, c.MemberID, c.Generation, pre.Coord.Generation())
	}
	return ""
}

// commitOfOthers says which partition of an accepted commit another member of the group is
// assigned (the coordinator's record) or owns (a process, running, hung or paused, holding
// that member id), or "".
func commitOfOthers(pre *spec.World, c spec.CommitEvent) string {
	for _, m := range pre.Coord.AllMembers() {
		if m.ID == c.MemberID {
			continue
		}
		if both := c.Partitions.Intersect(m.Assignment.Partitions); !both.IsEmpty() {
			return fmt.Sprintf("commit of %s from %s gen %d accepted, but gen %d assigns %s to %s", c.Partitions, c.MemberID, c.Generation, pre.Coord.Generation(), both, m.ID)
		}
		for j, s := range pre.Slots {
			if both := c.Partitions.Intersect(s.Client.Owned()); running(pre, j) && s.Client.MemberID() == m.ID && !both.IsEmpty() {
				return fmt.Sprintf("commit of %s from %s gen %d accepted, but %s (%s) owns %s", c.Partitions, c.MemberID, c.Generation, pre.Config().Members[j].Name, m.ID, both)
			}
		}
	}
	return ""
}

var generationMonotonic = Property{
	Name:      "generation-monotonic",
	Kind:      explorer.Always,
	Statement: "the group's generation never decreases, except to the logged one when the coordinator fails over",
	Source:    "docs/protocol.md §1.3 (generation rules; a join completion is not written to the log)",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		if f, ok := failoverOf(ev); ok {
			if post.Coord.Generation() != f.Generation {
				return fmt.Sprintf("a failover loaded gen %d but the group is at gen %d", f.Generation, post.Coord.Generation())
			}
			return ""
		}
		if post.Coord.Generation() < pre.Coord.Generation() {
			return fmt.Sprintf("generation went from %d to %d", pre.Coord.Generation(), post.Coord.Generation())
		}
		return ""
	},
}

var coordinatorTransitions = Property{
	Name:      "coordinator-transitions",
	Kind:      explorer.Always,
	Statement: "the group's state changes only along the allowed-predecessor graph (a step may pass through PreparingRebalance); a failover's new coordinator loads it Stable or Empty",
	Source:    "docs/protocol.md §1.3 (ClassicGroupState predecessors; GroupMetadata.loadGroup)",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		from, to := pre.Coord.State(), post.Coord.State()
		if _, ok := failoverOf(ev); ok {
			if to != coordinator.Stable && to != coordinator.Empty {
				return fmt.Sprintf("a failover loaded the group %s", to)
			}
			return ""
		}
		// A removal rebalances and the join phase may complete in the same step (no member
		// left to wait for), so one step can take two edges through PreparingRebalance.
		via := coordinator.CanTransition(from, coordinator.PreparingRebalance) && coordinator.CanTransition(coordinator.PreparingRebalance, to)
		if from != to && !coordinator.CanTransition(from, to) && !via {
			return fmt.Sprintf("group went %s -> %s", from, to)
		}
		return ""
	},
}

// failoverOf finds the step's failover, if it had one.
func failoverOf(ev []spec.Event) (spec.FailoverEvent, bool) {
	for _, e := range ev {
		if f, ok := e.(spec.FailoverEvent); ok {
			return f, true
		}
	}
	return spec.FailoverEvent{}, false
}

// fencingCodes are the answers that tell a member the coordinator no longer knows it.
var fencingCodes = map[impl.ErrorCode]bool{impl.UnknownMemberID: true, impl.IllegalGeneration: true, impl.FencedInstanceID: true}

var fencedReachable = Property{
	Name:      "fenced-reachable",
	Kind:      explorer.Sometimes,
	Statement: "some member is told UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION or FENCED_INSTANCE_ID",
	Source:    "docs/protocol.md §1.11 (reaction table); vacuity guard when timeouts of live members are budgeted",
	Applies:   func(c spec.Config) bool { return fencingTimeouts(c) && classic(c) },
	Step: func(_ *spec.World, ev []spec.Event, _ *spec.World) string {
		for _, e := range ev {
			if r, ok := e.(spec.ReplyEvent); ok && !r.Dropped && fencingCodes[r.Response.Code()] {
				return fmt.Sprintf("coord told %s %s", r.Name, r.Response.Code())
			}
		}
		return ""
	},
}
