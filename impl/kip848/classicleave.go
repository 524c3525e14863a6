package kip848

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// ClassicLeaveGroup answers a classic LeaveGroup to this consumer group. Each named member is
// resolved on its own — by member id, or by instance id where one is given (then a non-empty
// member id must be the holder's) — and refused UNKNOWN_MEMBER_ID or FENCED_INSTANCE_ID in its
// own entry; the protocol the member speaks is not checked. The resolved members are fenced
// together with one group epoch bump, unless that leaves only classic members and the policy
// allows a downgrade: then the group is returned unchanged with the Downgrade to perform.
// Reference: GroupMetadataManager.classicGroupLeaveToConsumerGroup, consumerGroupFenceMembers.
func (g Group) ClassicLeaveGroup(req impl.LeaveGroupRequest) (Group, []impl.Reply, *Downgrade) {
	resp := impl.LeaveGroupResponse{}
	var leaving []impl.MemberID
	for _, lm := range req.Members {
		m, code := g.leavingMember(lm)
		resp.Members = append(resp.Members, impl.LeaveMemberResponse{MemberID: lm.MemberID, InstanceID: lm.InstanceID, Error: code})
		if code == impl.None && !slices.Contains(leaving, m.ID) {
			leaving = append(leaving, m.ID)
		}
	}
	out := []impl.Reply{{To: req.Conn, Response: resp}}
	if d := g.FenceDowngrade(leaving...); d != nil {
		return g, out, d
	}
	return g.fence(leaving).checked("ClassicLeaveGroup"), out, nil
}

func (g Group) leavingMember(lm impl.LeaveMember) (Member, impl.ErrorCode) {
	if lm.InstanceID == "" {
		if m, ok := g.Member(lm.MemberID); ok {
			return m, impl.None
		}
		return Member{}, impl.UnknownMemberID
	}
	m, held := g.StaticMember(lm.InstanceID)
	switch {
	case !held:
		return Member{}, impl.UnknownMemberID
	case lm.MemberID != "" && lm.MemberID != m.ID:
		return Member{}, impl.FencedInstanceID
	}
	return m, impl.None
}

// fence removes the members with one group epoch bump (consumerGroupFenceMembers); no
// members, no change.
func (g Group) fence(ids []impl.MemberID) Group {
	if len(ids) == 0 {
		return g
	}
	for _, id := range ids {
		g = g.withoutMember(id)
	}
	g.groupEpoch++
	return g
}

// FenceDowngrade is the Downgrade that fencing the given members calls for, or nil: the
// members left are all classic and at least one, the policy allows a downgrade, and they fit
// group.max.size (ClassicMaxSize). Leaves (classic or KIP-848 epoch -1), session timeouts,
// rebalance timeouts and the classic join and sync timeouts all fence through this check, so
// a caller driving a mixed group asks it before each of them.
// Reference: GroupMetadataManager.validateOnlineDowngradeWithFencedMembers.
func (g Group) FenceDowngrade(ids ...impl.MemberID) *Downgrade {
	left, classic := 0, 0
	for _, m := range g.members {
		if slices.Contains(ids, m.ID) {
			continue
		}
		left++
		if m.UsesClassicProtocol() {
			classic++
		}
	}
	if len(ids) == 0 || classic != left || left == 0 || !g.cfg.MigrationPolicy.DowngradeEnabled() ||
		(g.cfg.ClassicMaxSize > 0 && left > g.cfg.ClassicMaxSize) {
		return nil
	}
	return &Downgrade{Leaving: slices.Clone(ids), Rebalance: true}
}

// downgradeOnReplace is validateOnlineDowngradeWithReplacedMember for a classic JoinGroup with
// an instance id: the instance's holder is the only consumer-protocol member, the policy
// allows a downgrade and the group fits group.max.size.
func (g Group) downgradeOnReplace(inst impl.InstanceID) *Downgrade {
	old, held := g.StaticMember(inst)
	if !held || old.UsesClassicProtocol() || !g.cfg.MigrationPolicy.DowngradeEnabled() ||
		(g.cfg.ClassicMaxSize > 0 && len(g.members) > g.cfg.ClassicMaxSize) {
		return nil
	}
	for _, m := range g.members {
		if m.ID != old.ID && !m.UsesClassicProtocol() {
			return nil
		}
	}
	return &Downgrade{Replaced: old.ID}
}

// ClassicJoinTimers lists the classic members whose join timer runs, in id order.
func (g Group) ClassicJoinTimers() []impl.MemberID {
	return g.classicTimers(func(c *ClassicMetadata) bool { return c.JoinTimer })
}

// ClassicSyncTimers lists the classic members whose sync timer runs, in id order.
func (g Group) ClassicSyncTimers() []impl.MemberID {
	return g.classicTimers(func(c *ClassicMetadata) bool { return c.SyncTimer })
}

func (g Group) classicTimers(runs func(*ClassicMetadata) bool) []impl.MemberID {
	var ids []impl.MemberID
	for _, m := range g.members {
		if m.Classic != nil && runs(m.Classic) {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// ClassicJoinTimeoutExpired fences a classic member that did not rejoin within its rebalance
// timeout after REBALANCE_IN_PROGRESS; a no-op unless its join timer runs. The caller asks
// FenceDowngrade first. Reference: GroupMetadataManager.scheduleConsumerGroupJoinTimeoutIfAbsent
// ("the classic member failed to join within the rebalance timeout").
func (g Group) ClassicJoinTimeoutExpired(id impl.MemberID) Group {
	if m, ok := g.Member(id); !ok || m.Classic == nil || !m.Classic.JoinTimer {
		return g
	}
	return g.fence([]impl.MemberID{id}).checked("ClassicJoinTimeoutExpired")
}

// ClassicSyncTimeoutExpired fences a classic member that did not send SyncGroup within its
// rebalance timeout after its JoinGroup response; a no-op unless its sync timer runs. The
// caller asks FenceDowngrade first. Reference: GroupMetadataManager.scheduleConsumerGroupSyncTimeout
// ("the member failed to sync within timeout").
func (g Group) ClassicSyncTimeoutExpired(id impl.MemberID) Group {
	if m, ok := g.Member(id); !ok || m.Classic == nil || !m.Classic.SyncTimer {
		return g
	}
	return g.fence([]impl.MemberID{id}).checked("ClassicSyncTimeoutExpired")
}
