package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// leaveApplied asks that an answer agree with the state the coordinator moved to: a member
// whose leave was accepted is no longer in the group. A LeaveGroup member response without
// error (docs/protocol.md §1.7: GroupCoordinator.handleLeaveGroup removes the member, then answers
// NONE) and a ConsumerGroupHeartbeat with member epoch -1 answered -1 (§3.1: the member is
// fenced out of the group and its partitions go back to the target) both tell a closing
// client it may go; if the coordinator kept the member, its share of the assignment waits,
// owned by nobody, for a session timer — the same unavailability as a crash, for a client
// that did everything right. Nothing else sees it: the worst case after a leave is the
// crash's. Worlds with failovers are left out: the new coordinator loads the group from the
// log (§1.3), which may predate the leave, so the member comes back there by design and
// leaves again by its session timer.
var leaveApplied = Property{
	Name:      "leave-applied",
	Kind:      explorer.Always,
	Statement: "when the coordinator answers a leave as accepted, it no longer holds the member that left",
	Source:    "docs/protocol.md §1.7 (LeaveGroup removes the member, then answers), §3.1 (a member epoch -1 heartbeat leaves the group)",
	Applies:   func(c spec.Config) bool { return c.Budget.Failovers == 0 },
	Step: func(_ *spec.World, ev []spec.Event, post *spec.World) string {
		for _, e := range ev {
			r, ok := e.(spec.ReplyEvent)
			if !ok {
				continue
			}
			if id := acceptedLeave(r.Response); id != "" && holds(post, id) {
				return fmt.Sprintf("%s's leave as %s is answered as accepted, but the coordinator still holds %s", r.Name, id, id)
			}
		}
		return ""
	},
}

// acceptedLeave is the member id a response says has left the group, or "".
func acceptedLeave(r impl.Response) impl.MemberID {
	switch r := r.(type) {
	case impl.LeaveGroupResponse:
		if r.Error != impl.None {
			return ""
		}
		for _, m := range r.Members {
			if m.Error == impl.None && m.MemberID != impl.NoMemberID {
				return m.MemberID
			}
		}
	case impl.ConsumerGroupHeartbeatResponse:
		if r.Error == impl.None && r.MemberEpoch == impl.EpochLeave {
			return r.MemberID
		}
	}
	return ""
}

// holds says whether the world's coordinator holds member id.
func holds(w *spec.World, id impl.MemberID) bool {
	if w.Config().ConsumerProtocol {
		_, ok := w.Group.Member(id)
		return ok
	}
	_, ok := w.Coord.Member(id)
	return ok
}
