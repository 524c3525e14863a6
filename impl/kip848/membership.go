package kip848

import (
	"github.com/groupcheck/groupcheck/impl"
)

// joining is the member record a non-leave heartbeat applies to.
type joining struct {
	member   Member
	known    bool          // an existing record (otherwise a new member or a replacement)
	replaces impl.MemberID // static replacement: the member being replaced
}

// resolve finds or creates the member a heartbeat (epoch ≥ 0) is for, validating its epoch
// (docs/protocol.md §3.3 step 3, §3.6), and enforces group.consumer.max.size (step 2).
func (g Group) resolve(req impl.ConsumerGroupHeartbeatRequest, fresh impl.MemberID) (joining, impl.ErrorCode) {
	var j joining
	var code impl.ErrorCode
	if req.InstanceID == "" {
		j, code = g.resolveDynamic(req, fresh)
	} else {
		j, code = g.resolveStatic(req, fresh)
	}
	if code == impl.None && !j.known && j.replaces == "" && g.cfg.MaxSize > 0 && len(g.members) >= g.cfg.MaxSize {
		return j, impl.GroupMaxSizeReached
	}
	return j, code
}

// resolveDynamic: an epoch-0 request creates the member or rejoins an existing one —
// accepted whatever its server epoch (KAFKA-19233), unless impl.FaultStaleCheckOnRejoin
// (B18) applies the stale-epoch check to it; a non-zero epoch needs a known member.
func (g Group) resolveDynamic(req impl.ConsumerGroupHeartbeatRequest, fresh impl.MemberID) (joining, impl.ErrorCode) {
	if req.MemberEpoch == impl.EpochJoin {
		id := req.MemberID
		if id == "" {
			id = g.freshID(fresh)
		}
		m, ok := g.Member(id)
		if !ok {
			return joining{member: Member{ID: id, InstanceID: req.InstanceID}}, impl.None
		}
		if g.cfg.Faults.Has(impl.FaultStaleCheckOnRejoin) {
			if code := checkMemberEpoch(m, req.MemberEpoch, req.OwnedPartitions); code != impl.None {
				return joining{}, code
			}
		}
		if req.InstanceID != "" {
			m.InstanceID = req.InstanceID // maybeUpdateInstanceId: only when present
		}
		return joining{member: m, known: true}, impl.None
	}
	m, ok := g.Member(req.MemberID)
	if !ok {
		return joining{}, impl.UnknownMemberID
	}
	return joining{member: m, known: true}, checkMemberEpoch(m, req.MemberEpoch, req.OwnedPartitions)
}

// resolveStatic (docs/protocol.md §3.6): an epoch-0 join with a held instance id replaces the holder
// only if it left temporarily (-2), else UNRELEASED_INSTANCE_ID; other heartbeats must come
// from the holder (UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID) at a valid epoch.
func (g Group) resolveStatic(req impl.ConsumerGroupHeartbeatRequest, fresh impl.MemberID) (joining, impl.ErrorCode) {
	old, held := g.StaticMember(req.InstanceID)
	if req.MemberEpoch != impl.EpochJoin {
		switch {
		case !held:
			return joining{}, impl.UnknownMemberID
		case old.ID != req.MemberID:
			return joining{}, impl.FencedInstanceID
		}
		return joining{member: old, known: true}, checkMemberEpoch(old, req.MemberEpoch, req.OwnedPartitions)
	}
	if !held {
		return g.resolveDynamic(req, fresh)
	}
	if old.MemberEpoch != impl.EpochTemporaryLeave && !old.UsesClassicProtocol() {
		// A classic holder is replaced whatever its epoch (getOrMaybeSubscribeStaticConsumerGroupMember
		// checks throwIfInstanceIdIsUnreleased only between consumer-protocol members).
		return joining{}, impl.UnreleasedInstanceID
	}
	id := req.MemberID
	if id == "" {
		id = g.freshID(fresh)
	}
	if _, taken := g.Member(id); taken && id != old.ID {
		// Model-only refusal: Kafka would overwrite another member's records.
		return joining{}, impl.InvalidRequest
	}
	m := old
	m.ID, m.MemberEpoch, m.PreviousMemberEpoch = id, 0, 0
	m.State, m.RebalanceTimer, m.RevocationTargetEpoch = Stable, RebalanceTimer{}, 0
	return joining{member: m, replaces: old.ID}, impl.None
}

// freshID checks the caller-supplied fresh id (a broken caller contract panics).
func (g Group) freshID(fresh impl.MemberID) impl.MemberID {
	if fresh == "" {
		panic("kip848: Heartbeat: a join without member id needs a fresh member id")
	}
	if _, ok := g.Member(fresh); ok {
		panic("kip848: Heartbeat: fresh member id " + string(fresh) + " is already a member")
	}
	return fresh
}

// replaceStatic removes the replaced static member and transfers its target entry to the
// new member id, so a quick restart causes no reassignment (docs/protocol.md §3.6).
func (g Group) replaceStatic(old, id impl.MemberID) Group {
	if old == id {
		return g // same id: the record is overwritten and the target entry kept
	}
	t := g.target.renamed(old, id)
	g = g.withoutMember(old)
	g.target = t
	return g
}

// leave handles epochs -1 and -2 (docs/protocol.md §3.6): -1 removes the member (bumping the group
// epoch); -2 is a static member's temporary leave: epoch -2, pending revocation dropped,
// assigned partitions kept at partition epoch -2, no bump. The response echoes the epoch.
func (g Group) leave(req impl.ConsumerGroupHeartbeatRequest) (Group, []impl.Reply) {
	m, ok := g.Member(req.MemberID)
	if req.InstanceID != "" {
		var held bool
		m, held = g.StaticMember(req.InstanceID)
		switch {
		case !held:
			return g, answer(req, impl.ConsumerGroupHeartbeatResponse{Error: impl.UnknownMemberID})
		case m.ID != req.MemberID:
			return g, answer(req, impl.ConsumerGroupHeartbeatResponse{Error: impl.FencedInstanceID})
		}
	} else if !ok {
		return g, answer(req, impl.ConsumerGroupHeartbeatResponse{Error: impl.UnknownMemberID})
	}
	resp := impl.ConsumerGroupHeartbeatResponse{MemberID: m.ID, MemberEpoch: req.MemberEpoch}
	if req.MemberEpoch == impl.EpochTemporaryLeave {
		m.MemberEpoch = impl.EpochTemporaryLeave
		m.PartitionsPendingRevocation = impl.PartitionSet{}
		m.RebalanceTimer, m.RevocationTargetEpoch = RebalanceTimer{}, 0
		return g.withMember(m).checked("Heartbeat(leave -2)"), answer(req, resp)
	}
	return g.removeMember(m.ID).checked("Heartbeat(leave -1)"), answer(req, resp)
}

// removeMember fences a member: its records go (with its partition epochs and target entry)
// and the group epoch is bumped (docs/protocol.md §3.5).
func (g Group) removeMember(id impl.MemberID) Group {
	g = g.withoutMember(id)
	g.groupEpoch++
	return g
}
