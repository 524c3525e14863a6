package spec

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// Orphans lists the members the coordinator holds that no running process stands behind: no
// live consumer holds the id, none has a request parked under it or a response naming it on
// its way, no hung process heartbeats for it, and no leave naming it is on its way (a closed
// process's LeaveGroup, a KIP-848 heartbeat with member epoch -1: the member is let go as it
// arrives). Nothing but a timer removes such a member
// (its timers are free: see timer), and until then it keeps its place in the group and
// whatever the assignment gives it, which nobody consumes.
//
// A paused process (budget pauses) stands behind its member: it is judged as it will be when
// it resumes, for it goes on then under the id it holds and reads the responses queued for it.
// The coordinator cannot tell it from a dead one — nothing heartbeats meanwhile, and its
// session timer removes the member as it would a crashed process's — but no member stays that
// nobody will ever speak for. Reference: Kafka's GroupMetadataManager re-arms a KIP-848
// member's session timer on each heartbeat (consumerGroupHeartbeat,
// scheduleConsumerGroupSessionTimeout) and a classic member's on each heartbeat or join
// (rescheduleClassicGroupMemberHeartbeat), and fences the member only when it fires
// (consumerGroupFenceMemberOperation "the member session expired",
// expireClassicGroupMemberHeartbeat); the resumed client heartbeats under the id it kept, and
// an answer that the member is gone makes it rejoin.
func (w World) Orphans() []impl.MemberID {
	w = w.resumed()
	var out []impl.MemberID
	if w.IsConsumerGroup() {
		held := w.heldKIP848
		if w.cfg.mixed {
			held = func(id impl.MemberID) bool { return w.held(id) } // classic members too
		}
		for _, m := range w.Group.Members() {
			if !held(m.ID) && !w.leaving(m.ID) {
				out = append(out, m.ID)
			}
		}
		return out
	}
	for _, id := range w.Coord.Members() {
		if !w.held(id) && !w.heartbeating(id) && !w.leaving(id) {
			out = append(out, id)
		}
	}
	return out
}

// leaving says whether a request on its way to the coordinator, from any process, running or
// closed, leaves the group as member id.
func (w World) leaving(id impl.MemberID) bool {
	for _, s := range w.Slots {
		for _, r := range s.Out {
			switch r := r.(type) {
			case impl.LeaveGroupRequest:
				for _, m := range r.Members {
					if m.MemberID == id {
						return true
					}
				}
			case impl.ConsumerGroupHeartbeatRequest:
				if r.MemberID == id && r.MemberEpoch == impl.EpochLeave {
					return true
				}
			}
		}
	}
	return false
}

// Unsettled names one id the coordinator keeps that no running process stands behind — an
// orphan (Orphans), or a classic pending member id (KIP-394) that no live consumer holds or
// is being told — or returns "" when there is none. Both are bound to go: an orphan's
// session timer and a pending id's expiry (the pending-member timer) are free (see timer), so in every
// behaviour the coordinator lets such an id go eventually (invariants' orphans-expire).
func (w World) Unsettled() impl.MemberID {
	if o := w.Orphans(); len(o) > 0 {
		return o[0]
	}
	if w.IsConsumerGroup() {
		return ""
	}
	for _, id := range w.Coord.Pending() {
		if !w.held(id) {
			return id
		}
	}
	return ""
}

// resumed is w with every paused process running again, as it will be when its pause ends
// (Resume): Orphans' view of a paused process. Other slots are shared, as a step shares them.
func (w World) resumed() World {
	if !slices.ContainsFunc(w.Slots, func(s *Slot) bool { return s.Process == Paused }) {
		return w
	}
	w.Slots = slices.Clone(w.Slots)
	for i, s := range w.Slots {
		if s.Process == Paused {
			r := *s
			r.Process = Running
			w.Slots[i] = &r
		}
	}
	return w
}
