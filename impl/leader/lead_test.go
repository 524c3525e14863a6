package leader

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

func TestLead(t *testing.T) {
	newcomer := ms(coop("A", "t", "t-0 t-1", 1), coop("B", "t", "", -1))
	max := impl.MaxSubscriptionVersion
	rejoin := impl.NeedsRejoin
	tests := []struct {
		name       string
		in         LeaderInput
		want       []impl.MemberAssignment
		wantFailed bool
		wantPlan   bool
	}{
		// Reference: docs/protocol.md §2.4 step 3 (eager: the assignor's output as is).
		{"kafka eager range", LeaderInput{Variant: impl.Kafka, Protocol: impl.Eager, AssignorName: RangeName,
			ReadVersion: max, Members: ms(plain("A", "t"), plain("B", "t"))},
			want(as("A", "t-0"), as("B", "t-1")), false, false},
		// Reference: docs/protocol.md §2.5 (cooperative-sticky withholds, no validation).
		{"kafka cooperative-sticky withholds", LeaderInput{Variant: impl.Kafka, Protocol: impl.Cooperative,
			AssignorName: CooperativeStickyName, ReadVersion: max, Members: newcomer},
			want(as("A", "t-0"), as("B", "")), false, false},
		// Reference: docs/protocol.md §2.4 step 4 (validateCooperativeAssignment throws).
		{"kafka cooperative roundrobin fails validation", LeaderInput{Variant: impl.Kafka, Protocol: impl.Cooperative,
			AssignorName: RoundRobinName, ReadVersion: max, Members: newcomer},
			nil, true, false},
		{"kafka cooperative roundrobin without moves passes", LeaderInput{Variant: impl.Kafka, Protocol: impl.Cooperative,
			AssignorName: RoundRobinName, ReadVersion: max, Members: ms(coop("A", "t", "t-0", 1), coop("B", "t", "t-1", 1))},
			want(as("A", "t-0"), as("B", "t-1")), false, false},
		// Reference: KIP-429 §2.6 (the plan withholds and sets NEEDS_REJOIN for all).
		{"kip cooperative roundrobin: plan withholds", LeaderInput{Variant: impl.KIP, Protocol: impl.Cooperative,
			AssignorName: RoundRobinName, ReadVersion: max, Members: newcomer},
			want(asErr("A", "t-0", rejoin), asErr("B", "", rejoin)), false, true},
		{"kip cooperative-sticky: plan does the adjustment", LeaderInput{Variant: impl.KIP, Protocol: impl.Cooperative,
			AssignorName: CooperativeStickyName, ReadVersion: max, Members: newcomer, Cluster: cluster("t:2")},
			want(asErr("A", "t-0", rejoin), asErr("B", "", rejoin)), false, true},
		// Reference: docs/protocol.md §7.4: a v0-only leader cannot see owned partitions and
		// hands t-1 to B while A still owns it.
		{"kip v0-only leader moves an owned partition at once", LeaderInput{Variant: impl.KIP, Protocol: impl.Cooperative,
			AssignorName: RoundRobinName, ReadVersion: 0, Members: newcomer},
			want(as("A", "t-0"), as("B", "t-1")), false, true},
		{"kafka v0-only leader: cooperative-sticky cannot withhold", LeaderInput{Variant: impl.Kafka, Protocol: impl.Cooperative,
			AssignorName: CooperativeStickyName, ReadVersion: 0, Members: newcomer},
			want(as("A", "t-0"), as("B", "t-1")), false, false},
		{"kip eager: as is", LeaderInput{Variant: impl.KIP, Protocol: impl.Eager, AssignorName: RangeName,
			ReadVersion: max, Members: newcomer},
			want(as("A", "t-0"), as("B", "t-1")), false, false},
		{"unknown assignor fails", LeaderInput{AssignorName: "uniform", Members: newcomer}, nil, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.in.Cluster.Topics == nil {
				tc.in.Cluster = cluster("t:2")
			}
			got := Lead(tc.in)
			if got.Failed != tc.wantFailed || (got.Plan != nil) != tc.wantPlan {
				t.Fatalf("Failed = %v (%s), Plan = %v; want Failed %v, plan %v", got.Failed, got.Reason, got.Plan != nil, tc.wantFailed, tc.wantPlan)
			}
			if d := cmp.Diff(tc.want, got.Assignments, cmpOpts); d != "" {
				t.Errorf("Lead (-want +got):\n%s", d)
			}
		})
	}
}

// TestLeadFaultValidateBuiltinCooperative shows B9: A and B both claim t-0 at generation 2 (a
// stale claim), cooperative-sticky drops both claims and gives t-0 to C. Correctly the built-in
// assignor is not validated and the round completes; under the fault validation sees t-0 added
// to C and revoked from A and B and fails the round.
// Reference: docs/bugs.md B9, KAFKA-13406.
func TestLeadFaultValidateBuiltinCooperative(t *testing.T) {
	in := LeaderInput{Variant: impl.Kafka, Protocol: impl.Cooperative, AssignorName: CooperativeStickyName,
		ReadVersion: impl.MaxSubscriptionVersion, Cluster: cluster("t:3"),
		Members: ms(coop("A", "t", "t-0 t-1", 2), coop("B", "t", "t-0 t-2", 2), coop("C", "t", "", 2))}
	correct := Lead(in)
	if correct.Failed {
		t.Fatalf("correct leader failed: %s", correct.Reason)
	}
	if d := cmp.Diff(want(as("A", "t-1"), as("B", "t-2"), as("C", "t-0")), correct.Assignments, cmpOpts); d != "" {
		t.Errorf("correct (-want +got):\n%s", d)
	}
	in.Faults = in.Faults.With(impl.FaultValidateBuiltinCooperative)
	faulty := Lead(in)
	if !faulty.Failed || faulty.Assignments != nil || !strings.Contains(faulty.Reason, "(t-0)") {
		t.Errorf("faulty leader = %+v, want a failure naming (t-0)", faulty)
	}
}

func TestValidateCooperative(t *testing.T) {
	// Reference: docs/protocol.md §2.4 step 4.
	members := ms(coop("A", "t", "t-0 t-1", 1), coop("B", "t", "t-2", 1), coop("C", "t", "", 1))
	tests := []struct {
		name     string
		assigned []impl.MemberAssignment
		want     impl.PartitionSet
	}{
		{"unchanged", want(as("A", "t-0 t-1"), as("B", "t-2")), ps("")},
		{"revoked only", want(as("A", "t-0"), as("B", "t-2")), ps("")},
		{"added only", want(as("A", "t-0 t-1"), as("B", "t-2"), as("C", "t-3")), ps("")},
		{"moved in one round", want(as("A", "t-0"), as("B", "t-2"), as("C", "t-1")), ps("t-1")},
		{"swapped", want(as("A", "t-0 t-2"), as("B", "t-1")), ps("t-1 t-2")},
	}
	for _, tc := range tests {
		if d := cmp.Diff(tc.want, ValidateCooperative(members, tc.assigned), cmpOpts); d != "" {
			t.Errorf("%s: ValidateCooperative (-want +got):\n%s", tc.name, d)
		}
	}
}

func TestLeadWithAny(t *testing.T) {
	// The any assignor's elements go through the same post-processing (docs/protocol.md §6.4).
	in := LeaderInput{Variant: impl.Kafka, Protocol: impl.Cooperative, AssignorName: AnyName,
		ReadVersion: impl.MaxSubscriptionVersion, Cluster: cluster("t:2"),
		Members: ms(coop("A", "t", "t-0", 1), coop("B", "t", "", 1))}
	var passed, failed int
	for a := range EachAssignment(in.Cluster, in.Members, true) {
		if LeadWith(in, a).Failed {
			failed++
		} else {
			passed++
		}
	}
	// t-0 given to B (3 choices for t-1) is the only violation: 3 of 9.
	if passed != 6 || failed != 3 {
		t.Errorf("passed %d failed %d, want 6 and 3", passed, failed)
	}
	partial := LeadWith(in, want(as("B", "t-1")))
	if d := cmp.Diff(want(as("A", ""), as("B", "t-1")), partial.Assignments, cmpOpts); d != "" {
		t.Errorf("missing members get empty entries (-want +got):\n%s", d)
	}
}

func TestReadMembersDoesNotModifyInput(t *testing.T) {
	in := ms(coop("A", "t", "t-0", 3))
	out := ReadMembers(in, 0)
	if !out[0].Metadata.OwnedPartitions.IsEmpty() || out[0].Metadata.Version != 0 {
		t.Errorf("ReadMembers(0) = %+v", out[0].Metadata)
	}
	if in[0].Metadata.OwnedPartitions.Len() != 1 || in[0].Metadata.Generation != 3 {
		t.Errorf("input modified: %+v", in[0].Metadata)
	}
}
