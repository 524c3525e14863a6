package coordinator

import (
	"github.com/groupcheck/groupcheck/impl"
)

// SyncGroup handles a SyncGroup request. In CompletingRebalance the request is parked and
// the member leaves pendingSync; the leader's request completes the round: members missing
// from its map get an empty assignment, entries for non-members are ignored (the last entry
// wins for a repeated id), the assignments are stored (persistence always succeeds here),
// every parked SyncGroup is answered in member-id order and the group becomes Stable. In
// Stable the stored assignment is returned. An empty ProtocolName means the request did not
// carry one (before v5) and is not checked.
// Reference: docs/protocol.md §1.5.
func (g Group) SyncGroup(req impl.SyncGroupRequest) (Group, []impl.Reply) {
	if code := g.syncError(req); code != impl.None {
		return g, []impl.Reply{{To: req.Conn, Response: impl.SyncGroupResponse{Error: code}}}
	}
	s := g.begin()
	m := s.member(req.MemberID)
	m.PendingSync = false
	if s.g.state == Stable {
		s.reply(req.Conn, impl.SyncGroupResponse{Error: impl.None, ProtocolName: s.g.protocol, Assignment: m.Assignment})
		return s.finish()
	}
	m.Sync = ParkedSync{Parked: true, Conn: req.Conn}
	if req.MemberID == s.g.leader {
		s.completeSync(req.Assignments)
	}
	return s.finish()
}

// syncError is validateSyncGroup followed by the refusals by state.
func (g Group) syncError(req impl.SyncGroupRequest) impl.ErrorCode {
	if g.state == Dead {
		return impl.CoordinatorNotAvailable
	}
	if code := g.validateCurrentMember(req.MemberID, req.InstanceID); code != impl.None {
		return code
	}
	switch {
	case req.Generation != g.generation:
		return impl.IllegalGeneration
	case req.ProtocolName != "" && req.ProtocolName != g.protocol:
		return impl.InconsistentGroupProtocol
	case g.state == Empty:
		return impl.UnknownMemberID
	case g.state == PreparingRebalance:
		return impl.RebalanceInProgress
	}
	return impl.None
}

// completeSync stores the leader's assignment and answers every parked SyncGroup
// (setAndPropagateAssignment), then → Stable. Reference: docs/protocol.md §1.5.
func (s *step) completeSync(assignments []impl.MemberAssignment) {
	for i := range s.g.members {
		m := &s.g.members[i]
		m.Assignment = impl.Assignment{}
		for _, a := range assignments {
			if a.MemberID == m.ID {
				m.Assignment = a.Assignment
			}
		}
		if m.Sync.Parked {
			s.reply(m.Sync.Conn, impl.SyncGroupResponse{Error: impl.None, ProtocolName: s.g.protocol, Assignment: m.Assignment})
			m.Sync = ParkedSync{}
		}
	}
	s.transition(Stable)
	s.persist()
}
