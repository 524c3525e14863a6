package leader

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

func TestStickyAssign(t *testing.T) {
	tests := []struct {
		name    string
		cluster impl.Cluster
		members []impl.JoinGroupMember
		want    []impl.MemberAssignment
	}{
		// Reference: StickyAssignor javadoc example 1 (fresh group: round-robin-like spread).
		{"javadoc fresh", cluster("t0:2 t1:2 t2:2 t3:2"),
			ms(plain("C0", "t0 t1 t2 t3"), plain("C1", "t0 t1 t2 t3"), plain("C2", "t0 t1 t2 t3")),
			want(as("C0", "t0-0 t1-1 t3-0"), as("C1", "t0-1 t2-0 t3-1"), as("C2", "t1-0 t2-1"))},
		// Reference: StickyAssignor javadoc example 1, C1 removed: C0 and C2 keep everything.
		{"javadoc member leaves: survivors keep theirs", cluster("t0:2 t1:2 t2:2 t3:2"),
			ms(eager("C0", "t0 t1 t2 t3", "t0-0 t1-1 t3-0", 1), eager("C2", "t0 t1 t2 t3", "t1-0 t2-1", 1)),
			want(as("C0", "t0-0 t1-1 t2-0 t3-0"), as("C2", "t0-1 t1-0 t2-1 t3-1"))},
		// Reference: StickyAssignor javadoc example 2 (different subscriptions: most constrained first).
		{"javadoc different subscriptions", cluster("t0:1 t1:2 t2:3"),
			ms(plain("C0", "t0"), plain("C1", "t0 t1"), plain("C2", "t0 t1 t2")),
			want(as("C0", "t0-0"), as("C1", "t1-0 t1-1"), as("C2", "t2-0 t2-1 t2-2"))},
		{"javadoc different subscriptions, C0 leaves", cluster("t0:1 t1:2 t2:3"),
			ms(eager("C1", "t0 t1", "t1-0 t1-1", 1), eager("C2", "t0 t1 t2", "t2-0 t2-1 t2-2", 1)),
			want(as("C1", "t0-0 t1-0 t1-1"), as("C2", "t2-0 t2-1 t2-2"))},
		// Reference: docs/protocol.md §2.5 (keep owned up to quota, extras taken away).
		{"extras taken away to the newcomer", cluster("t:4"),
			ms(eager("A", "t", "t-0 t-1 t-2 t-3", 1), plain("B", "t")),
			want(as("A", "t-0 t-1"), as("B", "t-2 t-3"))},
		// Reference: KIP-341 (generation precedence: the newer previous assignment wins).
		{"newer generation wins a conflicting previous partition", cluster("t:3"),
			ms(eager("c2", "t", "t-1 t-2", 2), eager("c3", "t", "t-2", 1)),
			want(as("c2", "t-1 t-2"), as("c3", "t-0"))},
		{"sole stale previous assignment still sticks", cluster("t:2"),
			ms(eager("A", "t", "t-1", 1), eager("B", "t", "", 5)),
			want(as("A", "t-1"), as("B", "t-0"))},
		{"previous partition of a deleted topic ignored", cluster("t:2"),
			ms(eager("A", "t", "t-0 gone-0", 1), plain("B", "t")),
			want(as("A", "t-0"), as("B", "t-1"))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, Sticky{}.Assign(tc.cluster, tc.members), cmpOpts); d != "" {
				t.Errorf("Sticky.Assign (-want +got):\n%s", d)
			}
		})
	}
}

// TestStickyFaultMergeWithoutGeneration shows B11: without generation precedence the member
// back from generation 1 keeps t-2 although c2 held it in generation 2: t-2 is assigned twice.
// Reference: docs/bugs.md B11, KAFKA-7026.
func TestStickyFaultMergeWithoutGeneration(t *testing.T) {
	c := cluster("t:3")
	members := ms(eager("c2", "t", "t-1 t-2", 2), eager("c3", "t", "t-2", 1))
	correct := Sticky{}.Assign(c, members)
	faulty := Sticky{Faults: impl.Faults(0).With(impl.FaultStickyMergeWithoutGeneration)}.Assign(c, members)
	if d := cmp.Diff(want(as("c2", "t-1 t-2"), as("c3", "t-0")), correct, cmpOpts); d != "" {
		t.Errorf("correct (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want(as("c2", "t-1 t-2"), as("c3", "t-0 t-2")), faulty, cmpOpts); d != "" {
		t.Errorf("faulty (-want +got):\n%s", d)
	}
}

func TestValidClaims(t *testing.T) {
	withUD := func(m impl.JoinGroupMember, g impl.Generation) impl.JoinGroupMember {
		m.Metadata = m.Metadata.ReadAs(1)
		m.Metadata.UserData.Generation = g
		return m
	}
	tests := []struct {
		name    string
		members []impl.JoinGroupMember
		want    []Claim
	}{
		// Reference: docs/protocol.md §2.5, KAFKA-14639: a sole claim is kept whatever its generation.
		{"sole stale claim kept", ms(coop("A", "t", "t-0", 1), coop("B", "t", "", 3)),
			[]Claim{{impl.TP("t", 0), "A", 1}}},
		// Reference: docs/protocol.md §2.5: several claimants, highest generation wins.
		{"highest generation wins", ms(coop("A", "t", "t-0 t-1", 1), coop("B", "t", "t-0", 2)),
			[]Claim{{impl.TP("t", 0), "B", 2}, {impl.TP("t", 1), "A", 1}}},
		// Reference: docs/protocol.md §2.5: same generation, dropped from both.
		{"equal generation dropped", ms(coop("A", "t", "t-0", 2), coop("B", "t", "t-0", 2)), nil},
		{"tie at the top among three drops it", ms(coop("A", "t", "t-0", 3), coop("B", "t", "t-0", 3), coop("C", "t", "t-0", 2)), nil},
		{"tie below the top does not matter", ms(coop("A", "t", "t-0", 3), coop("B", "t", "t-0", 2), coop("C", "t", "t-0", 2)),
			[]Claim{{impl.TP("t", 0), "A", 3}}},
		// Reference: docs/protocol.md §2.5: claims on non-existent partitions / unsubscribed topics ignored.
		{"non-existent partition and unsubscribed topic ignored", ms(coop("A", "t", "t-0 t-7 u-0 gone-0", 1)),
			[]Claim{{impl.TP("t", 0), "A", 1}}},
		{"claim on a topic another member subscribes is valid", ms(coop("A", "u", "t-0", 1), coop("B", "t", "", 1)),
			[]Claim{{impl.TP("t", 0), "A", 1}}},
		// Reference: docs/protocol.md §2.2: v1 subscriptions carry the generation in user data.
		{"v1 generation from user data", ms(withUD(coop("A", "t", "t-0", 9), 4), coop("B", "t", "t-0", 3)),
			[]Claim{{impl.TP("t", 0), "A", 4}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, ValidClaims(cluster("t:2 u:1"), tc.members)); d != "" {
				t.Errorf("ValidClaims (-want +got):\n%s", d)
			}
		})
	}
}

func TestCooperativeStickyAssign(t *testing.T) {
	tests := []struct {
		name    string
		cluster impl.Cluster
		a       CooperativeSticky
		members []impl.JoinGroupMember
		want    []impl.MemberAssignment
	}{
		// Reference: docs/protocol.md §2.5 (adjustAssignment withholds partitions transferring ownership).
		{"moving partitions withheld from the newcomer", cluster("t:4"), CooperativeSticky{},
			ms(coop("A", "t", "t-0 t-1 t-2 t-3", 1), coop("B", "t", "", -1)),
			want(as("A", "t-0 t-1"), as("B", ""))},
		{"second round: released partitions assigned", cluster("t:4"), CooperativeSticky{},
			ms(coop("A", "t", "t-0 t-1", 2), coop("B", "t", "", 2)),
			want(as("A", "t-0 t-1"), as("B", "t-2 t-3"))},
		// Reference: docs/protocol.md §7.2.6 — the KIP variant's plan withholds instead.
		{"skip adjust leaves the move in", cluster("t:4"), CooperativeSticky{SkipAdjust: true},
			ms(coop("A", "t", "t-0 t-1 t-2 t-3", 1), coop("B", "t", "", -1)),
			want(as("A", "t-0 t-1"), as("B", "t-2 t-3"))},
		// Reference: docs/protocol.md §2.5: equal-generation claims dropped, partition treated unowned.
		{"equal generation conflict assigned as unowned", cluster("t:3"), CooperativeSticky{},
			ms(coop("A", "t", "t-0 t-1", 2), coop("B", "t", "t-0 t-2", 2), coop("C", "t", "", 2)),
			want(as("A", "t-1"), as("B", "t-2"), as("C", "t-0"))},
		// Reference: docs/protocol.md §2.5: a valid owner no longer subscribed loses the partition, and
		// it is still transferring ownership, so the subscriber waits a round.
		{"owner unsubscribed: revoked and withheld", cluster("t:1 u:1"), CooperativeSticky{},
			ms(coop("A", "u", "t-0", 1), coop("B", "t", "", 1)),
			want(as("A", "u-0"), as("B", ""))},
		// Reference: docs/protocol.md §2.5: also supports eager (owned lists empty, nothing withheld).
		{"eager protocol behaves as plain balance", cluster("t:3"), CooperativeSticky{},
			ms(coop("A", "t", "", 1), coop("B", "t", "", 1)),
			want(as("A", "t-0 t-2"), as("B", "t-1"))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, tc.a.Assign(tc.cluster, tc.members), cmpOpts); d != "" {
				t.Errorf("CooperativeSticky.Assign (-want +got):\n%s", d)
			}
		})
	}
}

func TestAdjustAssignment(t *testing.T) {
	// Reference: docs/protocol.md §2.5 (partitionsTransferringOwnership removed from the assignee).
	assigned := want(as("X", "t-0 t-1"), as("Y", "t-2"))
	claims := []Claim{{impl.TP("t", 0), "Y", 1}, {impl.TP("t", 2), "Y", 1}}
	got := AdjustAssignment(assigned, claims)
	if d := cmp.Diff(want(as("X", "t-1"), as("Y", "t-2")), got, cmpOpts); d != "" {
		t.Errorf("AdjustAssignment (-want +got):\n%s", d)
	}
	if !assigned[0].Assignment.Partitions.Equal(ps("t-0 t-1")) {
		t.Errorf("AdjustAssignment modified its input")
	}
}

// TestCooperativeStickyFaultDropLowerGenerationClaims shows B10: A missed a round and claims
// t-0 t-1 at generation 1 while B is at generation 2. Correctly A's sole claims stand, t-1 moves
// to B and is withheld; under the fault A's claims are dropped, t-1 goes straight to B while A
// still owns it.
// Reference: docs/bugs.md B10, KAFKA-14639.
func TestCooperativeStickyFaultDropLowerGenerationClaims(t *testing.T) {
	c := cluster("t:2")
	members := ms(coop("A", "t", "t-0 t-1", 1), coop("B", "t", "", 2))
	faulty := CooperativeSticky{Faults: impl.Faults(0).With(impl.FaultDropLowerGenerationClaims)}
	if d := cmp.Diff(want(as("A", "t-0"), as("B", "")), CooperativeSticky{}.Assign(c, members), cmpOpts); d != "" {
		t.Errorf("correct (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want(as("A", "t-0"), as("B", "t-1")), faulty.Assign(c, members), cmpOpts); d != "" {
		t.Errorf("faulty (-want +got):\n%s", d)
	}
	if got := faulty.Claims(c, members); len(got) != 0 {
		t.Errorf("faulty Claims = %v, want none", got)
	}
}
