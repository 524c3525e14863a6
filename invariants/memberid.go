package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// memberIDAdopted is KIP-394's client half. A JoinGroup (v4+) without a member id is answered
// MEMBER_ID_REQUIRED with the id the coordinator has reserved for the member (a pending
// member, docs/protocol.md §1.4); the client adopts it — Java's JoinGroupResponseHandler sets
// generation = (NO_GENERATION, memberId) and joinGroupIfNeeded sends the next JoinGroup at once
// (docs/protocol.md §1.11 reaction table) — and that JoinGroup carries it. A client that does not
// adopt the id asks again without one, gets another id, and another, for ever: each answer
// leaves a pending member behind until its timer expires, and the member never joins (a
// livelock no capped search decides, as every step looks like the first). So in the step a
// joining member receives MEMBER_ID_REQUIRED, it holds the answer's member id (unless that step
// stopped it) and every JoinGroup it sends carries that id.
var memberIDAdopted = Property{
	Name:      "member-id-adopted",
	Kind:      explorer.Always,
	Statement: "a classic member answered MEMBER_ID_REQUIRED for its JoinGroup adopts the member id the answer gives, and its next JoinGroup carries it",
	Source:    "KIP-394; docs/protocol.md §1.4, §1.11 (JoinGroup MEMBER_ID_REQUIRED: adopt returned member id, rejoin at once); AbstractCoordinator.JoinGroupResponseHandler",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for _, e := range ev {
			r, ok := e.(spec.ReceiveEvent)
			j, isJoin := r.Response.(impl.JoinGroupResponse)
			if !ok || !isJoin || j.Error != impl.MemberIDRequired || !joining(pre, r.Slot) ||
				pre.Slots[r.Slot].Incarnation != post.Slots[r.Slot].Incarnation || !post.Live(r.Slot) {
				continue
			}
			if held := post.Slots[r.Slot].Client.Gen.MemberID; held != j.MemberID {
				return fmt.Sprintf("%s is given member id %s by MEMBER_ID_REQUIRED and holds %q", r.Name, j.MemberID, held)
			}
			for _, x := range ev {
				if s, ok := x.(spec.SendEvent); ok && s.Slot == r.Slot {
					if jr, ok := s.Request.(impl.JoinGroupRequest); ok && jr.MemberID != j.MemberID {
						return fmt.Sprintf("%s is given member id %s by MEMBER_ID_REQUIRED and joins as %q", r.Name, j.MemberID, jr.MemberID)
					}
				}
			}
		}
		return ""
	},
}

// joining says whether slot i's client is an active member waiting for its JoinGroup's
// answer, the one an answer to it is for (a member reset meanwhile discards it).
func joining(w *spec.World, i int) bool {
	c := w.Slots[i].Client
	return !c.Closed && c.FatalError == impl.None && c.Requests[consumer.KindJoin].Active && c.Status == consumer.PreparingRebalance
}
