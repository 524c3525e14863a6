package coordinator

import "github.com/groupcheck/groupcheck/impl"

// LeaveGroup handles a (batch) LeaveGroup. Each listed member is processed in order: an empty
// member id with an instance id removes whichever member holds the instance (admin path); a
// pending member id is dropped; otherwise the identity is validated and the member removed.
// The per-member outcome is in the response, answered after every removal's own replies.
// Reference: docs/protocol.md §1.7.
func (g Group) LeaveGroup(req impl.LeaveGroupRequest) (Group, []impl.Reply) {
	if g.state == Dead {
		return g, []impl.Reply{{To: req.Conn, Response: impl.LeaveGroupResponse{Error: impl.CoordinatorNotAvailable}}}
	}
	s := g.begin()
	resp := impl.LeaveGroupResponse{Members: make([]impl.LeaveMemberResponse, 0, len(req.Members))}
	for _, lm := range req.Members {
		resp.Members = append(resp.Members, impl.LeaveMemberResponse{
			MemberID: lm.MemberID, InstanceID: lm.InstanceID, Error: s.leaveOne(lm),
		})
	}
	s.reply(req.Conn, resp)
	return s.finish()
}

func (s *step) leaveOne(lm impl.LeaveMember) impl.ErrorCode {
	if lm.MemberID == impl.NoMemberID {
		if id, ok := s.g.StaticMember(lm.InstanceID); ok {
			s.removeMember(id)
			return impl.None
		}
		return impl.UnknownMemberID
	}
	if s.g.IsPending(lm.MemberID) {
		s.removePendingMember(lm.MemberID)
		return impl.None
	}
	if code := s.g.validateCurrentMember(lm.MemberID, lm.InstanceID); code != impl.None {
		return code
	}
	s.removeMember(lm.MemberID)
	return impl.None
}

// removeMember is removeMemberAndUpdateGroup: the member's parked JoinGroup gets
// UNKNOWN_MEMBER_ID (a parked SyncGroup is dropped unanswered, as in Kafka), the member is
// removed, then Stable/CompletingRebalance rebalance and PreparingRebalance tries to complete.
// Reference: docs/protocol.md §1.7, §1.9.
func (s *step) removeMember(id impl.MemberID) {
	if m := s.member(id); m.Join.Parked {
		s.reply(m.Join.Conn, joinError(impl.NoMemberID, impl.UnknownMemberID))
	}
	s.remove(id)
	switch s.g.state {
	case Stable, CompletingRebalance:
		s.maybePrepareRebalance()
	case PreparingRebalance:
		s.maybeCompleteJoin()
	}
}

// removePendingMember drops a pending id; the join phase may now complete.
// Reference: docs/protocol.md §1.7, §1.9.
func (s *step) removePendingMember(id impl.MemberID) {
	s.remove(id)
	s.maybeCompleteJoin()
}
