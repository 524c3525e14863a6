package kip848

import (
	"github.com/groupcheck/groupcheck/impl"
)

// Classic members of a consumer group (docs/protocol.md §9.3). A consumer group
// serves members that still speak the classic protocol: their JoinGroup, SyncGroup, Heartbeat
// and LeaveGroup are answered from the consumer group's own state. The coordinator assigns
// (the server assignor runs for them as for everyone), a classic member's generation is its
// member epoch, and the partitions it owns are read from the subscription in its JoinGroup.
// Reference: GroupMetadataManager classicGroupJoinToConsumerGroup,
// classicGroupSyncToConsumerGroup, classicGroupHeartbeatToConsumerGroup and
// classicGroupLeaveToConsumerGroup (apache/kafka group-coordinator 4.4.0).

// ClassicMetadata is what the coordinator keeps of a classic member
// (ConsumerGroupMemberMetadataValue.ClassicMemberMetadata) and the state of the two timers
// that bound a classic member's rebalance round. Time is abstract: the session timeout's
// length is not kept, only whether each timer runs.
type ClassicMetadata struct {
	// Protocols are the JoinGroup's protocols in preference order, each with its subscription
	// (supportedProtocols). The first names the protocol JoinGroup answers with.
	Protocols []impl.GroupProtocol
	// JoinTimer: the member was told REBALANCE_IN_PROGRESS and is fenced unless it sends
	// JoinGroup within its rebalance timeout (scheduleConsumerGroupJoinTimeoutIfAbsent).
	JoinTimer bool
	// SyncTimer: the member got its JoinGroup response and is fenced unless it sends SyncGroup
	// within its rebalance timeout (scheduleConsumerGroupSyncTimeout).
	SyncTimer bool
}

// Downgrade is a conversion of the group back to a classic group that a request or timer
// calls for instead of its usual effect (validateOnlineDowngradeWithFencedMembers,
// validateOnlineDowngradeWithReplacedMember). The caller builds the classic group from the
// group as it was before the request (migration.Downgrade): Kafka converts from the group
// object, whose records of this request are not yet replayed.
type Downgrade struct {
	// Leaving are the fenced members the classic group does not take over.
	Leaving []impl.MemberID
	// Joining is the classic static member replacing a consumer-protocol one (nil when a
	// leave triggers the downgrade); it takes over the replaced member's target partitions.
	Joining *Member
	// Replaced is the member Joining replaces.
	Replaced impl.MemberID
	// Rebalance: the classic group starts in PreparingRebalance (always after a leave; after a
	// replacement only when the group epoch is ahead of the assignment epoch).
	Rebalance bool
}

// ClassicJoinGroup answers a classic member's JoinGroup to this (non-empty) consumer group.
// fresh is the member id for a join without one, as in Heartbeat. When the join replaces the
// last consumer-protocol member (a static member restarted with the classic protocol) and
// the policy allows a downgrade, the group is returned unchanged with the Downgrade to
// perform; the reply is then the one Kafka sends after converting.
// Reference: GroupMetadataManager.classicGroupJoinToConsumerGroup.
//
// In order: INCONSISTENT_GROUP_PROTOCOL under MigrationDisabled; GROUP_MAX_SIZE_REACHED for a
// new member of a full group; INCONSISTENT_GROUP_PROTOCOL when no protocol is one every
// classic member supports; MEMBER_ID_REQUIRED for a dynamic v4+ join without id (nothing is
// stored, KIP-394); a static join with an id must come from the holder (UNKNOWN_MEMBER_ID,
// FENCED_INSTANCE_ID). Then the member's subscription is the first protocol's, a change bumps
// the group epoch, the target is recomputed and the member reconciles with the subscription's
// owned partitions as its acknowledgement. The response carries the member epoch as
// generation, no leader and no member list: the coordinator assigns.
func (g Group) ClassicJoinGroup(req impl.JoinGroupRequest, fresh impl.MemberID) (Group, []impl.Reply, *Downgrade) {
	if g.cfg.MigrationPolicy == MigrationDisabled {
		return g, joinReply(req, impl.JoinGroupResponse{MemberID: req.MemberID, Error: impl.InconsistentGroupProtocol}), nil
	}
	id := req.MemberID
	unknown := id == impl.NoMemberID
	if unknown {
		id = g.freshID(fresh)
	}
	if code := g.classicJoinAllowed(req, id); code != impl.None {
		return g, joinReply(req, impl.JoinGroupResponse{MemberID: req.MemberID, Error: code}), nil
	}
	if unknown && req.InstanceID == "" && req.Version >= 4 {
		return g, joinReply(req, impl.JoinGroupResponse{MemberID: id, Error: impl.MemberIDRequired}), nil
	}
	j, code := g.resolveClassic(req, id, unknown)
	if code != impl.None {
		return g, joinReply(req, impl.JoinGroupResponse{MemberID: req.MemberID, Error: code}), nil
	}
	sub := req.Protocols[0].Metadata
	m, bump := updateSubscription(j.member, sub.Topics)
	bump = bump || (!j.known && j.replaces == "")
	m.Classic = &ClassicMetadata{Protocols: req.Protocols, SyncTimer: true}
	m.RebalanceTimer = RebalanceTimer{}
	owned := sub.OwnedPartitions
	if d := g.downgradeOnReplace(req.InstanceID); d != nil {
		return g.classicJoinDowngrade(req, m, owned, bump, d)
	}
	ng := g.admit(j, m, bump)
	if ng.groupEpoch > ng.assignmentEpoch {
		ng = ng.installTarget(g.cfg.assignFunc(), "ClassicJoinGroup")
	}
	next := ng.reconcileClassic(m, &owned)
	ng = ng.withMember(next)
	return ng.checked("ClassicJoinGroup"), joinReply(req, classicJoinResponse(next)), nil
}

// classicJoinDowngrade is the join that converts the group: the group is left unchanged,
// the joining member is reconciled against the current target (the replaced member's entry)
// unless the group epoch is ahead of the assignment epoch, and no timer is armed.
func (g Group) classicJoinDowngrade(req impl.JoinGroupRequest, m Member, owned impl.PartitionSet, bump bool, d *Downgrade) (Group, []impl.Reply, *Downgrade) {
	epoch := g.groupEpoch
	if bump {
		epoch++
	}
	d.Rebalance = g.assignmentEpoch < epoch
	m.Classic = &ClassicMetadata{Protocols: m.Classic.Protocols}
	if !d.Rebalance {
		m = Reconcile(ReconcileInput{
			Member: m, TargetEpoch: g.assignmentEpoch, Target: g.TargetOf(d.Replaced), Owned: &owned,
			PartitionEpoch: g.PartitionEpoch, Variant: g.cfg.Variant, Faults: g.cfg.Faults,
		})
	}
	d.Joining = &m
	return g, joinReply(req, classicJoinResponse(m)), d
}

// classicJoinAllowed is throwIfConsumerGroupIsFull and throwIfClassicProtocolIsNotSupported.
func (g Group) classicJoinAllowed(req impl.JoinGroupRequest, id impl.MemberID) impl.ErrorCode {
	if _, held := g.StaticMember(req.InstanceID); !held && g.cfg.MaxSize > 0 && len(g.members) >= g.cfg.MaxSize {
		if _, known := g.Member(id); !known {
			return impl.GroupMaxSizeReached
		}
	}
	if !g.supportsClassicProtocols(req.Protocols) {
		return impl.InconsistentGroupProtocol
	}
	return impl.None
}

// supportsClassicProtocols: some protocol of the request is supported by every classic member
// (ConsumerGroup.supportsClassicProtocols for a non-empty group; with no classic member any
// non-empty list qualifies).
func (g Group) supportsClassicProtocols(ps []impl.GroupProtocol) bool {
	for _, p := range ps {
		all := true
		for _, m := range g.members {
			if m.Classic != nil && !listsProtocol(m.Classic.Protocols, p.Name) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func listsProtocol(ps []impl.GroupProtocol, name string) bool {
	for _, p := range ps {
		if p.Name == name {
			return true
		}
	}
	return false
}

// resolveClassic finds or creates the record a classic JoinGroup is for
// (getOrMaybeSubscribeDynamicConsumerGroupMember / …StaticConsumerGroupMember with
// useClassicProtocol): no epoch is checked; a dynamic member is created under any unknown id;
// a static join without id replaces the instance's holder whatever its epoch or protocol
// (a classic joiner is never refused UNRELEASED_INSTANCE_ID), resetting the epochs to 0 and
// keeping its state and partitions; a static join with an id must come from the holder.
func (g Group) resolveClassic(req impl.JoinGroupRequest, id impl.MemberID, unknown bool) (joining, impl.ErrorCode) {
	if req.InstanceID == "" {
		if m, ok := g.Member(id); ok {
			return joining{member: m, known: true}, impl.None
		}
		return joining{member: Member{ID: id}}, impl.None
	}
	old, held := g.StaticMember(req.InstanceID)
	switch {
	case !unknown && !held:
		return joining{}, impl.UnknownMemberID
	case !unknown && old.ID != id:
		return joining{}, impl.FencedInstanceID
	case !unknown:
		return joining{member: old, known: true}, impl.None
	case !held:
		return joining{member: Member{ID: id, InstanceID: req.InstanceID}}, impl.None
	}
	m := old
	m.ID, m.MemberEpoch, m.PreviousMemberEpoch, m.RevocationTargetEpoch = id, 0, 0, 0
	return joining{member: m, replaces: old.ID}, impl.None
}

// reconcileClassic is Reconcile for a classic member: no rebalance timer is armed for it
// (maybeReconcile arms one only for consumer-protocol members); its join and sync timers
// bound its round instead.
func (g Group) reconcileClassic(m Member, owned *impl.PartitionSet) Member {
	return Reconcile(ReconcileInput{
		Member: m, TargetEpoch: g.assignmentEpoch, Target: g.TargetOf(m.ID), Owned: owned,
		PartitionEpoch: g.PartitionEpoch, Variant: g.cfg.Variant, Faults: g.cfg.Faults,
	})
}

func classicJoinResponse(m Member) impl.JoinGroupResponse {
	return impl.JoinGroupResponse{MemberID: m.ID, Generation: impl.Generation(m.MemberEpoch), ProtocolName: m.Classic.Protocols[0].Name}
}

func joinReply(req impl.JoinGroupRequest, r impl.JoinGroupResponse) []impl.Reply {
	return []impl.Reply{{To: req.Conn, Response: r}}
}
