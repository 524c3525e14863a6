package kip848

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// Heartbeat handles one ConsumerGroupHeartbeat with the configured server assignor.
// Reference: docs/protocol.md §3.3 steps 1–7. fresh is the member id handed to a member joining
// without one (the snapshot's coordinator-generated UUID): the reference never invents ids,
// so the caller supplies one that no member of the group has ever used. It is consulted
// only for an epoch-0 request with an empty MemberID and must then be non-empty.
func (g Group) Heartbeat(req impl.ConsumerGroupHeartbeatRequest, fresh impl.MemberID) (Group, []impl.Reply) {
	return g.HeartbeatAssign(req, fresh, g.cfg.assignFunc())
}

// HeartbeatAssign is Heartbeat with the given assignor, called at most once and only when the
// group epoch is ahead of the assignment epoch (lazy assignment, §3.3 step 5). A model
// checker enumerating every target (`any`) first calls it with an assignor that records its
// AssignmentSpec, then once per target of AllTargets(spec).
func (g Group) HeartbeatAssign(req impl.ConsumerGroupHeartbeatRequest, fresh impl.MemberID, assign AssignFunc) (Group, []impl.Reply) {
	return g.heartbeat(req, fresh, assign, nil, false)
}

// heartbeat is HeartbeatAssign, with the requesting member's target entry replaced by entry
// before it reconciles when entry is not nil, and the new target left uncomputed when
// deferred (HeartbeatTargeting).
func (g Group) heartbeat(req impl.ConsumerGroupHeartbeatRequest, fresh impl.MemberID, assign AssignFunc, entry *impl.PartitionSet, deferred bool) (Group, []impl.Reply) {
	if code := validateRequest(req); code != impl.None {
		return g, answer(req, impl.ConsumerGroupHeartbeatResponse{Error: code})
	}
	if req.MemberEpoch < 0 {
		return g.leave(req)
	}
	j, code := g.resolve(req, fresh)
	if code != impl.None {
		return g, answer(req, impl.ConsumerGroupHeartbeatResponse{Error: code})
	}
	before := j.member
	m, bump := updateSubscription(before, req.SubscribedTopicNames)
	m.Classic = nil                               // a consumer-protocol heartbeat: the member speaks it from now on (setClassicMemberMetadata(null))
	bump = bump || (!j.known && j.replaces == "") // a new member: subscription from nothing to something
	ng := g.admit(j, m, bump)
	if ng.groupEpoch > ng.assignmentEpoch && !deferred {
		ng = ng.installTarget(assign, "Heartbeat")
	}
	if entry != nil && !(deferred && !j.known && j.replaces == "") {
		// A new member has no entry in the previous target: it reconciles to nothing.
		ng.target = ng.target.with(m.ID, *entry)
	}
	next := ng.reconcileMember(m, req.OwnedPartitions)
	ng = ng.withMember(next)
	resp := impl.ConsumerGroupHeartbeatResponse{MemberID: next.ID, MemberEpoch: next.MemberEpoch}
	if isFull(req) || !next.AssignedPartitions.Equal(before.AssignedPartitions) {
		a := next.AssignedPartitions
		resp.Assignment = &a
	}
	return ng.checked("Heartbeat"), answer(req, resp)
}

// admit records the joining member m (replacing a static holder first) and bumps the group
// epoch if its subscription changed or it is new.
func (g Group) admit(j joining, m Member, bump bool) Group {
	if j.replaces != "" {
		g = g.replaceStatic(j.replaces, m.ID)
	}
	g = g.withMember(m)
	if bump {
		g.groupEpoch++
	}
	return g
}

// ValidateHeartbeat is the validation a ConsumerGroupHeartbeat passes before its group is even
// looked up (GroupCoordinatorService.consumerGroupHeartbeat runs
// throwIfConsumerGroupHeartbeatRequestIsInvalid outside the write operation): a refusal here
// never converts a classic group nor answers its parked requests.
func ValidateHeartbeat(req impl.ConsumerGroupHeartbeatRequest) impl.ErrorCode {
	return validateRequest(req)
}

// validateRequest is the request validation of docs/protocol.md §3.1 (the model has no
// RebalanceTimeoutMs). Reference: GroupMetadataManager.throwIfConsumerGroupHeartbeatRequestIsInvalid.
func validateRequest(req impl.ConsumerGroupHeartbeatRequest) impl.ErrorCode {
	switch e := req.MemberEpoch; {
	case e == impl.EpochJoin:
		if len(req.SubscribedTopicNames) == 0 || req.OwnedPartitions == nil || !req.OwnedPartitions.IsEmpty() {
			return impl.InvalidRequest
		}
	case e > 0 || e == impl.EpochLeave:
		if req.MemberID == "" {
			return impl.InvalidRequest
		}
	case e == impl.EpochTemporaryLeave:
		if req.MemberID == "" || req.InstanceID == "" {
			return impl.InvalidRequest
		}
	default:
		return impl.InvalidRequest
	}
	if !supportedAssignor(req.ServerAssignor) {
		return impl.UnsupportedAssignor
	}
	return impl.None
}

// checkMemberEpoch is throwIfConsumerGroupMemberEpochIsInvalid (docs/protocol.md §3.3 step 3): a
// newer epoch is fenced; an older one is accepted only if it is the previous epoch and the
// reported owned partitions are a subset of the assigned ones (the response that bumped the
// epoch was lost).
func checkMemberEpoch(m Member, received impl.Epoch, owned *impl.PartitionSet) impl.ErrorCode {
	switch {
	case received > m.MemberEpoch:
		return impl.FencedMemberEpoch
	case received < m.MemberEpoch:
		if received == m.PreviousMemberEpoch && owned != nil && owned.SubsetOf(m.AssignedPartitions) {
			return impl.None
		}
		return impl.FencedMemberEpoch
	}
	return impl.None
}

// updateSubscription applies SubscribedTopicNames (nil = unchanged) and reports a change.
func updateSubscription(m Member, topics []string) (Member, bool) {
	if topics == nil {
		return m, false
	}
	ts := slices.Compact(slices.Sorted(slices.Values(topics)))
	if ts == nil {
		ts = []string{}
	}
	if m.SubscribedTopics != nil && slices.Equal(ts, m.SubscribedTopics) {
		return m, false
	}
	m.SubscribedTopics = ts
	return m, true
}

// reconcileMember runs Reconcile against the group's target and partition epochs, then arms
// the rebalance timer if the member (re-)entered UNREVOKED_PARTITIONS and cancels it if it
// left (docs/protocol.md §3.3 step 6, §3.5). A member left unchanged keeps its timer.
func (g Group) reconcileMember(m Member, owned *impl.PartitionSet) Member {
	next := Reconcile(ReconcileInput{
		Member: m, TargetEpoch: g.assignmentEpoch, Target: g.TargetOf(m.ID), Owned: owned,
		PartitionEpoch: g.PartitionEpoch, Variant: g.cfg.Variant, Faults: g.cfg.Faults,
	})
	switch {
	case sameAssignment(m, next):
	case next.State != UnrevokedPartitions:
		next.RebalanceTimer = RebalanceTimer{}
	case m.State == UnrevokedPartitions && next.RevocationTargetEpoch != m.RevocationTargetEpoch:
		// B17: the timer is re-armed for the new target. A timer reset by every new target is
		// modelled as one tagged with that target's epoch, which never matches the member's.
		next.RebalanceTimer = RebalanceTimer{Armed: true, Epoch: next.RevocationTargetEpoch}
	default:
		next.RebalanceTimer = RebalanceTimer{Armed: true, Epoch: next.MemberEpoch}
	}
	return next
}

// isFull: the request carries everything, so the response carries the assignment
// (KAFKA-16367): a join, or subscription and owned partitions both present.
func isFull(req impl.ConsumerGroupHeartbeatRequest) bool {
	return req.MemberEpoch == impl.EpochJoin || (req.SubscribedTopicNames != nil && req.OwnedPartitions != nil)
}

func answer(req impl.ConsumerGroupHeartbeatRequest, resp impl.ConsumerGroupHeartbeatResponse) []impl.Reply {
	return []impl.Reply{{To: req.Conn, Response: resp}}
}
