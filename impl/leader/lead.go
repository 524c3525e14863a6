package leader

import (
	"github.com/groupcheck/groupcheck/impl"
)

// LeaderInput is everything the leader of one round works from.
type LeaderInput struct {
	Variant  impl.Variant
	Protocol impl.RebalanceProtocol // the group's rebalance protocol as the leader sees it
	// AssignorName is the selected protocol name from the JoinGroup response: a built-in
	// assignor, or AnyName when the caller supplies the assignment (LeadWith).
	AssignorName string
	// ReadVersion is the highest subscription version the leader understands; it reads every
	// subscription with Subscription.ReadAs(ReadVersion). Use impl.MaxSubscriptionVersion for a
	// current leader: 0 is a v0-only leader, which cannot see owned partitions (KIP-429's
	// upgrade hazard, docs/protocol.md §7.4).
	ReadVersion int8
	Cluster     impl.Cluster
	Members     []impl.JoinGroupMember
	Faults      impl.Faults
}

// LeaderOutput is the outcome of one leader round.
type LeaderOutput struct {
	// Assignments is what the leader sends in SyncGroup, one entry per member sorted by member
	// id. Empty when Failed.
	Assignments []impl.MemberAssignment
	// Plan is the KIP variant's plan (variant KIP, cooperative protocol only).
	Plan *PlanResult
	// Failed: the leader threw instead of sending assignments (validation failure, unknown
	// assignor); Reason says why. The round then never completes from this leader.
	Failed bool
	Reason string
}

// Lead runs the leader's job for one round: read the subscriptions at ReadVersion, run the
// selected assignor (with the faults that belong to it), then LeadWith's post-processing. In the
// KIP variant under the cooperative protocol cooperative-sticky runs without AdjustAssignment,
// because the KIP variant's plan does the withholding (see CooperativeSticky). An unknown assignor
// fails the round ("any" has many outputs: enumerate them with EachAssignment and call
// LeadWith).
// Reference: docs/protocol.md §2.4; KIP-429 §2.
func Lead(in LeaderInput) LeaderOutput {
	a, ok := LookupWith(in.AssignorName, in.Faults)
	if !ok {
		return LeaderOutput{Failed: true, Reason: "unknown assignor " + in.AssignorName}
	}
	if cs, isCS := a.(CooperativeSticky); isCS && in.Variant == impl.KIP && in.Protocol == impl.Cooperative {
		cs.SkipAdjust = true
		a = cs
	}
	return LeadWith(in, a.Assign(in.Cluster, ReadMembers(in.Members, in.ReadVersion)))
}

// ReadMembers is the members as a leader that understands subscription versions up to v sees
// them. The input is not modified.
func ReadMembers(members []impl.JoinGroupMember, v int8) []impl.JoinGroupMember {
	out := make([]impl.JoinGroupMember, len(members))
	for i, m := range members {
		m.Metadata = m.Metadata.ReadAs(v)
		out[i] = m
	}
	return out
}

// LeadWith applies the variant's post-processing to a given assignment (an assignor's output or
// an element of AllAssignments), with the subscriptions read at in.ReadVersion.
//   - Kafka, cooperative protocol, assignor other than cooperative-sticky (cooperative-sticky
//     too under FaultValidateBuiltinCooperative, docs/bugs.md B9): ValidateCooperative; a violation fails the
//     round (IllegalStateException in onLeaderElected). Otherwise the assignment as is.
//   - KIP, cooperative protocol: Plan; the assignments are its Final.
//   - Eager protocol: the assignment as is.
//
// Reference: docs/protocol.md §2.4 step 4; KIP-429 §2.
func LeadWith(in LeaderInput, assigned []impl.MemberAssignment) LeaderOutput {
	members := ReadMembers(in.Members, in.ReadVersion)
	full := fillAssignments("LeadWith", members, assigned)
	if in.Protocol != impl.Cooperative {
		return LeaderOutput{Assignments: full}
	}
	if in.Variant == impl.KIP {
		p := Plan(PlanInput{Cluster: in.Cluster, Members: members, Assigned: full, Faults: in.Faults})
		return LeaderOutput{Assignments: p.Final, Plan: &p}
	}
	if in.AssignorName != CooperativeStickyName || in.Faults.Has(impl.FaultValidateBuiltinCooperative) {
		if bad := ValidateCooperative(members, full); !bad.IsEmpty() {
			return LeaderOutput{Failed: true, Reason: "assignor " + in.AssignorName +
				" violates the cooperative protocol: partitions both added and revoked " + bad.String()}
		}
	}
	return LeaderOutput{Assignments: full}
}

// ValidateCooperative is the leader's check of a cooperative assignment: over all members,
// added = assigned − owned and revoked = owned − assigned; the result is added ∩ revoked, the
// partitions revoked from one member and given to another in the same round. Empty means valid.
// Members without an entry in assigned are assigned nothing.
// Reference: docs/protocol.md §2.4 step 4 (validateCooperativeAssignment).
func ValidateCooperative(members []impl.JoinGroupMember, assigned []impl.MemberAssignment) impl.PartitionSet {
	ms := sortedMembers("ValidateCooperative", members)
	byMember := assignedByMember("ValidateCooperative", ms, assigned)
	var added, revoked impl.PartitionSet
	for i, m := range ms {
		owned := m.Metadata.OwnedPartitions
		added = added.Union(byMember[i].Minus(owned))
		revoked = revoked.Union(owned.Minus(byMember[i]))
	}
	return added.Intersect(revoked)
}

// fillAssignments returns one entry per member (sorted by member id), taking partitions from
// assigned and giving None errors; it panics on entries for unknown or repeated members.
func fillAssignments(transition string, members []impl.JoinGroupMember, assigned []impl.MemberAssignment) []impl.MemberAssignment {
	ms := sortedMembers(transition, members)
	byMember := assignedByMember(transition, ms, assigned)
	out := make([]impl.MemberAssignment, len(ms))
	for i, m := range ms {
		out[i] = impl.MemberAssignment{MemberID: m.MemberID, Assignment: impl.Assignment{Partitions: byMember[i]}}
	}
	return out
}
