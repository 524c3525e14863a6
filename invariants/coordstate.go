package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// coordinatorConsistent is what a classic group's state says about its members (docs/protocol.md
// §1.3): an Empty group has no member, leader or protocol (a join phase that leaves nobody goes
// to Empty, and GroupMetadata.loadGroup's initial state is Empty exactly when the record has
// no members); a CompletingRebalance or Stable group has members, a leader among them and a
// selected protocol every member lists (initNextGeneration votes among the members' protocols;
// a load restores them); in any state the leader is a member, and there is one whenever
// there are members (the leader's removal elects another). A group whose state and members
// disagree behaves as neither: a Stable group without members skips the initial delay for
// its next joiner, a leader that is not a member is never answered, so nobody assigns.
var coordinatorConsistent = Property{
	Name:      "coordinator-consistent",
	Kind:      explorer.Always,
	Statement: "a classic group is Empty iff it has no members (then no leader or protocol); a CompletingRebalance or Stable group has a protocol all members list; the leader is a member, and there is one whenever there are members",
	Source:    "docs/protocol.md §1.3 (transitions, leader election, initNextGeneration; GroupMetadata.loadGroup's initialState)",
	Applies:   classic,
	State:     func(w *spec.World) string { return inconsistentGroup(w.Coord) },
}

// inconsistentGroup says how group g's state disagrees with its members, or "".
func inconsistentGroup(g coordinator.Group) string {
	st, ids := g.State(), g.Members()
	switch {
	case st == coordinator.Dead:
		return ""
	case st == coordinator.Empty && (len(ids) > 0 || g.Leader() != "" || g.ProtocolName() != ""):
		return fmt.Sprintf("the group is Empty with members %v, leader %q, protocol %q", ids, g.Leader(), g.ProtocolName())
	case st != coordinator.Empty && st != coordinator.PreparingRebalance && len(ids) == 0:
		return fmt.Sprintf("the group is %s without members", st)
	case len(ids) > 0 && !slices.Contains(ids, g.Leader()):
		return fmt.Sprintf("the group's leader %q is not among its members %v", g.Leader(), ids)
	case len(ids) == 0 && g.Leader() != "":
		return fmt.Sprintf("the group has no members but leader %s", g.Leader())
	}
	if st == coordinator.CompletingRebalance || st == coordinator.Stable {
		for _, m := range g.AllMembers() {
			if !slices.ContainsFunc(m.Protocols, func(p impl.GroupProtocol) bool { return p.Name == g.ProtocolName() }) {
				return fmt.Sprintf("the group is %s with protocol %q, which %s does not list", st, g.ProtocolName(), m.ID)
			}
		}
	}
	return ""
}
