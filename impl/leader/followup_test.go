package leader

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

func TestRequestFollowup(t *testing.T) {
	followup := func(m impl.MemberAssignment) impl.MemberAssignment {
		m.Assignment.Followup = true
		return m
	}
	round := want(as("A", "t-0"), as("B", ""))
	tests := []struct {
		name   string
		in     []impl.MemberAssignment
		id     impl.MemberID
		want   []impl.MemberAssignment
		wantOK bool
	}{
		// Reference: KIP-441 (Streams' addClientAssignments: nextRebalanceMs 0 for the consumer
		// tasks were withheld from, B here, until their owner A revoked them).
		{"the member a partition was withheld from", round, "B", want(as("A", "t-0"), followup(as("B", ""))), true},
		// Reference: KIP-441 probing rebalance (one consumer of the leader's process, which may
		// hold everything it should).
		{"a member that keeps what it owns", round, "A", want(followup(as("A", "t-0")), as("B", "")), true},
		// KIP-429's NEEDS_REJOIN and a follow-up are independent: the flag is user data.
		{"beside NEEDS_REJOIN", want(asErr("A", "t-0", impl.NeedsRejoin)), "A",
			want(followup(asErr("A", "t-0", impl.NeedsRejoin))), true},
		// A member the leader did not see in the round cannot be asked.
		{"unknown member", round, "C", round, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := RequestFollowup(tc.in, tc.id)
			if ok != tc.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tc.wantOK)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("RequestFollowup (-want +got):\n%s", d)
			}
			if d := cmp.Diff(want(as("A", "t-0"), as("B", "")), round); d != "" {
				t.Errorf("the input was modified:\n%s", d)
			}
		})
	}
}
