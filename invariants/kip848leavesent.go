package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848client"
	"github.com/groupcheck/groupcheck/spec"
)

// kip848LeaveSent asks that a KIP-848 client which gives its subscription up — unsubscribe,
// or close — while in the group actually leave it, with the leave heartbeat its identity
// calls for. Java: AbstractMembershipManager.leaveGroup runs the revocation (PREPARE_LEAVING),
// then LEAVING, whose heartbeat is sent at once (shouldHeartbeatNow) or when the one in flight
// is answered, with ConsumerMembershipManager.leaveGroupEpoch: -2 when group.instance.id is
// set (the static member's temporary leave: its assignment waits for it, docs/protocol.md §3.6), else
// -1. A client that unsubscribes without leaving stays a member subscribed to nothing, and
// one that closes without its leave leaves an orphan record whose share of the assignment is
// nobody's until the session timer (the no-orphan-member window KAFKA-17116 expects only
// for a member that never learnt its id); a static member that leaves with -1 gives its
// assignment away for good, so its restart rebalances the group. And the leave is not sent
// by a client the coordinator has just fenced: it is no longer a member, and Java's
// transitionToFenced moves a LEAVING member to UNSUBSCRIBED "without sending the leave
// request" (a leave for a removed member is answered UNKNOWN_MEMBER_ID; with a member id the
// client keeps across incarnations, KIP-1082, it would name a member it no longer is). Four
// parts:
//   - the step that drops the subscription of a client in the group (JOINING, RECONCILING,
//     ACKNOWLEDGING, STABLE) with a member id sends its leave, or keeps the process running
//     with a heartbeat in flight (the leave follows the answer);
//   - a client without a subscription sends no heartbeat but the leave (a negative epoch);
//   - a leave heartbeat carries -2 if and only if the member is static;
//   - no leave in the step that tells the client it is fenced (FENCED_MEMBER_EPOCH,
//     UNKNOWN_MEMBER_ID).
var kip848LeaveSent = Property{
	Name:      "kip848-leave-sent",
	Kind:      explorer.Always,
	Statement: "a KIP-848 client that unsubscribes or closes while in the group with a member id sends its leave heartbeat at once or when its heartbeat in flight is answered (unless that answer fences it), sends no other heartbeat without a subscription, and leaves with epoch -2 if static, else -1",
	Source:    "docs/protocol.md §3.6, §3.7 (PREPARE_LEAVING → LEAVING: epoch -1, -2 if instance id set; fenced while leaving → UNSUBSCRIBED); AbstractMembershipManager.leaveGroup, transitionToFenced, ConsumerMembershipManager.leaveGroupEpoch",
	Applies:   kip848Protocol,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		c := pre.Config()
		for _, e := range ev {
			s, ok := e.(spec.SendEvent)
			if !ok {
				continue
			}
			h, ok := s.Request.(impl.ConsumerGroupHeartbeatRequest)
			if !ok {
				continue
			}
			static := c.Members[s.Slot].Static
			switch {
			case h.MemberEpoch >= 0 && len(post.Slots[s.Slot].Member.Topics) == 0:
				return fmt.Sprintf("%s has no subscription and sends a heartbeat at epoch %d instead of leaving", s.Name, h.MemberEpoch)
			case h.MemberEpoch < 0 && (h.MemberEpoch == impl.EpochTemporaryLeave) != static:
				return fmt.Sprintf("%s (static: %t) leaves with epoch %d", s.Name, static, h.MemberEpoch)
			case h.MemberEpoch < 0 && fencedBy(ev, s.Slot):
				return fmt.Sprintf("%s is told it is fenced and still sends its leave", s.Name)
			}
		}
		for i, s := range post.Slots {
			m, n := pre.Slots[i].Member, s.Member
			if s.Incarnation != pre.Slots[i].Incarnation || !memberState(m.Status) || m.ID == impl.NoMemberID ||
				len(m.Topics) == 0 || len(n.Topics) > 0 {
				continue
			}
			if !sentLeave(ev, i) && !(s.Process == spec.Running && n.Heartbeat.Active) {
				return fmt.Sprintf("%s (%s, %s) gives its subscription up and neither sends its leave nor waits for a heartbeat in flight", name(post, i), m.ID, m.Status)
			}
		}
		return ""
	},
}

// memberState: the client states that are members of the group (docs/protocol.md §3.7), spelled here
// rather than asked of the role.
func memberState(s kip848client.State) bool {
	return s == kip848client.Joining || holdsAssignment(s)
}

// sentLeave says whether slot i sends a leave heartbeat (a negative member epoch) in ev.
func sentLeave(ev []spec.Event, i int) bool {
	for _, e := range ev {
		if s, ok := e.(spec.SendEvent); ok && s.Slot == i {
			if h, ok := s.Request.(impl.ConsumerGroupHeartbeatRequest); ok && h.MemberEpoch < 0 {
				return true
			}
		}
	}
	return false
}

// fencedBy says whether slot i receives a fencing heartbeat answer in ev.
func fencedBy(ev []spec.Event, i int) bool {
	for _, e := range ev {
		if r, ok := e.(spec.ReceiveEvent); ok && r.Slot == i {
			if h, ok := r.Response.(impl.ConsumerGroupHeartbeatResponse); ok && (h.Error == impl.FencedMemberEpoch || h.Error == impl.UnknownMemberID) {
				return true
			}
		}
	}
	return false
}
