package differential_test

import (
	"fmt"

	"github.com/groupcheck/groupcheck/oracle/differential"
)

// A client author's differential test of a cooperative-sticky implementation: the members of
// a JoinGroup response go to both the client's assignor and the reference leader, and the
// two assignments are diffed. Here the "client" forgot KIP-429's rule that a partition moving
// between members is withheld for one round (docs/protocol.md §2.5) and hands t-1 straight to c.
func Example_cooperativeSticky() {
	members := []differential.Member{
		{ID: "a", Version: 2, Topics: []string{"t"}, Owned: map[string][]int32{"t": {0, 1}}, Generation: 1},
		{ID: "b", Version: 2, Topics: []string{"t"}, Owned: map[string][]int32{"t": {2}}, Generation: 1},
		{ID: "c", Version: 2, Topics: []string{"t"}, Generation: -1},
	}
	mine := map[string]map[string][]int32{"a": {"t": {0}}, "b": {"t": {2}}, "c": {"t": {1}}}

	ref, err := differential.Lead(differential.Round{Assignor: "cooperative-sticky", Cluster: map[string]int32{"t": 3}, Members: members})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("reference a:", ref.Assignments["a"], "c:", ref.Assignments["c"], "a revokes:", ref.Revoke["a"])
	fmt.Println("KIP-429 plan withholds:", ref.Plan.Withheld, "needs rejoin:", ref.Plan.NeedsRejoin)
	if d := differential.DiffAssignments(ref.Assignments, mine); d != "" {
		fmt.Println("differs from the reference")
	}
	// Output:
	// reference a: map[t:[0]] c: map[] a revokes: map[t:[1]]
	// KIP-429 plan withholds: map[t:[1]] needs rejoin: true
	// differs from the reference
}

// A KIP-848 client's reconciliation checked against the coordinator's: a member at epoch 3
// owning t-0 and t-1 whose target at epoch 4 is t-0 only must first revoke t-1 at epoch 3
// (docs/protocol.md §3.4).
func ExampleReconcile() {
	got, err := differential.Reconcile(differential.ReconcileInput{
		MemberEpoch: 3, Assigned: map[string][]int32{"t": {0, 1}}, SubscribedTopics: []string{"t"},
		TargetEpoch: 4, Target: map[string][]int32{"t": {0}}, Owned: map[string][]int32{"t": {0, 1}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(got.State, got.MemberEpoch, got.Assigned, got.PendingRevocation)
	mine := differential.ReconcileResult{State: "STABLE", MemberEpoch: 4, Assigned: map[string][]int32{"t": {0}}}
	fmt.Println("same as mine:", differential.DiffReconcile(got, mine) == "")
	// Output:
	// UNREVOKED_PARTITIONS 3 map[t:[0]] map[t:[1]]
	// same as mine: false
}
