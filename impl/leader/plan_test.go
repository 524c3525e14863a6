package leader

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

func TestPlan(t *testing.T) {
	none, rejoin := impl.None, impl.NeedsRejoin
	tests := []struct {
		name     string
		members  []impl.JoinGroupMember
		assigned []impl.MemberAssignment
		want     PlanResult
	}{
		// Reference: KIP-429 §2.3.1, §2.6 — a new member joins, t-1 moves A→B: withheld from B,
		// absent from A's list, NEEDS_REJOIN for all.
		{"new member joins: moving partition withheld",
			ms(coop("A", "t", "t-0 t-1", 1), coop("B", "t", "", -1)),
			want(as("A", "t-0"), as("B", "t-1")),
			PlanResult{
				Owned:           []MemberPartitions{{"A", ps("t-0 t-1")}, {"B", ps("")}},
				OwnedPartitions: ps("t-0 t-1"), AssignedPartitions: ps("t-0 t-1"),
				MaybeRevoking: ps("t-0 t-1"), Withheld: ps("t-1"),
				Final: want(asErr("A", "t-0", rejoin), asErr("B", "", rejoin)), Error: rejoin}},
		// Reference: KIP-429 §2.3.3, §2.5 — deleted topic: unknown-but-owned given back.
		{"deleted topic: unknown-but-owned given back",
			ms(coop("A", "t", "t-0 gone-0", 1), coop("B", "t", "t-1", 1)),
			want(as("A", "t-0"), as("B", "t-1")),
			PlanResult{
				Owned:           []MemberPartitions{{"A", ps("t-0 gone-0")}, {"B", ps("t-1")}},
				OwnedPartitions: ps("gone-0 t-0 t-1"), AssignedPartitions: ps("t-0 t-1"),
				MaybeRevoking: ps("t-0 t-1"), UnknownButOwned: ps("gone-0"),
				Final: want(as("A", "gone-0 t-0"), as("B", "t-1")), Error: none}},
		// Reference: KIP-429 §2.3.2, §2.4 — new partitions are ready to migrate.
		{"new partitions: ready to migrate",
			ms(coop("A", "t", "t-0", 1), coop("B", "t", "t-1", 1)),
			want(as("A", "t-0 t-2"), as("B", "t-1 t-3")),
			PlanResult{
				Owned:           []MemberPartitions{{"A", ps("t-0")}, {"B", ps("t-1")}},
				OwnedPartitions: ps("t-0 t-1"), AssignedPartitions: ps("t-0 t-1 t-2 t-3"),
				MaybeRevoking: ps("t-0 t-1"), ReadyToMigrate: ps("t-2 t-3"),
				Final: want(as("A", "t-0 t-2"), as("B", "t-1 t-3")), Error: none}},
		// Reference: KIP-429 §2.3.2 — an old-version member revoked everything before joining.
		{"old-version member revoked all: ready to migrate",
			ms(plain("A", "t"), coop("B", "t", "", 1)),
			want(as("A", "t-1"), as("B", "t-0")),
			PlanResult{
				Owned:              []MemberPartitions{{"A", ps("")}, {"B", ps("")}},
				AssignedPartitions: ps("t-0 t-1"), ReadyToMigrate: ps("t-0 t-1"),
				Final: want(as("A", "t-1"), as("B", "t-0")), Error: none}},
		// KIP-429 is silent (assumes one owner): a partition claimed by two members goes to nobody.
		{"contested maybe-revoking withheld even from a claimant",
			ms(coop("A", "t", "t-0", 2), coop("B", "t", "t-0", 2)),
			want(as("A", "t-0"), as("B", "t-1")),
			PlanResult{
				Owned:           []MemberPartitions{{"A", ps("t-0")}, {"B", ps("t-0")}},
				OwnedPartitions: ps("t-0"), AssignedPartitions: ps("t-0 t-1"),
				MaybeRevoking: ps("t-0"), ReadyToMigrate: ps("t-1"), Contested: ps("t-0"), Withheld: ps("t-0"),
				Final: want(asErr("A", "", rejoin), asErr("B", "t-1", rejoin)), Error: rejoin}},
		{"contested unknown-but-owned given back to nobody",
			ms(coop("A", "t", "gone-0", 2), coop("B", "t", "gone-0 t-0", 2)),
			want(as("B", "t-0")),
			PlanResult{
				Owned:           []MemberPartitions{{"A", ps("gone-0")}, {"B", ps("gone-0 t-0")}},
				OwnedPartitions: ps("gone-0 t-0"), AssignedPartitions: ps("t-0"),
				MaybeRevoking: ps("t-0"), UnknownButOwned: ps("gone-0"), Contested: ps("gone-0"),
				Final: want(as("A", ""), as("B", "t-0")), Error: none}},
		// Reference: KIP-429 §2.6 — "check if the owner has changed": unchanged owners keep theirs.
		{"owner unchanged keeps it", ms(coop("A", "t", "t-0", 1)), want(as("A", "t-0")),
			PlanResult{
				Owned:           []MemberPartitions{{"A", ps("t-0")}},
				OwnedPartitions: ps("t-0"), AssignedPartitions: ps("t-0"), MaybeRevoking: ps("t-0"),
				Final: want(as("A", "t-0")), Error: none}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Plan(PlanInput{Cluster: cluster("t:4"), Members: tc.members, Assigned: tc.assigned})
			if d := cmp.Diff(tc.want, got, cmpOpts); d != "" {
				t.Errorf("Plan (-want +got):\n%s", d)
			}
		})
	}
}

func TestPlanPanicsOnUnknownMember(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic on an assignment for an unknown member")
		}
	}()
	Plan(PlanInput{Members: ms(coop("A", "t", "", 1)), Assigned: want(as("Z", "t-0"))})
}

// TestPlanFaults: each KIP-429 hazard fault leaves out one half of §2.6 on the first case of
// TestPlan (t-1 moves A→B).
func TestPlanFaults(t *testing.T) {
	in := PlanInput{Members: ms(coop("A", "t", "t-0 t-1", 1), coop("B", "t", "", -1)),
		Assigned: want(as("A", "t-0"), as("B", "t-1"))}
	for _, tc := range []struct {
		name  string
		fault impl.Fault
		final []impl.MemberAssignment
		held  impl.PartitionSet
		err   impl.ErrorCode
	}{
		// Reference: docs/protocol.md §7.2.6 "exclude them from the assigned-partitions list to the new
		// owner", omitted: B gets t-1 while A still owns it.
		{"skips withhold", impl.FaultPlanSkipsWithhold, want(as("A", "t-0"), as("B", "t-1")), ps(""), impl.None},
		// Reference: docs/protocol.md §7.2.6 "set the error-code to NEED_REJOIN for all the members",
		// omitted: t-1 is withheld and nobody is told to rejoin for it.
		{"skips needs-rejoin", impl.FaultPlanSkipsNeedsRejoin, want(as("A", "t-0"), as("B", "")), ps("t-1"), impl.None},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := in
			in.Faults = in.Faults.With(tc.fault)
			got := Plan(in)
			if d := cmp.Diff(tc.final, got.Final, cmp.Comparer(func(x, y impl.PartitionSet) bool { return x.Equal(y) })); d != "" {
				t.Errorf("final (-want +got):\n%s", d)
			}
			if !got.Withheld.Equal(tc.held) || got.Error != tc.err {
				t.Errorf("withheld %s error %s, want %s and %s", got.Withheld, got.Error, tc.held, tc.err)
			}
		})
	}
}
