package coordinator

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// JoinGroup handles a JoinGroup request (docs/protocol.md §1.4).
//
// fresh is the member id the coordinator hands out if the request needs one (empty MemberID:
// a dynamic or static newcomer, or a static restart). The caller must supply an id never used
// before in this group; the reference never invents ids so that a model can keep them finite.
// fresh is ignored when the request does not need a new id; a fresh id that is empty or in use
// panics.
//
// Not modelled: group-level status errors (NOT_COORDINATOR, loading), session-timeout bounds,
// protocol type (always "consumer"). The group always exists.
// Reference: docs/protocol.md §1.4, §1.10; docs/protocol.md §4 (variant KIP).
func (g Group) JoinGroup(req impl.JoinGroupRequest, fresh impl.MemberID) (Group, []impl.Reply) {
	s := g.begin()
	s.joinGroup(req, fresh)
	return s.finish()
}

func (s *step) joinGroup(req impl.JoinGroupRequest, fresh impl.MemberID) {
	req.Protocols = normalizeProtocols(req.Protocols)
	switch {
	case !s.acceptJoiningMember(req.MemberID):
		s.remove(req.MemberID)
		s.reply(req.Conn, joinError(impl.NoMemberID, impl.GroupMaxSizeReached))
	case req.MemberID == impl.NoMemberID:
		s.newMemberJoin(req, fresh)
	default:
		s.currentMemberJoin(req)
	}
}

// acceptJoiningMember is the group.max.size check: in PreparingRebalance it counts members
// already parked (a parked member is always accepted), in CompletingRebalance/Stable members.
// Reference: docs/protocol.md §1.4.
func (s *step) acceptJoiningMember(id impl.MemberID) bool {
	max := s.g.cfg.MaxSize
	if max <= 0 {
		return true
	}
	m := s.member(id)
	switch s.g.state {
	case PreparingRebalance:
		return m != nil && m.Join.Parked || s.g.numAwaitingJoin() < max
	case CompletingRebalance, Stable:
		return m != nil || len(s.g.members) < max
	}
	return true
}

// newMemberJoin is doNewMemberJoinGroup: a JoinGroup without member id.
// Reference: docs/protocol.md §1.4 "Unknown member".
func (s *step) newMemberJoin(req impl.JoinGroupRequest, fresh impl.MemberID) {
	if s.g.state == Dead {
		s.reply(req.Conn, joinError(impl.NoMemberID, impl.CoordinatorNotAvailable))
		return
	}
	if !s.g.supportsProtocols(req.Protocols) {
		s.reply(req.Conn, joinError(impl.NoMemberID, impl.InconsistentGroupProtocol))
		return
	}
	if fresh == impl.NoMemberID || s.inUse(fresh) {
		panic(fmt.Sprintf("coordinator: JoinGroup: fresh member id %q is empty or in use", fresh))
	}
	switch old, ok := s.g.StaticMember(req.InstanceID); {
	case ok:
		s.replaceStatic(req, old, fresh)
	case req.InstanceID != "" || req.Version < 4:
		s.addMemberAndRebalance(req, fresh)
	default:
		// KIP-394 two-step join: hand out the id, change nothing else.
		s.addPending(fresh)
		s.reply(req.Conn, joinError(fresh, impl.MemberIDRequired))
	}
}

// addMemberAndRebalance adds a new member, parked and marked new; the first member of a
// leaderless group becomes leader. Reference: docs/protocol.md §1.3 "Empty → PreparingRebalance", §1.4.
func (s *step) addMemberAndRebalance(req impl.JoinGroupRequest, id impl.MemberID) {
	s.insert(Member{ID: id, InstanceID: req.InstanceID, Protocols: req.Protocols, Join: parked(req), IsNew: true})
	if s.g.leader == "" {
		s.g.leader = id
	}
	s.maybePrepareRebalance()
}

func parked(req impl.JoinGroupRequest) ParkedJoin {
	return ParkedJoin{Parked: true, Conn: req.Conn, Version: req.Version, Reason: req.Reason}
}

// currentMemberJoin is doCurrentMemberJoinGroup: a JoinGroup with a member id.
// Reference: docs/protocol.md §1.4 "Known member id".
func (s *step) currentMemberJoin(req impl.JoinGroupRequest) {
	id := req.MemberID
	switch {
	case s.g.state == Dead:
		s.reply(req.Conn, joinError(id, impl.CoordinatorNotAvailable))
	case !s.g.supportsProtocols(req.Protocols):
		s.reply(req.Conn, joinError(id, impl.InconsistentGroupProtocol))
	case s.g.IsPending(id) && req.InstanceID != "":
		// Kafka throws IllegalStateException (pending ids are never static); the reference
		// refuses the request and changes nothing.
		s.reply(req.Conn, joinError(id, impl.InvalidRequest))
	case s.g.IsPending(id):
		s.addMemberAndRebalance(req, id)
	default:
		if code := s.g.validateCurrentMember(id, req.InstanceID); code != impl.None {
			s.reply(req.Conn, joinError(id, code))
			return
		}
		s.knownMemberJoin(req)
	}
}

// knownMemberJoin dispatches a validated member's JoinGroup by state.
// Reference: docs/protocol.md §1.4; docs/protocol.md §4 for variant KIP.
func (s *step) knownMemberJoin(req impl.JoinGroupRequest) {
	m := s.member(req.MemberID)
	same := sameProtocols(m.Protocols, req.Protocols)
	isLeader := req.MemberID == s.g.leader
	switch s.g.state {
	case PreparingRebalance:
		s.updateMemberAndRebalance(req)
	case CompletingRebalance:
		if !same || s.kipForcesRebalance(req.Reason) {
			s.updateMemberAndRebalance(req)
			return
		}
		s.reply(req.Conn, s.currentJoinResponse(req.MemberID, isLeader, false))
	case Stable:
		switch {
		case s.kipForcesRebalance(req.Reason):
			s.updateMemberAndRebalance(req)
		case s.kipRestart(req.Reason):
			s.restartWithoutRebalance(req)
		case isLeader || !same:
			s.updateMemberAndRebalance(req)
		default:
			s.reply(req.Conn, s.currentJoinResponse(req.MemberID, false, false))
		}
	default:
		s.reply(req.Conn, joinError(req.MemberID, impl.UnknownMemberID))
	}
}

// updateMemberAndRebalance stores the new protocols, parks the request (a JoinGroup already
// parked for the member is dropped unanswered, as Kafka overwrites its callback) and starts
// a rebalance if the state allows one.
func (s *step) updateMemberAndRebalance(req impl.JoinGroupRequest) {
	m := s.member(req.MemberID)
	m.Protocols = req.Protocols
	m.Join = parked(req)
	s.maybePrepareRebalance()
}

// kipForcesRebalance: under KIP-423, TOPIC_METADATA_CHANGE and UPGRADE from a member with
// identity always rebalance, even with unchanged metadata. Reference: docs/protocol.md §4.
func (s *step) kipForcesRebalance(r impl.JoinReason) bool {
	return s.g.cfg.Variant == impl.KIP && (r == impl.ReasonTopicMetadataChange || r == impl.ReasonUpgrade)
}

// kipRestart: under KIP-423, RESTART from a member with identity does not rebalance a Stable
// group. Reference: docs/protocol.md §4.
func (s *step) kipRestart(r impl.JoinReason) bool {
	return s.g.cfg.Variant == impl.KIP && r == impl.ReasonRestart
}

// restartWithoutRebalance is KIP-423's RESTART in Stable: the new metadata is stored and the
// member (leader included) gets the current generation. The leader's answer lists the
// members, with SkipAssignment from v9 (KIP-814's form). Guard kept from KIP-345: if the
// stored metadata would change the selected assignor, the group rebalances after all.
func (s *step) restartWithoutRebalance(req impl.JoinGroupRequest) {
	m := s.member(req.MemberID)
	m.Protocols = req.Protocols
	if s.g.selectProtocol() != s.g.protocol {
		m.Join = parked(req)
		s.prepareRebalance()
		return
	}
	isLeader := req.MemberID == s.g.leader
	s.reply(req.Conn, s.currentJoinResponse(req.MemberID, isLeader, isLeader && req.Version >= 9))
}
