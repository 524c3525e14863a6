package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848client"
	"github.com/groupcheck/groupcheck/spec"
)

// kip848Listener is the KIP-848 client's ConsumerRebalanceListener contract, which
// revoke-before-reassign (what the callbacks add up to) does not see: which callbacks a step
// makes, not what they contain. Java's ConsumerMembershipManager, as AsyncKafkaConsumer
// applications rely on it:
//   - invokeOnPartitionsRevokedCallback and invokeOnPartitionsLostCallback skip an empty set
//     ("to keep the current behaviour"); invokeOnPartitionsAssignedCallback is called even
//     with an empty one, at the end of every reconciliation (reconcile: revoke, then assign
//     the added partitions, then ACKNOWLEDGING) — so an application learns that it joined,
//     or that a rebalance that only took partitions away is over;
//   - onPartitionsLost only once membership is lost: transitionToFenced (FENCED_MEMBER_EPOCH,
//     UNKNOWN_MEMBER_ID), transitionToFatal, transitionToStale (the poll timer expired);
//     a member that leaves on purpose with a positive epoch revokes
//     (invokeOnPartitionsRevokedOrLostToReleaseAssignment: memberEpoch > 0 → revoked).
//
// A client that reports lost partitions it still holds makes the application drop work it
// could have committed; one that skips the closing onPartitionsAssigned leaves it waiting for
// the end of a rebalance (or for its first assignment) that came.
var kip848Listener = Property{
	Name:      "kip848-listener",
	Kind:      explorer.Always,
	Statement: "a KIP-848 client calls onPartitionsRevoked and onPartitionsLost only with partitions, onPartitionsLost only when it is fenced, fails or its poll timer expired, and ends every reconciliation (its first after joining too) with onPartitionsAssigned, even with nothing added",
	Source:    "docs/protocol.md §3.7 (reconciliation: commit → revoked → assigned, even if empty; fenced → lost); ConsumerMembershipManager.reconcile, invokeOnPartitionsLostCallback, invokeOnPartitionsAssignedCallback, AbstractMembershipManager.invokeOnPartitionsRevokedOrLostToReleaseAssignment, transitionToFatal",
	Applies:   kip848Protocol,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for i := range post.Slots {
			if why := listenerStep(pre, ev, post, i); why != "" {
				return why
			}
		}
		return ""
	},
}

// listenerStep judges slot i's callbacks in one step.
func listenerStep(pre *spec.World, ev []spec.Event, post *spec.World, i int) string {
	if pre.Slots[i].Incarnation != post.Slots[i].Incarnation {
		return "" // a new incarnation starts with nothing and calls nothing
	}
	before, after := pre.Slots[i].Member, post.Slots[i].Member
	assigned := false
	for _, e := range ev {
		cb, ok := e.(spec.CallbackEvent)
		if !ok || cb.Slot != i {
			continue
		}
		if cb.Kind == consumer.Assigned {
			assigned = true
			continue
		}
		if cb.Partitions.IsEmpty() {
			return fmt.Sprintf("%s is called on-partitions-%s with no partitions", cb.Name, cb.Kind)
		}
		switch cb.Kind {
		case consumer.Lost:
			if !membershipLost(ev, i, after) {
				return fmt.Sprintf("%s is told lost %s though it was neither fenced nor failed, nor did its poll timer expire (%s, epoch %d)", cb.Name, cb.Partitions, after.Status, before.MemberEpoch)
			}
		case consumer.Revoked:
			if !leaving(after, post.Slots[i].Process) && !assignedAfter(ev, i, cb) {
				return fmt.Sprintf("%s's reconciliation revokes %s and ends without onPartitionsAssigned", cb.Name, cb.Partitions)
			}
		}
	}
	if before.Status == kip848client.Joining && holdsAssignment(after.Status) && !assigned {
		return fmt.Sprintf("%s ends its first reconciliation after joining (%s) without onPartitionsAssigned", name(post, i), after.Status)
	}
	return ""
}

// membershipLost says whether slot i's membership ends in the step in a way that loses its
// partitions: a fencing answer received, or the client ends FATAL or STALE.
func membershipLost(ev []spec.Event, i int, after *kip848client.Member) bool {
	return after.Status == kip848client.Fatal || after.Status == kip848client.Stale || fencedBy(ev, i)
}

// leaving says whether a client is leaving or has left the group on purpose (unsubscribe,
// close): its revocation is the leave's, which no onPartitionsAssigned follows.
func leaving(m *kip848client.Member, p spec.Process) bool {
	switch m.Status {
	case kip848client.PrepareLeaving, kip848client.Leaving, kip848client.Unsubscribed:
		return true
	}
	return p == spec.Closed
}

// assignedAfter says whether an onPartitionsAssigned of slot i follows callback cb in ev.
func assignedAfter(ev []spec.Event, i int, cb spec.CallbackEvent) bool {
	seen := false
	for _, e := range ev {
		c, ok := e.(spec.CallbackEvent)
		if !ok || c.Slot != i {
			continue
		}
		if seen && c.Kind == consumer.Assigned {
			return true
		}
		seen = seen || c.Kind == cb.Kind && c.Partitions.Equal(cb.Partitions)
	}
	return false
}

// holdsAssignment: the client states in which it owns an assignment (docs/protocol.md §3.7), spelled
// here rather than asked of the role.
func holdsAssignment(s kip848client.State) bool {
	return s == kip848client.Reconciling || s == kip848client.Acknowledging || s == kip848client.Stable
}
