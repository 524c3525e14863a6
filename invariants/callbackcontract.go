package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// callbackContract is the ConsumerRebalanceListener contract of a classic client, per step:
// when each callback is called, not what it carries (revoke-before-reassign judges the
// partitions, lost-only-after-membership-lost the losses). Java's ConsumerCoordinator:
//   - onJoinComplete calls invokePartitionsAssigned(addedPartitions) after every assignment
//     it applies, even an empty one (docs/protocol.md §2.6 step 4): an application that starts its
//     work, or learns a round is over, in onPartitionsAssigned waits for ever if it is
//     skipped. An assignment naming topics outside the subscription is not applied (step 1),
//     and the KIP variant applies every one (KIP-429 §3).
//   - onPartitionsLost is called only with a non-empty set (onJoinPrepare and onLeavePrepare
//     test !isEmpty()), and onPartitionsRevoked too except in an eager onJoinPrepare, which
//     calls it even empty (judged only there: the poll that sends the JoinGroup); an empty
//     callback where Java calls none is a rebalance the application sees that did not happen.
//   - onPartitionsRevoked, which lets the application commit, is for a member that still
//     holds its generation: a generation of −1 or no member id makes onJoinPrepare call
//     onPartitionsLost instead (docs/protocol.md §2.3 step 2; the ILLEGAL_GENERATION reset keeps the
//     member id and still counts as lost), and onLeavePrepare (close) does the same while a
//     rebalance is under way (rebalanceInProgress: PREPARING_ or COMPLETING_REBALANCE), when
//     the partitions may already be promised elsewhere.
//
// The generation is read from the client's fields, not its helpers (GroupGeneration.Reset),
// so that the property does not share a fault with the code it judges.
var callbackContract = Property{
	Name:      "callback-contract",
	Kind:      explorer.Always,
	Statement: "a classic client calls onPartitionsAssigned after every assignment it applies (even empty), never an empty onPartitionsLost or (outside an eager onJoinPrepare) onPartitionsRevoked, and onPartitionsRevoked only while it holds its generation and, on close, is not rebalancing",
	Source:    "docs/protocol.md §2.3 steps 2–3, §2.6 step 4, §1.11; ConsumerCoordinator.onJoinPrepare, onJoinComplete, onLeavePrepare",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for _, e := range ev {
			switch e := e.(type) {
			case spec.ReceiveEvent:
				if a, ok := e.Response.(impl.SyncGroupResponse); ok && appliesAssignment(pre, e.Slot, a) && !called(ev, e.Slot, consumer.Assigned) {
					return fmt.Sprintf("%s applies its assignment %s without calling onPartitionsAssigned", e.Name, a.Assignment.Partitions)
				}
			case spec.CallbackEvent:
				if why := misplacedCallback(pre, ev, post, e); why != "" {
					return why
				}
			}
		}
		return ""
	},
}

// misplacedCallback says why callback e should not have been called, or "".
func misplacedCallback(pre *spec.World, ev []spec.Event, post *spec.World, e spec.CallbackEvent) string {
	c := pre.Slots[e.Slot].Client
	switch {
	case e.Kind == consumer.Assigned:
		return ""
	case e.Partitions.IsEmpty() && (e.Kind == consumer.Lost || !sends[impl.JoinGroupRequest](ev, e.Slot)):
		return fmt.Sprintf("%s is called on-partitions-%s with nothing", e.Name, e.Kind)
	case e.Kind != consumer.Revoked:
		return ""
	case c.Gen.ID == impl.NoGeneration || c.Gen.MemberID == impl.NoMemberID:
		return fmt.Sprintf("%s is told revoked %s without a generation (%q gen %d): they are lost", e.Name, e.Partitions, c.Gen.MemberID, c.Gen.ID)
	case post.Slots[e.Slot].Process == spec.Closed && pre.Slots[e.Slot].Process == spec.Running &&
		(c.Status == consumer.PreparingRebalance || c.Status == consumer.CompletingRebalance):
		return fmt.Sprintf("%s closes %s and is told revoked %s: a close mid-rebalance loses them", e.Name, c.Status, e.Partitions)
	}
	return ""
}

// appliesAssignment says whether slot i's client applies the assignment of SyncGroup answer
// a: a NONE for the SyncGroup it has in flight under the generation it is completing, whose
// topics it subscribes (the KIP variant: any topics).
func appliesAssignment(pre *spec.World, i int, a impl.SyncGroupResponse) bool {
	c := pre.Slots[i].Client
	p := c.Requests[consumer.KindSync]
	if a.Error != impl.None || c.Closed || c.FatalError != impl.None || !p.Active ||
		c.Status != consumer.CompletingRebalance || p.Sent != c.Gen {
		return false
	}
	ps := a.Assignment.Partitions
	return c.Config.Variant == impl.KIP || ps.OfTopics(c.Topics).Equal(ps)
}

// called says whether the step calls callback k of slot i.
func called(ev []spec.Event, i int, k consumer.CallbackKind) bool {
	for _, e := range ev {
		if cb, ok := e.(spec.CallbackEvent); ok && cb.Slot == i && cb.Kind == k {
			return true
		}
	}
	return false
}

// sends says whether slot i sends a request of type R in the step.
func sends[R impl.Request](ev []spec.Event, i int) bool {
	return slices.ContainsFunc(ev, func(e spec.Event) bool {
		s, ok := e.(spec.SendEvent)
		_, is := s.Request.(R)
		return ok && is && s.Slot == i
	})
}

// received says whether the step delivers a response of type R to slot i.
func received[R impl.Response](ev []spec.Event, i int) bool {
	return slices.ContainsFunc(ev, func(e spec.Event) bool {
		r, ok := e.(spec.ReceiveEvent)
		_, is := r.Response.(R)
		return ok && is && r.Slot == i
	})
}
