package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// joinedLeader: the leader of a new classic generation is a member whose JoinGroup that
// generation answered (docs/protocol.md §1.3 step 2: a leader that has not rejoined is replaced by a
// rejoined member — GroupMetadata.maybeElectNewJoinedLeader — and a join phase in which
// nobody rejoined does not complete). Only the leader runs the assignor, from the member list
// its JoinGroup answer carries; a generation led by a member that did not join it (an absent
// static member kept by KAFKA-8220) has nobody to assign, so every member waits in
// CompletingRebalance until the sync timer evicts the absent leader and the group rebalances
// once more — the same outcome, later, which no ownership property and no figure separates
// from the reference's own removal of the absent member.
var joinedLeader = Property{
	Name:      "joined-leader",
	Kind:      explorer.Always,
	Statement: "when a classic join phase completes into a new generation, its leader is a member whose JoinGroup the step answers in that generation",
	Source:    "docs/protocol.md §1.3 step 2 (GroupMetadata.maybeElectNewJoinedLeader), step 4",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		g := post.Coord
		if g.State() != coordinator.CompletingRebalance || g.Generation() <= pre.Coord.Generation() {
			return ""
		}
		for _, e := range ev {
			r, ok := e.(spec.ReplyEvent)
			if !ok {
				continue
			}
			if a, isJoin := r.Response.(impl.JoinGroupResponse); isJoin && a.Error == impl.None && a.Generation == g.Generation() && a.MemberID == g.Leader() {
				return ""
			}
		}
		return fmt.Sprintf("generation %d's leader %s is not answered a JoinGroup in it: it did not rejoin", g.Generation(), g.Leader())
	},
}
