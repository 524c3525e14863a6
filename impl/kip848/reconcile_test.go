package kip848

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// heldBy returns a partition-epoch lookup where the given partitions are held at epoch e.
func heldBy(s string, e impl.Epoch) func(impl.TopicPartition) impl.Epoch {
	held := ps(s)
	return func(tp impl.TopicPartition) impl.Epoch {
		if held.Contains(tp) {
			return e
		}
		return NoPartitionEpoch
	}
}

func mem(state MemberState, e, prev impl.Epoch, assigned, pending string) Member {
	return Member{ID: "a", MemberEpoch: e, PreviousMemberEpoch: prev, State: state,
		AssignedPartitions: ps(assigned), PartitionsPendingRevocation: ps(pending),
		SubscribedTopics: []string{"t", "u"}}
}

func TestReconcile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      ReconcileInput
		want    Member
		wantKIP *Member // when variant KIP differs
	}{
		{
			// Reference: docs/protocol.md §3.4 build(): STABLE at the target epoch is unchanged.
			name: "stable at target epoch",
			in:   ReconcileInput{Member: mem(Stable, 3, 2, "t-0", ""), TargetEpoch: 3, Target: ps("t-0 t-1"), PartitionEpoch: heldBy("", 0)},
			want: mem(Stable, 3, 2, "t-0", ""),
		},
		{
			// Reference: docs/protocol.md §3.4 computeNextAssignment: only additions, all free → STABLE at T.
			name: "stable behind, new free partitions",
			in:   ReconcileInput{Member: mem(Stable, 3, 2, "t-0", ""), TargetEpoch: 5, Target: ps("t-0 t-1"), PartitionEpoch: heldBy("", 0)},
			want: mem(Stable, 5, 3, "t-0 t-1", ""),
		},
		{
			// Reference: docs/protocol.md §3.4: R' ≠ ∅ and owned unknown (nil) → UNREVOKED_PARTITIONS at E.
			name: "stable behind, revocation, owned nil",
			in:   ReconcileInput{Member: mem(Stable, 3, 2, "t-0 t-1", ""), TargetEpoch: 5, Target: ps("t-0 t-2"), PartitionEpoch: heldBy("t-1", 3)},
			want: mem(UnrevokedPartitions, 3, 3, "t-0", "t-1"),
		},
		{
			// Reference: docs/protocol.md §3.4: R' ≠ ∅ but owned shows R' already gone → skip straight
			// to the assignment (the request is the acknowledgement, in both variants).
			name: "stable behind, revocation already done by the client",
			in:   ReconcileInput{Member: mem(Stable, 3, 2, "t-0 t-1", ""), TargetEpoch: 5, Target: ps("t-0 t-2"), Owned: owned("t-0"), PartitionEpoch: heldBy("", 0)},
			want: mem(Stable, 5, 3, "t-0 t-2", ""),
		},
		{
			// Reference: docs/protocol.md §3.4: N' ≠ ∅ and U ≠ ∅ → UNRELEASED_PARTITIONS at T with K ∪ N'.
			name: "stable behind, some new partitions still held",
			in:   ReconcileInput{Member: mem(Stable, 3, 2, "t-0", ""), TargetEpoch: 5, Target: ps("t-0 t-1 t-2"), PartitionEpoch: heldBy("t-2", 4)},
			want: mem(UnreleasedPartitions, 5, 3, "t-0 t-1", ""),
		},
		{
			// Reference: docs/protocol.md §3.4: N' = ∅, U ≠ ∅ → UNRELEASED_PARTITIONS at T with K.
			name: "stable behind, only unreleased partitions",
			in:   ReconcileInput{Member: mem(Stable, 3, 2, "t-0", ""), TargetEpoch: 5, Target: ps("t-0 t-2"), PartitionEpoch: heldBy("t-2", -2)},
			want: mem(UnreleasedPartitions, 5, 3, "t-0", ""),
		},
		{
			// Reference: docs/protocol.md §3.4 (and ConsumerGroup: a target for an unsubscribed topic
			// counts as empty): u-0 is revoked, not kept.
			name: "target partition of an unsubscribed topic is ignored",
			in: ReconcileInput{Member: func() Member { m := mem(Stable, 3, 2, "u-0", ""); m.SubscribedTopics = []string{"t"}; return m }(),
				TargetEpoch: 5, Target: ps("u-0 t-0"), Owned: owned(""), PartitionEpoch: heldBy("", 0)},
			want: func() Member { m := mem(Stable, 5, 3, "t-0", ""); m.SubscribedTopics = []string{"t"}; return m }(),
		},
		{
			// Reference: docs/protocol.md §3.4 build(): UNREVOKED with owned nil → unchanged (waiting).
			name: "unrevoked, owned unchanged",
			in:   ReconcileInput{Member: mem(UnrevokedPartitions, 3, 3, "t-0", "t-1"), TargetEpoch: 5, Target: ps("t-0 t-2"), PartitionEpoch: heldBy("t-1", 3)},
			want: mem(UnrevokedPartitions, 3, 3, "t-0", "t-1"),
		},
		{
			// Reference: docs/protocol.md §3.4 build(): UNREVOKED, O ∩ R ≠ ∅ → unchanged.
			name: "unrevoked, still owns a revoked partition",
			in:   ReconcileInput{Member: mem(UnrevokedPartitions, 3, 3, "t-0", "t-1"), TargetEpoch: 5, Target: ps("t-0 t-2"), Owned: owned("t-0 t-1"), PartitionEpoch: heldBy("t-1", 3)},
			want: mem(UnrevokedPartitions, 3, 3, "t-0", "t-1"),
		},
		{
			// Reference: docs/protocol.md §3.4 build(): revocation acknowledged → computeNextAssignment(E+1);
			// nothing more to revoke, so the member reaches T with the free new partitions.
			name: "unrevoked, acknowledged",
			in:   ReconcileInput{Member: mem(UnrevokedPartitions, 3, 3, "t-0", "t-1"), TargetEpoch: 5, Target: ps("t-0 t-2"), Owned: owned("t-0"), PartitionEpoch: heldBy("t-1", 3)},
			want: mem(Stable, 5, 3, "t-0 t-2", ""),
		},
		{
			// Reference: docs/protocol.md §3.4: the target moved on and takes more away: the member
			// re-enters UNREVOKED at E+1 (one epoch per completed revocation step). The KIP-848 draft's
			// variant stays at E: it reaches the target epoch only when done revoking.
			name:    "unrevoked, acknowledged, more to revoke",
			in:      ReconcileInput{Member: mem(UnrevokedPartitions, 3, 3, "t-0 t-3", "t-1"), TargetEpoch: 7, Target: ps("t-0"), Owned: owned("t-0 t-3"), PartitionEpoch: heldBy("t-1", 3)},
			want:    mem(UnrevokedPartitions, 4, 3, "t-0", "t-3"),
			wantKIP: ptr(mem(UnrevokedPartitions, 3, 3, "t-0", "t-3")),
		},
		{
			// Reference: docs/protocol.md §3.4 (and Kafka's later code comment): a partition pending
			// revocation by this member and targeted to it again is not "unreleased".
			name: "unrevoked, acknowledged, target gives a revoked partition back",
			in:   ReconcileInput{Member: mem(UnrevokedPartitions, 3, 3, "t-0", "t-1"), TargetEpoch: 7, Target: ps("t-0 t-1"), Owned: owned("t-0"), PartitionEpoch: heldBy("t-0 t-1", 3)},
			want: mem(Stable, 7, 3, "t-0 t-1", ""),
		},
		{
			// Reference: docs/protocol.md §3.4 build(): UNRELEASED picks up a partition once released.
			name: "unreleased, partition released",
			in:   ReconcileInput{Member: mem(UnreleasedPartitions, 5, 3, "t-0", ""), TargetEpoch: 5, Target: ps("t-0 t-2"), PartitionEpoch: heldBy("", 0)},
			want: mem(Stable, 5, 5, "t-0 t-2", ""),
		},
		{
			// Reference: docs/protocol.md §3.4: UNRELEASED and still held → stays (updateMemberEpoch
			// still moves the epoch into previous).
			name: "unreleased, still held",
			in:   ReconcileInput{Member: mem(UnreleasedPartitions, 5, 3, "t-0", ""), TargetEpoch: 5, Target: ps("t-0 t-2"), PartitionEpoch: heldBy("t-2", 4)},
			want: mem(UnreleasedPartitions, 5, 5, "t-0", ""),
		},
	} {
		for _, v := range []impl.Variant{impl.Kafka, impl.KIP} {
			t.Run(tc.name+"/"+v.String(), func(t *testing.T) {
				in := tc.in
				in.Variant = v
				want := tc.want
				if v == impl.KIP && tc.wantKIP != nil {
					want = *tc.wantKIP
				}
				if d := cmp.Diff(want, Reconcile(in), cmpOpts); d != "" {
					t.Errorf("Reconcile (-want +got):\n%s", d)
				}
			})
		}
	}
}

func ptr(m Member) *Member { return &m }

// Reference: KAFKA-16249 (B17): the fault recomputes from a newer target ignoring the ack.
func TestReconcileFaultRecomputeWhileRevoking(t *testing.T) {
	m := mem(UnrevokedPartitions, 3, 3, "t-0 t-3", "t-1")
	m.RevocationTargetEpoch = 5
	in := ReconcileInput{Member: m, TargetEpoch: 7, Target: ps("t-0"), Owned: owned("t-0 t-3"),
		PartitionEpoch: heldBy("t-1", 3), Faults: impl.Faults(0).With(impl.FaultRecomputeWhileRevoking)}
	want := mem(UnrevokedPartitions, 3, 3, "t-0", "t-1 t-3")
	want.RevocationTargetEpoch = 7
	if d := cmp.Diff(want, Reconcile(in), cmpOpts); d != "" {
		t.Errorf("faulty Reconcile (-want +got):\n%s", d)
	}
	// Same target as the revocation was computed for: the ack is honoured.
	in.TargetEpoch, in.Member.RevocationTargetEpoch = 7, 7
	if got := Reconcile(in); got.State != UnrevokedPartitions || got.MemberEpoch != 4 || got.RevocationTargetEpoch != 7 {
		t.Errorf("faulty Reconcile on the same target = %s, want UNREVOKED at 4 revoking t-3", got)
	}
}

func TestReconcileInvalidStatePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Reconcile accepted an invalid member state")
		}
	}()
	Reconcile(ReconcileInput{Member: Member{State: 9}})
}
