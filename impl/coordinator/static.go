package coordinator

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// replaceStatic is a static member's JoinGroup without member id while its instance id is
// mapped (a restart): the old id's parked JoinGroup/SyncGroup get FENCED_INSTANCE_ID, the
// record (assignment, pendingSync, leadership) moves to fresh with the new protocols and the
// new request parked. Then by state:
//   - Stable: if the selected assignor would not change, answer the current generation
//     without rebalance (generation unchanged). From v9 (KIP-814) the answer names the real
//     leader and, when the restarted member is the leader, lists the members with
//     SkipAssignment; before v9 it names the leader from before the replacement, so a
//     restarted leader does not think it leads and runs no assignor. Otherwise rebalance.
//     Variant KIP: TOPIC_METADATA_CHANGE / UPGRADE always rebalance.
//   - CompletingRebalance: always rebalance (KAFKA-9801).
//   - PreparingRebalance: the replacement only.
//
// Kafka leaves the old id in pendingSyncMembers; the reference moves the flag with the
// record, so the sync timer judges the instance, not the dead id.
// Reference: docs/protocol.md §1.10.
func (s *step) replaceStatic(req impl.JoinGroupRequest, old, fresh impl.MemberID) {
	prevLeader := s.g.leader
	rec := s.extract(old)
	if rec.Join.Parked {
		s.reply(rec.Join.Conn, joinError(old, impl.FencedInstanceID))
	}
	if rec.Sync.Parked {
		s.reply(rec.Sync.Conn, impl.SyncGroupResponse{Error: impl.FencedInstanceID})
	}
	rec.ID, rec.Protocols, rec.Join, rec.Sync = fresh, req.Protocols, parked(req), ParkedSync{}
	s.insert(rec)
	if s.g.leader == old {
		s.g.leader = fresh
	}
	switch s.g.state {
	case Stable:
		if s.kipForcesRebalance(req.Reason) || s.g.selectProtocol() != s.g.protocol {
			s.prepareRebalance()
			return
		}
		s.member(fresh).Join = ParkedJoin{}
		s.persist()
		s.reply(req.Conn, s.staticRejoinResponse(fresh, prevLeader, req.Version))
	case CompletingRebalance:
		s.prepareRebalance()
	case PreparingRebalance:
	default:
		panic(fmt.Sprintf("coordinator: replace static member %q in state %v", old, s.g.state))
	}
}

// staticRejoinResponse is the Stable static-restart answer, in its v9+ (SkipAssignment) or
// pre-v9 (old leader id) form. Reference: docs/protocol.md §1.10 (KIP-814).
func (s *step) staticRejoinResponse(fresh, prevLeader impl.MemberID, version int16) impl.JoinGroupResponse {
	if version >= 9 {
		isLeader := fresh == s.g.leader
		return s.currentJoinResponse(fresh, isLeader, isLeader)
	}
	r := s.currentJoinResponse(fresh, false, false)
	r.Leader = prevLeader
	return r
}
