package invariants

import (
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// staticKept is KIP-345's promise at the join deadline (KAFKA-8220, docs/protocol.md §1.3 step 1): a
// static member that is slow to rejoin is not evicted when the join phase times out; the
// coordinator keeps it, with its old metadata, in the next generation, and the member catches
// up when it rejoins — no second rebalance, and its partitions are not handed to another
// member only to come back. A reachability property: some world shows a live static member
// still at an older generation (no JoinGroup answer on its way to it) while the coordinator
// holds it in a CompletingRebalance or Stable generation it did not join. A coordinator that
// evicts absent static members like dynamic ones, never lets the deadline end a phase that
// waits for one, or keeps the phase open one deadline longer than needed (where the budget
// allows only one slow member) never shows it. Only where a join timeout of a live member is
// budgeted and a member is static: elsewhere nothing can be slow at the deadline. A state
// predicate, so it adds nothing to the state.
var staticKept = Property{
	Name:      "static-member-kept",
	Kind:      explorer.Sometimes,
	Statement: "with a join timeout budgeted, a live static member can miss a join phase and stay a member: the coordinator holds it in a CompletingRebalance or Stable generation newer than the member's, and no JoinGroup answer is on its way to it",
	Source:    "KIP-345; KAFKA-8220 (GroupCoordinator.onCompleteJoin keeps static members that did not rejoin); docs/protocol.md §1.3 step 1",
	Applies: func(c spec.Config) bool {
		return classic(c) && c.Budget.JoinTimeouts > 0 && slices.ContainsFunc(c.Members, func(m spec.MemberConfig) bool { return m.Static })
	},
	State: func(w *spec.World) string {
		g := w.Coord
		if g.State() != coordinator.CompletingRebalance && g.State() != coordinator.Stable {
			return "no generation under way"
		}
		for i, s := range w.Slots {
			gen := s.Client.Gen
			if !w.Live(i) || gen.ID < 0 || gen.ID >= g.Generation() || answerOnItsWay(s) {
				continue
			}
			if m, ok := g.Member(gen.MemberID); ok && m.InstanceID != "" {
				return ""
			}
		}
		return "no live static member is kept in a generation it did not join"
	},
}

// answerOnItsWay reports whether a JoinGroup answer is on its way to the slot.
func answerOnItsWay(s *spec.Slot) bool {
	return slices.ContainsFunc(s.In, func(r impl.Response) bool {
		_, ok := r.(impl.JoinGroupResponse)
		return ok
	})
}
