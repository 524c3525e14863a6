package spec

import (
	"maps"
	"reflect"
	"slices"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848client"
)

// Partial-order reduction: the independence relation of the world.
//
// An ample set (Peled 1993; Clarke, Grumberg and Peled, "Model Checking", ch. 10: conditions
// C0–C3) is a subset of a world's enabled actions that is enough to explore: every action
// outside it that can happen before one of its own is independent of all of it (C1), and
// none of it is visible to a property (C2, the caller's: see invariants.Reduced). The ample
// sets offered here are a member's local steps: the enabled DeliverResponse, Poll, Heartbeat,
// Commit and Refresh of one slot (classic Assign is the leader's, and its assignment is
// judged against the coordinator: never local). They touch only the slot's consumer, the
// head of its responses and the tail of its requests, which nothing else touches while:
//
//   - no environment event can hit the slot: every budget of an event on a live member
//     (leave, crash, restart, resubscription, lost response, poll timeout, hang, pause),
//     of a metadata change and of a failover is spent, and no coordinator is loading or
//     stale, and the config budgets no follow-ups (Quiet);
//   - no step of the slot outside the set can become enabled or disabled: it computes no
//     classic assignment (Assign, which a delivery can disable), its responses are not empty
//     (the delivery is in the set, and a reply appended to the tail commutes with taking the
//     head), or nothing can be appended to them, as it has no request queued or parked at
//     the coordinator; and its heartbeat, whose enabling reads the coordinator
//     (heartbeatMatters), is not wanted by the client at all;
//   - the coordinator's timers and its id assignment read the same of the slot after the
//     step as before: whether it holds its member id (held, the timers' cost and
//     no-orphan-member) and which member ids it refers to (freshID) (SameToOthers).
//
// Other slots' steps touch only their own slot; the coordinator's steps pop another queue
// (or the head of this slot's requests, which the set only appends to), change the
// coordinator and append to responses' tails. TestLocalStepsCommute checks on sampled
// reachable worlds that every pair this relation calls independent commutes and that neither
// disables the other.

// LocalKinds are the kinds of a member's local steps (the table's local column).
func LocalKinds() []Kind {
	var out []Kind
	for k := range numKinds {
		if kinds[k].local {
			out = append(out, k)
		}
	}
	return out
}

// IsLocal reports whether a is a local step of slot i (of any slot when i < 0).
func IsLocal(a Action, i int) bool {
	return a.Choice == nil && (i < 0 || int(a.Slot) == i) && a.Kind < numKinds && kinds[a.Kind].local
}

// Quiet reports whether slot i's local steps are independent of every step of the rest of
// the world that can happen before them (see above); the caller must still check each local
// step with SameToOthers.
func (w World) Quiet(i int) bool {
	if w.Loading {
		return false
	}
	left := w.Left.values()
	for _, j := range disturbing { // the budgets of the kinds the table says disturb
		if left[j] > 0 {
			return false
		}
	}
	for _, f := range unquieting {
		if w.Slots[i].Cond != 0 && f(w, i) {
			return false
		}
	}
	// A member's followup step (budget followups) is its own and outside the set, and a
	// local delivery can enable it (a SyncGroup answer asking for one; the coordinator hands
	// stored requests out again after the budget is spent): no reduction in such worlds.
	if w.cfg.Budget.Followups > 0 {
		return false
	}
	for _, s := range w.Slots {
		if s.Stale {
			return false
		}
	}
	s := w.Slots[i]
	if s.Process != Running || !w.Live(i) {
		return false
	}
	if len(s.In) == 0 && w.awaits(i) {
		return false
	}
	if w.ConsumerSlot(i) {
		return !s.Member.WantsHeartbeat()
	}
	// A classic leader computing an assignment has its Assign step outside the set, and a
	// local delivery can disable it (a heartbeat answered ILLEGAL_GENERATION resets the
	// leader of a round the group has left, e.g. one kept at the join deadline).
	if s.Assigning != nil {
		return false
	}
	_, effs := s.Client.HeartbeatTick()
	return len(effs) == 0 // the client sends no heartbeat
}

// awaits reports whether a response to slot i may still come: it has requests on their way,
// or the classic coordinator holds one parked.
func (w World) awaits(i int) bool {
	s := w.Slots[i]
	if len(s.Out) > 0 {
		return true
	}
	if w.IsConsumerGroup() {
		return false // the KIP-848 coordinator answers every request at once
	}
	conn := connOf(i, s.Incarnation)
	for _, m := range w.Coord.AllMembers() {
		if (m.Join.Parked && m.Join.Conn == conn) || (m.Sync.Parked && m.Sync.Conn == conn) {
			return true
		}
	}
	return false
}

// Progresses reports whether n, the world after a local step of slot i in w, is further on
// by the measure Σ (requests queued − responses queued): the step sends or takes a response.
// Only the coordinator and the environment take requests or add responses, so no cycle of
// the world's graph is made of such steps alone (see invariants.Reduced.Acyclic).
func (w World) Progresses(n World, i int) bool {
	a, b := w.Slots[i], n.Slots[i]
	return len(b.Out)-len(b.In) > len(a.Out)-len(a.In)
}

// SameToOthers reports whether n, the world after a local step of slot i in w, looks the same
// to the rest of the world as w: the same held ids and the same member ids referred to.
func (w World) SameToOthers(n World, i int) bool {
	return slices.Equal(w.heldBy(i), n.heldBy(i)) && sameIDs(*w.Slots[i], *n.Slots[i])
}

// heldBy lists the member ids slot i stands behind (held, heldKIP848), sorted.
func (w World) heldBy(i int) []impl.MemberID {
	if !w.Live(i) {
		return nil
	}
	s := w.Slots[i]
	var out []impl.MemberID
	if w.ConsumerSlot(i) {
		switch s.Member.State() {
		case kip848client.Joining, kip848client.Reconciling, kip848client.Acknowledging,
			kip848client.Stable, kip848client.Leaving:
			out = append(out, s.Member.MemberID())
		}
		for _, r := range s.In {
			if hb, ok := r.(impl.ConsumerGroupHeartbeatResponse); ok {
				out = append(out, hb.MemberID)
			}
		}
	} else {
		out = append(out, s.Client.MemberID())
		for _, r := range s.In {
			if j, ok := r.(impl.JoinGroupResponse); ok {
				out = append(out, j.MemberID)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// sameIDs reports whether two states of a slot refer to the same member ids.
func sameIDs(a, b Slot) bool {
	x, y := map[impl.MemberID]bool{}, map[impl.MemberID]bool{}
	collectIDs(reflect.ValueOf(a), x)
	collectIDs(reflect.ValueOf(b), y)
	return maps.Equal(x, y)
}
