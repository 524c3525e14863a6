package leader

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// Sticky is the eager StickyAssignor (KIP-54): it keeps each member's previous assignment, read
// from the subscription's UserData, as far as balance allows, and distributes the rest
// (stickyBalance). Conflicting previous assignments are resolved with generation precedence
// (KIP-341): per partition the highest UserData generation wins and a tie at the highest
// generation leaves the partition unowned. Unlike Java, which ignores every member below the
// maximum generation and keeps older data only as a fallback, precedence is per partition: both
// rules only steer stickiness, since eager members own nothing when they join. Eager only.
//
// With FaultStickyMergeWithoutGeneration every member keeps its cached previous assignment
// without arbitration, so a member back from an older generation and the current holder may both
// keep one partition: it is assigned twice (KAFKA-7026, docs/bugs.md B11).
// Reference: docs/protocol.md §2.5; KIP-341.
type Sticky struct {
	Faults impl.Faults
}

// Name is "sticky".
func (Sticky) Name() string { return StickyName }

// SupportedProtocols is eager only.
func (Sticky) SupportedProtocols() []impl.RebalanceProtocol {
	return []impl.RebalanceProtocol{impl.Eager}
}

// Assign implements Assignor.
func (a Sticky) Assign(cluster impl.Cluster, members []impl.JoinGroupMember) []impl.MemberAssignment {
	ms := sortedMembers("sticky.Assign", members)
	mode := byGeneration
	if a.Faults.Has(impl.FaultStickyMergeWithoutGeneration) {
		mode = mergeAll
	}
	prev := claimsByMember(ms, arbitrate(cluster, ms, userDataClaims, mode))
	return assignmentsOf(ms, stickyBalance(cluster, ms, prev, a.Faults))
}

// CooperativeSticky is the CooperativeStickyAssignor: owned partitions are arbitrated
// (ValidClaims, KAFKA-14639), balanced stickily (stickyBalance), then AdjustAssignment withholds
// every partition transferring ownership from another valid owner. It supports eager (owned
// lists are then empty, so nothing is withheld) and cooperative.
//
// SkipAdjust leaves out AdjustAssignment: in the KIP variant the leader's plan does the
// withholding (docs/protocol.md §7.2.6), and a partition the assignor already withheld would look
// "unknown-but-owned" to the plan and be handed back to its old owner (§2.5), so it would never
// move. With FaultDropLowerGenerationClaims every claim of a member whose generation is below the
// maximum generation among the subscriptions is dropped before arbitration, so a sole stale
// claim is not protected and its partition goes straight to a new owner (docs/bugs.md B10).
// Reference: docs/protocol.md §2.5.
type CooperativeSticky struct {
	Faults     impl.Faults
	SkipAdjust bool
}

// Name is "cooperative-sticky".
func (CooperativeSticky) Name() string { return CooperativeStickyName }

// SupportedProtocols is eager and cooperative.
func (CooperativeSticky) SupportedProtocols() []impl.RebalanceProtocol {
	return []impl.RebalanceProtocol{impl.Eager, impl.Cooperative}
}

// Claims is the assignor's arbitration of the members' owned partitions: ValidClaims, or the
// pre-KAFKA-14639 arbitration under FaultDropLowerGenerationClaims.
func (a CooperativeSticky) Claims(cluster impl.Cluster, members []impl.JoinGroupMember) []Claim {
	mode := byGeneration
	if a.Faults.Has(impl.FaultDropLowerGenerationClaims) {
		mode = dropLower
	}
	return arbitrate(cluster, sortedMembers("cooperative-sticky.Claims", members), ownedClaims, mode)
}

// Assign implements Assignor.
func (a CooperativeSticky) Assign(cluster impl.Cluster, members []impl.JoinGroupMember) []impl.MemberAssignment {
	ms := sortedMembers("cooperative-sticky.Assign", members)
	claims := a.Claims(cluster, ms)
	out := assignmentsOf(ms, stickyBalance(cluster, ms, claimsByMember(ms, claims), a.Faults))
	if a.SkipAdjust {
		return out
	}
	return AdjustAssignment(out, claims)
}

// AdjustAssignment removes from every member's assignment the partitions transferring
// ownership: those validly claimed by another member. claims must be sorted by partition with at
// most one claim per partition, as ValidClaims and CooperativeSticky.Claims return them. Such a
// partition is revoked from its owner in this round and assignable only in a later one, after
// the owner's JoinGroup no longer claims it. assigned is not modified.
// Reference: docs/protocol.md §2.5 (adjustAssignment, partitionsTransferringOwnership).
func AdjustAssignment(assigned []impl.MemberAssignment, claims []Claim) []impl.MemberAssignment {
	out := slices.Clone(assigned)
	for i, ma := range out {
		keep := ma.Assignment.Partitions.Filter(func(tp impl.TopicPartition) bool {
			j, ok := slices.BinarySearchFunc(claims, tp, func(c Claim, tp impl.TopicPartition) int { return c.Partition.Compare(tp) })
			return !ok || claims[j].Owner == ma.MemberID
		})
		out[i].Assignment.Partitions = keep
	}
	return out
}
