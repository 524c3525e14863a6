package leader

import (
	"github.com/groupcheck/groupcheck/impl"
)

// MemberPartitions is one member's set of partitions.
type MemberPartitions struct {
	MemberID   impl.MemberID
	Partitions impl.PartitionSet
}

// PlanInput is what the KIP variant's cooperative leader works from (docs/protocol.md §7.2).
type PlanInput struct {
	// Cluster is the metadata the assignment was computed from. The plan itself does not consult
	// it: unknown-but-owned is defined against the assignment, not the metadata (§2.3.3).
	Cluster impl.Cluster
	// Members are the JoinGroup members, their subscriptions already read at the leader's
	// subscription version (a v0 reader sees no owned partitions).
	Members []impl.JoinGroupMember
	// Assigned is the assignor's output; members without an entry are assigned nothing.
	Assigned []impl.MemberAssignment
	// Faults: FaultPlanSkipsWithhold and FaultPlanSkipsNeedsRejoin each leave out half of
	// §2.6 (KIP-429's hazards, as mutants).
	Faults impl.Faults
}

// PlanResult is the KIP-429 leader's plan: the sets it computes and the final assignment.
type PlanResult struct {
	Owned              []MemberPartitions // §2.1: per member, sorted by member id
	OwnedPartitions    impl.PartitionSet  // §2.1: owned-partitions, the union of the claims
	AssignedPartitions impl.PartitionSet  // §2.2: assigned-partitions, the union of the assignment
	MaybeRevoking      impl.PartitionSet  // §2.3.1: owned ∩ assigned
	ReadyToMigrate     impl.PartitionSet  // §2.3.2: assigned − owned
	UnknownButOwned    impl.PartitionSet  // §2.3.3: owned − assigned
	Contested          impl.PartitionSet  // owned partitions claimed by two or more members
	Withheld           impl.PartitionSet  // §2.6: maybe-revoking partitions kept from their assignee
	Final              []impl.MemberAssignment
	Error              impl.ErrorCode // NeedsRejoin if Withheld is non-empty (§2.6), else None
}

// Plan is the KIP variant's cooperative leader (docs/protocol.md §7.2 steps 1–6). Final gives every member,
// sorted by member id:
//   - its assigned ready-to-migrate partitions: "it is safe to move them to the new member
//     immediately since we know no one owns it before" (§2.4);
//   - its assigned maybe-revoking partitions of which it is the sole claimant: the owner has not
//     changed (§2.6);
//   - the unknown-but-owned partitions of which it is the sole claimant: "it is also safe to just
//     give them back to whoever claimed to be their owners" (§2.5).
//
// A maybe-revoking partition assigned to a member that is not its owner is withheld: "exclude
// them from the assigned-partitions list to the new owner" — and the old owner's list lacks it
// too, since the assignor gave it elsewhere: "the old owner will realize it does not own it any
// more, revoke it and then rejoin" (§2.6). Then Error is NeedsRejoin in every member's
// assignment: "set the error-code to NEED_REJOIN for all the members".
//
// KIP-429 assumes one owner per partition; it is silent on a partition claimed by several
// members (possible after a missed SyncGroup, docs/protocol.md §2.8). Such a contested partition is
// given to none of its claimants nor to anyone else: a maybe-revoking one is withheld from its
// assignee even if that is one of the claimants (the others still hold it, so its owner has
// changed for them) and triggers NeedsRejoin, so every claimant revokes it and it is
// ready-to-migrate in the next round; an unknown-but-owned one is handed back to nobody ("give
// them back to whoever claimed" cannot give one partition to two), without NeedsRejoin, as
// nobody is meant to get it. This mirrors KAFKA-14639's equal-generation rule (docs/protocol.md §2.5).
// The plan never removes a double assignment made by the assignor itself among ready-to-migrate
// partitions (§2.4 encodes the assignor's choice directly).
// Reference: KIP-429 §2.1–§2.6.
func Plan(in PlanInput) PlanResult {
	ms := sortedMembers("Plan", in.Members)
	assigned := assignedByMember("Plan", ms, in.Assigned)
	var r PlanResult
	var contested impl.PartitionSet
	for _, m := range ms {
		o := m.Metadata.OwnedPartitions
		contested = contested.Union(r.OwnedPartitions.Intersect(o))
		r.OwnedPartitions = r.OwnedPartitions.Union(o)
		r.Owned = append(r.Owned, MemberPartitions{MemberID: m.MemberID, Partitions: o})
	}
	for _, a := range assigned {
		r.AssignedPartitions = r.AssignedPartitions.Union(a)
	}
	r.Contested = contested
	r.MaybeRevoking = r.OwnedPartitions.Intersect(r.AssignedPartitions)
	r.ReadyToMigrate = r.AssignedPartitions.Minus(r.OwnedPartitions)
	r.UnknownButOwned = r.OwnedPartitions.Minus(r.AssignedPartitions)
	finals := make([]impl.PartitionSet, len(ms))
	for i, m := range ms {
		sole := m.Metadata.OwnedPartitions.Minus(contested)
		kept := assigned[i].Intersect(r.OwnedPartitions)
		if in.Faults.Has(impl.FaultPlanSkipsWithhold) {
			sole = sole.Union(kept)
		}
		r.Withheld = r.Withheld.Union(kept.Minus(sole))
		finals[i] = assigned[i].Minus(r.OwnedPartitions).
			Union(kept.Intersect(sole)).
			Union(sole.Intersect(r.UnknownButOwned))
	}
	if !r.Withheld.IsEmpty() && !in.Faults.Has(impl.FaultPlanSkipsNeedsRejoin) {
		r.Error = impl.NeedsRejoin
	}
	for i, m := range ms {
		r.Final = append(r.Final, impl.MemberAssignment{MemberID: m.MemberID,
			Assignment: impl.Assignment{Partitions: finals[i], Error: r.Error}})
	}
	return r
}

// assignedByMember indexes an assignment like ms (sorted by member id), panicking on entries for
// unknown or repeated members.
func assignedByMember(transition string, ms []impl.JoinGroupMember, assigned []impl.MemberAssignment) []impl.PartitionSet {
	out := make([]impl.PartitionSet, len(ms))
	seen := make([]bool, len(ms))
	for _, a := range assigned {
		i, ok := indexOf(ms, a.MemberID)
		if !ok || seen[i] {
			panic("leader: " + transition + ": assignment for unknown or repeated member " + string(a.MemberID))
		}
		seen[i] = true
		out[i] = a.Assignment.Partitions
	}
	return out
}
