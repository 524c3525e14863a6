package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// joinDeadline is the classic join phase's deadline (docs/protocol.md §1.3). Entering
// PreparingRebalance arms a join timer (InitialDelayedJoin from Empty, else DelayedJoin), and
// when it expires onCompleteJoin ends the phase with whoever rejoined: the phase may wait for
// a slow member, never for ever. A group stuck in PreparingRebalance because nobody it waits
// for will ever come — every member gone while a KIP-394 pending id is left, say — is the bug
// class of KAFKA-7909 and KAFKA-9752 (a pending or new member's timeout left the rebalance
// stuck). The one firing that changes nothing is KAFKA-8220's: when every member left is a
// static member that has not rejoined (after the initial delay), onCompleteJoin keeps them and
// only re-arms the timer, waiting for their session timeouts. So the coordinator's join timer
// may fire (EnabledJoinPhaseTimeout, which the model offers as an action) exactly when the
// group is PreparingRebalance and the phase is the initial delay, has no member left, or has a
// member that rejoined or is dynamic (to be removed). A coordinator that disables the deadline
// where it is due leaves the group waiting for a member that may never come; one that enables
// it where KAFKA-8220 keeps the absent static members either evicts them (a static member's
// restart then rebalances, which KIP-345 exists to avoid) or fires for nothing. A state
// property: it adds nothing to the state.
var joinDeadline = Property{
	Name:      "join-deadline",
	Kind:      explorer.Always,
	Statement: "a classic group's join timer can fire exactly when it is PreparingRebalance and the phase is the initial delay, has no member left, or has a member that rejoined or is dynamic (a group of absent static members only re-arms it)",
	Source:    "docs/protocol.md §1.3 (prepareRebalance arms InitialDelayedJoin/DelayedJoin; onCompleteJoin steps 1–2, KAFKA-8220's re-arm); KAFKA-7909, KAFKA-9752 (rebalances stuck in PreparingRebalance)",
	Applies:   classic,
	State: func(w *spec.World) string {
		return joinDeadlineWrong(w.Coord, w.Coord.EnabledJoinPhaseTimeout())
	},
}

// joinDeadlineWrong says how enabled, whether g's join timer can fire, disagrees with when the
// deadline is due, or "".
func joinDeadlineWrong(g coordinator.Group, enabled bool) string {
	due, why := joinDeadlineDue(g)
	switch {
	case due && !enabled:
		return fmt.Sprintf("the group is %s (%s) and its join timer cannot fire", g.State(), why)
	case !due && enabled:
		return fmt.Sprintf("the group is %s (%s) and its join timer can fire", g.State(), why)
	}
	return ""
}

// joinDeadlineDue reports whether g's join deadline is due, and why (or why not).
func joinDeadlineDue(g coordinator.Group) (bool, string) {
	if g.State() != coordinator.PreparingRebalance {
		return false, "no join phase"
	}
	ms := g.AllMembers()
	switch {
	case g.InitialJoin():
		return true, "the initial delay"
	case len(ms) == 0:
		return true, "no member left"
	}
	for _, m := range ms {
		switch {
		case m.Join.Parked:
			return true, fmt.Sprintf("%s rejoined", m.ID)
		case m.InstanceID == "":
			return true, fmt.Sprintf("%s is dynamic and has not rejoined", m.ID)
		}
	}
	return false, "every member is a static member that has not rejoined"
}
