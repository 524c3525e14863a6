package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// stoppedStaysStopped judges a classic client that has stopped: failed with a fatal error
// (Java throws it from poll and the consumer takes no further part: docs/protocol.md §1.11) or
// closed (KafkaConsumer.close → ConsumerCoordinator.close). Its requests already sent are
// still answered, and those late answers must change nothing: a failed member that applies a
// SyncGroup's assignment, resets or rejoins on a late answer, acts on a group it has left —
// its callbacks run with nobody polling, and a rejoin puts a member the application no
// longer drives into the group. So from the step after it stops until the process restarts,
// its identity (member id, generation), state, ownership and rejoin flags do not change and
// it sends nothing, calls no callback and reports no fatal error again (Java throws a
// failure once, from the poll after it: a late answer to a stopped client raises nothing);
// only closing a failed client (the application's close, which gives the partitions up as
// lost) is allowed.
//
// A closed client has given everything up in the close itself: Java's close runs
// onLeavePrepare (the assignment cleared) and maybeLeaveGroup → resetGenerationOnLeaveGroup →
// resetStateAndRejoin (NO_GENERATION, state UNJOINED), static members too (they only skip the
// LeaveGroup, KIP-345). So a closed client holds no generation or member id, is UNJOINED,
// owns nothing, and has no part in a round: not leader (leadership belongs to the generation
// it gave up) and no assignment pending.
var stoppedStaysStopped = Property{
	Name:      "stopped-stays-stopped",
	Kind:      explorer.Always,
	Statement: "a classic client that failed or closed changes nothing afterwards (identity, state, ownership, rejoin flags; no request, no callback, no second fatal error) but for the close of a failed one, and a closed one holds no generation, member id, partitions or part in a round (a failed one no pending assignment)",
	Source:    "docs/protocol.md §1.11 (fatal errors thrown to the application), §1.7; ConsumerCoordinator.close, onLeavePrepare; AbstractCoordinator.maybeLeaveGroup, resetGenerationOnLeaveGroup",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for i := range pre.Slots {
			if pre.Slots[i].Incarnation != post.Slots[i].Incarnation {
				continue
			}
			if why := closedHoldsNothing(post, i); why != "" {
				return why
			}
			b, a := *pre.Slots[i].Client, *post.Slots[i].Client
			closing := pre.Slots[i].Process == spec.Running && post.Slots[i].Process == spec.Closed
			if !(b.Closed || b.FatalError != impl.None) || closing {
				continue
			}
			if what := stoppedChange(b, a); what != "" {
				return fmt.Sprintf("%s stopped (%s) and its %s changes afterwards", name(pre, i), stopCause(b), what)
			}
			for _, e := range ev {
				switch e := e.(type) {
				case spec.SendEvent:
					if e.Slot == i {
						return fmt.Sprintf("%s stopped (%s) and sends %s", e.Name, stopCause(b), kindName(e.Request))
					}
				case spec.CallbackEvent:
					if e.Slot == i {
						return fmt.Sprintf("%s stopped (%s) and is called on-partitions-%s", e.Name, stopCause(b), e.Kind)
					}
				case spec.FatalEvent:
					if e.Slot == i {
						return fmt.Sprintf("%s stopped (%s) and reports fatal %s again", e.Name, stopCause(b), e.Error)
					}
				}
			}
		}
		return ""
	},
}

// stoppedChange names what differs between a stopped client before and after a step, or "".
// Its cluster view and in-flight markers may change (answers are still read off the wire).
func stoppedChange(b, a consumer.Consumer) string {
	switch {
	case b.Gen != a.Gen:
		return fmt.Sprintf("generation (%q gen %d → %q gen %d)", b.Gen.MemberID, b.Gen.ID, a.Gen.MemberID, a.Gen.ID)
	case b.Status != a.Status:
		return fmt.Sprintf("state (%s → %s)", b.Status, a.Status)
	case !b.OwnedPartitions.Equal(a.OwnedPartitions):
		return fmt.Sprintf("ownership (%s → %s)", b.OwnedPartitions, a.OwnedPartitions)
	case b.RejoinNeeded != a.RejoinNeeded || b.NeedsJoinPrepare != a.NeedsJoinPrepare || b.Trigger != a.Trigger:
		return "rejoin flags"
	case b.Leader != a.Leader || b.AwaitingAssignment != a.AwaitingAssignment:
		return "role in the round"
	case b.FatalError != a.FatalError || b.Closed != a.Closed:
		return "stop cause"
	}
	return ""
}

// closedHoldsNothing says what slot i's closed client still holds, or "". A failed client may
// keep its identity until the application closes it, but has no part in a round either: the
// assignment a failed leader was computing is never sent.
func closedHoldsNothing(w *spec.World, i int) string {
	c := w.Slots[i].Client
	if w.Slots[i].Process != spec.Closed {
		if c.FatalError != impl.None && c.AwaitingAssignment {
			return fmt.Sprintf("%s failed (fatal %s) and still awaits its assignment", name(w, i), c.FatalError)
		}
		return ""
	}
	var held string
	switch {
	case c.Gen.ID != impl.NoGeneration || c.Gen.MemberID != impl.NoMemberID:
		held = fmt.Sprintf("member id %q at generation %d", c.Gen.MemberID, c.Gen.ID)
	case c.Status != consumer.Unjoined:
		held = "state " + c.Status.String()
	case !c.OwnedPartitions.IsEmpty():
		held = c.OwnedPartitions.String()
	case c.Leader:
		held = "leadership"
	case c.AwaitingAssignment:
		held = "a pending assignment"
	default:
		return ""
	}
	return fmt.Sprintf("%s closed and still holds %s", name(w, i), held)
}

// stopCause names why a classic client stopped.
func stopCause(c consumer.Consumer) string {
	if c.FatalError != impl.None {
		return "fatal " + c.FatalError.String()
	}
	return "closed"
}
