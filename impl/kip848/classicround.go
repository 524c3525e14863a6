package kip848

import "github.com/groupcheck/groupcheck/impl"

// ClassicSyncGroup answers a classic member's SyncGroup: the assignment it gets is the one
// the coordinator reconciled it to at its JoinGroup (its assigned partitions; any leader
// assignments in the request are ignored). Refusals, in order: UNKNOWN_MEMBER_ID or
// FENCED_INSTANCE_ID (validateConsumerGroupMember), UNKNOWN_MEMBER_ID for a consumer-protocol
// member, ILLEGAL_GENERATION unless the generation is the member epoch,
// INCONSISTENT_GROUP_PROTOCOL for another protocol name, and REBALANCE_IN_PROGRESS when the
// assignment epoch is ahead of the member and it is not revoking — which also arms its join
// timer. Success cancels the sync timer.
// Reference: GroupMetadataManager.classicGroupSyncToConsumerGroup, throwIfRebalanceInProgress.
func (g Group) ClassicSyncGroup(req impl.SyncGroupRequest) (Group, []impl.Reply) {
	m, code := g.classicMember(req.MemberID, req.InstanceID, req.Generation)
	if code == impl.None && req.ProtocolName != "" && req.ProtocolName != m.Classic.Protocols[0].Name {
		code = impl.InconsistentGroupProtocol
	}
	if code != impl.None {
		return g, syncReply(req, impl.SyncGroupResponse{Error: code})
	}
	if g.assignmentEpoch > m.MemberEpoch && m.State != UnrevokedPartitions {
		return g.withJoinTimer(m), syncReply(req, impl.SyncGroupResponse{Error: impl.RebalanceInProgress})
	}
	c := *m.Classic
	c.SyncTimer = false
	m.Classic = &c
	resp := impl.SyncGroupResponse{ProtocolName: req.ProtocolName, Assignment: impl.Assignment{Partitions: m.AssignedPartitions}}
	return g.withMember(m), syncReply(req, resp)
}

// ClassicHeartbeat answers a classic member's Heartbeat. After the same member and generation
// checks as SyncGroup, the answer is REBALANCE_IN_PROGRESS — and the join timer is armed — when
// the member must run another JoinGroup/SyncGroup round: its epoch is behind the assignment
// epoch, it has partitions to revoke, or it waits for partitions that are all released by
// now. Otherwise NONE. Reference: GroupMetadataManager.classicGroupHeartbeatToConsumerGroup,
// ConsumerGroup.waitingOnUnreleasedPartition.
func (g Group) ClassicHeartbeat(req impl.HeartbeatRequest) (Group, []impl.Reply) {
	m, code := g.classicMember(req.MemberID, req.InstanceID, req.Generation)
	if code != impl.None {
		return g, heartbeatReply(req, code)
	}
	if m.MemberEpoch < g.assignmentEpoch || m.State == UnrevokedPartitions ||
		(m.State == UnreleasedPartitions && !g.waitingOnUnreleased(m)) {
		return g.withJoinTimer(m), heartbeatReply(req, impl.RebalanceInProgress)
	}
	return g, heartbeatReply(req, impl.None)
}

// classicMember is validateConsumerGroupMember, throwIfMemberDoesNotUseClassicProtocol and
// throwIfGenerationIdUnmatched.
func (g Group) classicMember(id impl.MemberID, inst impl.InstanceID, gen impl.Generation) (Member, impl.ErrorCode) {
	var m Member
	var ok bool
	if inst == "" {
		m, ok = g.Member(id)
	} else if m, ok = g.StaticMember(inst); ok && m.ID != id {
		return Member{}, impl.FencedInstanceID
	}
	switch {
	case !ok || !m.UsesClassicProtocol():
		return Member{}, impl.UnknownMemberID
	case impl.Generation(m.MemberEpoch) != gen:
		return Member{}, impl.IllegalGeneration
	}
	return m, impl.None
}

// waitingOnUnreleased: some partition of the member's target that it has not been given is
// still held by another member (ConsumerGroup.waitingOnUnreleasedPartition).
func (g Group) waitingOnUnreleased(m Member) bool {
	for _, tp := range g.TargetOf(m.ID).Minus(m.AssignedPartitions).Slice() {
		if g.PartitionEpoch(tp) != NoPartitionEpoch {
			return true
		}
	}
	return false
}

// withJoinTimer arms the member's join timer unless it runs (scheduleIfAbsent).
func (g Group) withJoinTimer(m Member) Group {
	if m.Classic.JoinTimer {
		return g
	}
	c := *m.Classic
	c.JoinTimer = true
	m.Classic = &c
	return g.withMember(m)
}

func syncReply(req impl.SyncGroupRequest, r impl.SyncGroupResponse) []impl.Reply {
	return []impl.Reply{{To: req.Conn, Response: r}}
}

func heartbeatReply(req impl.HeartbeatRequest, code impl.ErrorCode) []impl.Reply {
	return []impl.Reply{{To: req.Conn, Response: impl.HeartbeatResponse{Error: code}}}
}

// ClassicOffsetCommit validates a classic member's OffsetCommit (its generation is its member
// epoch) by the group's commit rule, refusing with ILLEGAL_GENERATION where a consumer-protocol
// member gets STALE_MEMBER_EPOCH. Reference: ConsumerGroup.validateOffsetCommit and
// createAssignmentEpochValidator (useClassicProtocol branches).
func (g Group) ClassicOffsetCommit(req impl.OffsetCommitRequest) (Group, []impl.Reply) {
	code := g.validateCommit(req)
	if m, ok := g.Member(req.MemberID); ok && m.UsesClassicProtocol() && code == impl.StaleMemberEpoch {
		code = impl.IllegalGeneration
	}
	return g, []impl.Reply{{To: req.Conn, Response: impl.OffsetCommitResponse{Error: code}}}
}
