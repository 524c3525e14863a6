package leader

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

func TestAllAssignments(t *testing.T) {
	c := cluster("t:2")
	members := ms(plain("B", "t"), plain("A", "t"))
	// Reference: docs/protocol.md §6.4 (the any assignor); odometer order, first partition slowest.
	wantExact := [][]impl.MemberAssignment{
		want(as("A", "t-0 t-1"), as("B", "")),
		want(as("A", "t-0"), as("B", "t-1")),
		want(as("A", "t-1"), as("B", "t-0")),
		want(as("A", ""), as("B", "t-0 t-1")),
	}
	if d := cmp.Diff(wantExact, AllAssignments(c, members, false), cmpOpts); d != "" {
		t.Errorf("AllAssignments exactly-one (-want +got):\n%s", d)
	}
	withNone := AllAssignments(c, members, true)
	if len(withNone) != 9 {
		t.Fatalf("AllAssignments with unassigned: %d elements, want 3·3 = 9", len(withNone))
	}
	if d := cmp.Diff(want(as("A", ""), as("B", "")), withNone[8], cmpOpts); d != "" {
		t.Errorf("last element (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want(as("A", "t-0"), as("B", "")), withNone[2], cmpOpts); d != "" {
		t.Errorf("third element (-want +got):\n%s", d)
	}
}

func TestAllAssignmentsSubscribersOnly(t *testing.T) {
	c := cluster("t:1 u:1")
	got := AllAssignments(c, ms(plain("A", "t"), plain("B", "t u")), false)
	wantAll := [][]impl.MemberAssignment{
		want(as("A", "t-0"), as("B", "u-0")),
		want(as("A", ""), as("B", "t-0 u-0")),
	}
	if d := cmp.Diff(wantAll, got, cmpOpts); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestCountAssignments(t *testing.T) {
	tests := []struct {
		name    string
		c       impl.Cluster
		members []impl.JoinGroupMember
		unassig bool
		want    int
	}{
		{"two subscribers of two partitions", cluster("t:2"), ms(plain("A", "t"), plain("B", "t")), false, 4},
		{"with unassigned", cluster("t:2 u:1"), ms(plain("A", "t"), plain("B", "t u")), true, 3 * 3 * 2},
		{"nothing subscribed: one empty assignment", cluster("t:2"), ms(plain("A", "x")), false, 1},
		{"saturates", cluster("t:100"), ms(plain("A", "t"), plain("B", "t"), plain("C", "t")), false, math.MaxInt},
	}
	for _, tc := range tests {
		if got := CountAssignments(tc.c, tc.members, tc.unassig); got != tc.want {
			t.Errorf("%s: CountAssignments = %d, want %d", tc.name, got, tc.want)
		}
	}
	if n := len(AllAssignments(cluster("t:2"), ms(plain("A", "x")), false)); n != 1 {
		t.Errorf("AllAssignments with nothing subscribed: %d elements, want 1", n)
	}
}

func TestEachAssignmentStopsEarly(t *testing.T) {
	n := 0
	for range EachAssignment(cluster("t:3"), ms(plain("A", "t"), plain("B", "t")), false) {
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("iterated %d times, want 2", n)
	}
}
