package coordinator

import "github.com/groupcheck/groupcheck/impl"

// completeJoin is onCompleteJoin, steps 1–5 of docs/protocol.md §1.3 in order:
//  1. remove every dynamic member without a parked JoinGroup (absent static members stay,
//     KAFKA-8220);
//  2. keep the leader if it rejoined, else elect the first rejoined member in id order (Kafka:
//     an arbitrary one); if nobody rejoined but members remain, re-arm a DelayedJoin and stop;
//  3. initNextGeneration: generation+1, vote the protocol, → CompletingRebalance (Empty if no
//     members are left, protocol none);
//  4. answer every parked JoinGroup (the leader's answer lists all members), clear isNew, put
//     every member (absent static ones too) in pendingSync;
//  5. the sync timer is armed, i.e. SyncPhaseTimeout becomes enabled.
func (s *step) completeJoin() {
	for _, m := range s.g.AllMembers() {
		if !m.Join.Parked && !m.IsStatic() {
			s.remove(m.ID)
		}
	}
	if !s.electJoinedLeader() && len(s.g.members) > 0 {
		s.g.initialJoin = false
		return
	}
	s.g.initialJoin = false
	s.g.generation++
	if len(s.g.members) == 0 {
		s.g.protocol = ""
		s.transition(Empty)
		s.persist()
		return
	}
	s.g.protocol = s.g.selectProtocol()
	s.transition(CompletingRebalance)
	for i := range s.g.members {
		m := &s.g.members[i]
		if m.Join.Parked {
			s.reply(m.Join.Conn, s.currentJoinResponse(m.ID, m.ID == s.g.leader, false))
		}
		m.Join = ParkedJoin{}
		m.IsNew = false
		m.PendingSync = true
	}
}

// electJoinedLeader is maybeElectNewJoinedLeader: false when there is no leader or when no
// member has rejoined.
func (s *step) electJoinedLeader() bool {
	if s.g.leader == "" {
		return false
	}
	if s.member(s.g.leader).Join.Parked {
		return true
	}
	for _, m := range s.g.members {
		if m.Join.Parked {
			s.g.leader = m.ID
			return true
		}
	}
	return false
}

// currentJoinResponse is a successful JoinGroup answer for the current generation.
func (s *step) currentJoinResponse(id impl.MemberID, withMembers, skip bool) impl.JoinGroupResponse {
	r := impl.JoinGroupResponse{
		Error:          impl.None,
		Generation:     s.g.generation,
		ProtocolName:   s.g.protocol,
		Leader:         s.g.leader,
		MemberID:       id,
		SkipAssignment: skip,
	}
	if withMembers {
		r.Members = s.g.memberList()
	}
	return r
}

// joinError is a refused JoinGroup: no generation, the given member id.
func joinError(id impl.MemberID, code impl.ErrorCode) impl.JoinGroupResponse {
	return impl.JoinGroupResponse{Error: code, Generation: impl.NoGeneration, MemberID: id}
}
