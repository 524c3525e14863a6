package kip848

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// ReconcileInput is everything one reconciliation step looks at (CurrentAssignmentBuilder's
// inputs; docs/protocol.md §3.4).
type ReconcileInput struct {
	// Member is the member's current record: epoch E, assigned A, pending revocation R, state.
	Member Member
	// TargetEpoch T and Target X: the assignment epoch and the member's target partitions.
	TargetEpoch impl.Epoch
	Target      impl.PartitionSet
	// Owned are the partitions the member reported owning in this request; nil = unchanged.
	Owned *impl.PartitionSet
	// PartitionEpoch is the partition-epoch lookup; NoPartitionEpoch means free.
	PartitionEpoch func(impl.TopicPartition) impl.Epoch
	// Variant: impl.Kafka (as shipped) or impl.KIP (docs/protocol.md §8).
	Variant impl.Variant
	// Faults: only impl.FaultRecomputeWhileRevoking (B17) is consulted.
	Faults impl.Faults
}

// Reconcile is one reconciliation step of a member towards its target: the next member
// record (CurrentAssignmentBuilder.build; docs/protocol.md §3.4). Rebalance timers are not touched
// here; the caller arms or cancels them from the result.
//
//   - STABLE: at the target epoch nothing changes; otherwise computeNextAssignment(E).
//   - UNREVOKED_PARTITIONS: while Owned is nil or still holds some of R, nothing changes (no
//     timer reset); once the revocation is acknowledged, computeNextAssignment(E+1) — in
//     variant KIP computeNextAssignment(E): the acknowledgement moves the member straight to
//     the target epoch (docs/protocol.md §8.2), and if the target has meanwhile taken more away
//     it revokes again at its old epoch E, so commits at E stay accepted across both steps.
//   - UNRELEASED_PARTITIONS: computeNextAssignment(E) on every heartbeat.
//
// Under impl.FaultRecomputeWhileRevoking (B17, KAFKA-16249) a member in UNREVOKED_PARTITIONS
// whose revocation was computed for an older target is recomputed from the new target
// without looking at Owned: a revocation acknowledged in this very request is discarded.
func Reconcile(in ReconcileInput) Member {
	m := in.Member
	switch m.State {
	case Stable:
		if m.MemberEpoch == in.TargetEpoch {
			return m
		}
		return in.computeNextAssignment(m.MemberEpoch)
	case UnrevokedPartitions:
		if in.Faults.Has(impl.FaultRecomputeWhileRevoking) && m.RevocationTargetEpoch != in.TargetEpoch {
			return in.recomputeIgnoringOwned()
		}
		if stillOwns(in.Owned, m.PartitionsPendingRevocation) {
			return m
		}
		if in.Variant == impl.KIP {
			return in.computeNextAssignment(m.MemberEpoch)
		}
		return in.computeNextAssignment(m.MemberEpoch + 1)
	case UnreleasedPartitions:
		return in.computeNextAssignment(m.MemberEpoch)
	}
	panic(fmt.Sprintf("kip848: Reconcile: member %s in invalid state %d", m.ID, m.State))
}

// computeNextAssignment (docs/protocol.md §3.4): keep K = A ∩ X, revoke R' = A − K, take the free
// candidates of X − K now and the unreleased ones later. A partition pending revocation by
// this very member is not "unreleased": only someone else can hold it back. When Owned
// already lacks R' the request itself is the acknowledgement and the wait is skipped.
func (in ReconcileInput) computeNextAssignment(e impl.Epoch) Member {
	m := in.Member
	x := in.Target.OfTopics(m.SubscribedTopics)
	keep := m.AssignedPartitions.Intersect(x)
	revoke := m.AssignedPartitions.Minus(keep)
	candidates := x.Minus(keep)
	unreleased := candidates.Filter(func(tp impl.TopicPartition) bool {
		return in.PartitionEpoch(tp) != NoPartitionEpoch && !m.PartitionsPendingRevocation.Contains(tp)
	})
	if !revoke.IsEmpty() && stillOwns(in.Owned, revoke) {
		next := m.update(UnrevokedPartitions, e, keep, revoke)
		if in.Faults.Has(impl.FaultRecomputeWhileRevoking) {
			next.RevocationTargetEpoch = in.TargetEpoch
		}
		return next
	}
	state := Stable
	if !unreleased.IsEmpty() {
		state = UnreleasedPartitions
	}
	return m.update(state, in.TargetEpoch, keep.Union(candidates.Minus(unreleased)), impl.PartitionSet{})
}

// recomputeIgnoringOwned is B17's faulty REVOKING step: the revocation set grows by what the
// new target takes away, the member stays at its epoch and keeps waiting for an ack.
func (in ReconcileInput) recomputeIgnoringOwned() Member {
	m := in.Member
	keep := m.AssignedPartitions.Intersect(in.Target.OfTopics(m.SubscribedTopics))
	revoke := m.PartitionsPendingRevocation.Union(m.AssignedPartitions.Minus(keep))
	next := m.update(UnrevokedPartitions, m.MemberEpoch, keep, revoke)
	next.RevocationTargetEpoch = in.TargetEpoch
	return next
}

// update is ConsumerGroupMember.Builder's setState + updateMemberEpoch (which always moves
// the old epoch into PreviousMemberEpoch) + the two partition sets.
func (m Member) update(s MemberState, e impl.Epoch, assigned, pending impl.PartitionSet) Member {
	m.State = s
	m.PreviousMemberEpoch, m.MemberEpoch = m.MemberEpoch, e
	m.AssignedPartitions, m.PartitionsPendingRevocation = assigned, pending
	m.RevocationTargetEpoch = 0
	return m
}

// stillOwns: does the member still own something of revoke? A nil Owned counts as yes.
func stillOwns(owned *impl.PartitionSet, revoke impl.PartitionSet) bool {
	return owned == nil || owned.Intersects(revoke)
}

// sameAssignment reports whether reconciliation left the member's record as it was.
func sameAssignment(a, b Member) bool {
	return a.State == b.State && a.MemberEpoch == b.MemberEpoch &&
		a.PreviousMemberEpoch == b.PreviousMemberEpoch &&
		a.AssignedPartitions.Equal(b.AssignedPartitions) &&
		a.PartitionsPendingRevocation.Equal(b.PartitionsPendingRevocation) &&
		a.RevocationTargetEpoch == b.RevocationTargetEpoch
}
