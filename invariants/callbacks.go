package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

var callbackConsistency = Property{
	Name:      "revoke-before-reassign",
	Kind:      explorer.Always,
	Statement: "per member, callbacks track ownership: revoked or lost only what it owns, assigned only what it does not, and owned is what they add up to",
	Source:    "docs/protocol.md §2.6 (Revoked → Assigned per round); KIP-429 §3; docs/protocol.md §3.7 (KIP-848 client)",
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		owned := make([]impl.PartitionSet, len(pre.Slots))
		touched := make([]bool, len(pre.Slots))
		for i := range pre.Slots {
			owned[i] = pre.Owned(i)
		}
		for _, e := range ev {
			cb, ok := e.(spec.CallbackEvent)
			if !ok {
				continue
			}
			touched[cb.Slot] = true
			o := owned[cb.Slot]
			switch cb.Kind {
			case consumer.Assigned:
				if both := o.Intersect(cb.Partitions); !both.IsEmpty() {
					return fmt.Sprintf("%s is assigned %s which it already owns", cb.Name, both)
				}
				owned[cb.Slot] = o.Union(cb.Partitions)
			default:
				if extra := cb.Partitions.Minus(o); !extra.IsEmpty() {
					return fmt.Sprintf("%s is told %s %s which it does not own", cb.Name, cb.Kind, extra)
				}
				owned[cb.Slot] = o.Minus(cb.Partitions)
			}
		}
		for i, s := range post.Slots {
			restarted := s.Incarnation != pre.Slots[i].Incarnation
			if (touched[i] || !restarted) && s.Process != spec.Crashed && !post.Owned(i).Equal(owned[i]) {
				return fmt.Sprintf("%s owns %s, but its callbacks add up to %s", name(post, i), post.Owned(i), owned[i])
			}
		}
		return ""
	},
}

var lostOnlyAfterMembershipLost = Property{
	Name:      "lost-only-after-membership-lost",
	Kind:      explorer.Always,
	Statement: "a member's partitions are reported lost, or the generation that protects them given up, only once its membership is lost (or it leaves), or for partitions that no longer exist",
	Source:    "docs/protocol.md §2.3 step 2, §1.11 (REBALANCE_IN_PROGRESS keeps the generation); KIP-429 §1.b, §1.e",
	Applies:   classic,
	Expected:  generationReused,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for _, e := range ev {
			cb, ok := e.(spec.CallbackEvent)
			if !ok || cb.Kind != consumer.Lost || closingMidRebalance(pre, post, cb.Slot) {
				continue
			}
			c := pre.Slots[cb.Slot].Client
			member := c.MemberID() != impl.NoMemberID && c.Generation() != impl.NoGeneration
			if member && current(pre, cb.Slot) {
				vanished := cb.Partitions.Filter(func(tp impl.TopicPartition) bool { return !post.Cluster.Exists(tp) })
				if !vanished.Equal(cb.Partitions) {
					return fmt.Sprintf("%s is told lost %s while the coordinator still holds it (%s gen %d)", cb.Name, cb.Partitions.Minus(vanished), c.MemberID(), c.Generation())
				}
			}
		}
		return generationGivenUp(pre, ev, post)
	},
}

// generationReused: a coordinator failover during a rebalance loads the generation before it
// (a join completion is not written to the log), and the next join completion reuses the lost
// round's number. A member still holding that number from the old coordinator is told
// ILLEGAL_GENERATION for a request the new one answered at the older generation, and gives up a
// number the coordinator by then holds it at: its partitions are reported lost though the new
// round keeps it. Kafka's generation cannot tell the two rounds apart (README finding).
func generationReused(c spec.Config) string {
	if c.Budget.Failovers == 0 {
		return ""
	}
	return "a coordinator failover mid-rebalance reuses the lost round's generation number, so a member can give up a number the new round holds it at (docs/protocol.md §1.3: a join completion is not logged)"
}

// generationGivenUp finds a member that drops its generation while the coordinator still
// holds it at that generation and it owns partitions: the next onJoinPrepare reports them all
// lost (docs/protocol.md §2.3 step 2), so the loss is decided here, a step or more before the
// callback, when the member's generation is still known. Leaving gives membership up on
// purpose and is not a loss: a dynamic member's LeaveGroup is sent in the same step, and a
// static member's close sends none (KIP-345; Java's AbstractCoordinator.maybeLeaveGroup
// leaves only for a dynamic member) but resets the generation all the same, after revoking.
func generationGivenUp(pre *spec.World, ev []spec.Event, post *spec.World) string {
	for i, s := range post.Slots {
		c := pre.Slots[i].Client
		if s.Incarnation != pre.Slots[i].Incarnation || !pre.Live(i) || c.Generation() == impl.NoGeneration ||
			s.Client.Generation() != impl.NoGeneration || c.Owned().IsEmpty() || !current(pre, i) || sends[impl.LeaveGroupRequest](ev, i) || s.Process == spec.Closed {
			continue
		}
		return fmt.Sprintf("%s gives up generation %d while the coordinator still holds it there (%s); it will report %s lost",
			name(pre, i), c.Generation(), c.MemberID(), c.Owned())
	}
	return ""
}

// closingMidRebalance: the consumer closes with onPartitionsLost instead of
// onPartitionsRevoked while a rebalance is under way (Java's ConsumerCoordinator.onLeavePrepare
// tests rebalanceInProgress()), though the coordinator still holds it. That is Java's
// deliberate, conservative choice — the partitions may already be promised elsewhere, so the
// application must not commit — and KIP-429 says nothing about closing, so both variants do
// it. The property allows exactly that case.
func closingMidRebalance(pre, post *spec.World, i int) bool {
	return pre.Slots[i].Process == spec.Running && post.Slots[i].Process == spec.Closed &&
		pre.Slots[i].Client.Rebalancing()
}
