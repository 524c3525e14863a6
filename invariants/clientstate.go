package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// clientStates judges a classic client's state (AbstractCoordinator.MemberState, docs/protocol.md
// §1.11) step by step. The state says which answers the client still takes: Java's
// JoinGroupResponseHandler drops a JoinGroup answer unless the member is PREPARING_REBALANCE
// ("we may have already left the group"), its SyncGroupResponseHandler completes a round only
// from COMPLETING_REBALANCE, and the heartbeat thread runs only outside UNJOINED and
// PREPARING_REBALANCE. So a client that takes a late JoinGroup answer after a reset joins a
// round under an identity it gave up, and one whose poll timeout leaves it in the group keeps
// a member id the coordinator has been told is gone. Each transition must have its cause:
//   - PREPARING_REBALANCE: a JoinGroup sent in the step (initiateJoinGroup), or, from
//     COMPLETING_REBALANCE, a failed round (a SyncGroup answer, a lost one, the assignor
//     failing: the model's roundFailed; Java stays COMPLETING_REBALANCE until its next
//     JoinGroup, which this property also accepts);
//   - COMPLETING_REBALANCE: only from PREPARING_REBALANCE, on a JoinGroup answer;
//   - STABLE: only from COMPLETING_REBALANCE, on a SyncGroup answer;
//   - UNJOINED: only without a generation (resetStateAndGeneration, close).
//
// And a poll timeout (max.poll.interval.ms expiring: maybeLeaveGroup →
// resetGenerationOnLeaveGroup → resetStateAndRejoin with the member id, dynamic and static
// members alike, docs/protocol.md §1.9) leaves its member UNJOINED without member id or generation,
// whatever state it was in: a JoinGroup in flight is thereby given up, and the next one
// carries no member id. A poll-timeout step is one that spends the poll-timeouts budget; its
// member is the one client that changes, or, when none does, one that was UNJOINED without a
// generation already.
var clientStates = Property{
	Name:      "client-states",
	Kind:      explorer.Always,
	Statement: "a classic client's state changes only for its cause (PREPARING_REBALANCE by a JoinGroup or a failed round, COMPLETING_REBALANCE from PREPARING_REBALANCE on a JoinGroup answer, STABLE from COMPLETING_REBALANCE on a SyncGroup answer, UNJOINED without a generation), and a poll timeout leaves its member UNJOINED without member id or generation",
	Source:    "docs/protocol.md §1.9, §1.11; AbstractCoordinator.MemberState, initiateJoinGroup, JoinGroupResponseHandler, SyncGroupResponseHandler, maybeLeaveGroup, resetGenerationOnLeaveGroup, resetStateAndGeneration",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		changed := -1
		for i := range pre.Slots {
			if pre.Slots[i].Incarnation != post.Slots[i].Incarnation || pre.Slots[i].Client == post.Slots[i].Client {
				continue
			}
			b, a := *pre.Slots[i].Client, *post.Slots[i].Client
			changed = i
			if why := stateChange(b, a, ev, i); why != "" {
				return fmt.Sprintf("%s goes from %s to %s %s", name(pre, i), b.Status, a.Status, why)
			}
		}
		if pre.Left.PollTimeouts == post.Left.PollTimeouts {
			return ""
		}
		if changed >= 0 {
			if a := post.Slots[changed].Client; a.Status != consumer.Unjoined || a.Gen != consumer.NoGeneration {
				return fmt.Sprintf("%s exceeds max.poll.interval.ms and is left %s as %q gen %d", name(post, changed), a.Status, a.Gen.MemberID, a.Gen.ID)
			}
			return ""
		}
		for i := range pre.Slots {
			if c := pre.Slots[i].Client; pre.Live(i) && c.Status == consumer.Unjoined && c.Gen == consumer.NoGeneration {
				return ""
			}
		}
		return "a member exceeds max.poll.interval.ms and nothing changes, but every live member is in the group or holds a member id"
	},
}

// stateChange says what is wrong with slot i's client going from b to a in a step with
// events ev, or "".
func stateChange(b, a consumer.Consumer, ev []spec.Event, i int) string {
	if a.Status == b.Status {
		return ""
	}
	switch a.Status {
	case consumer.PreparingRebalance:
		if sent[impl.JoinGroupRequest](ev, i) {
			return ""
		}
		if b.Status == consumer.CompletingRebalance && (received[impl.SyncGroupResponse](ev, i) ||
			b.Requests[consumer.KindSync].Active && !a.Requests[consumer.KindSync].Active || b.AwaitingAssignment && !a.AwaitingAssignment) {
			return ""
		}
		return "without sending a JoinGroup or failing its round"
	case consumer.CompletingRebalance:
		if b.Status == consumer.PreparingRebalance && received[impl.JoinGroupResponse](ev, i) {
			return ""
		}
		return "without a JoinGroup answer taken while PREPARING_REBALANCE"
	case consumer.Stable:
		if b.Status == consumer.CompletingRebalance && received[impl.SyncGroupResponse](ev, i) {
			return ""
		}
		return "without a SyncGroup answer taken while COMPLETING_REBALANCE"
	case consumer.Unjoined:
		if a.Gen.ID == impl.NoGeneration {
			return ""
		}
		return fmt.Sprintf("keeping generation %d", a.Gen.ID)
	}
	return ""
}

// sent says whether slot i sent a request of type R in the step.
func sent[R impl.Request](ev []spec.Event, i int) bool {
	for _, e := range ev {
		if s, ok := e.(spec.SendEvent); ok && s.Slot == i {
			if _, is := s.Request.(R); is {
				return true
			}
		}
	}
	return false
}
