package coordinator_test

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
)

// A v9 dynamic member joins in two steps (KIP-394), the initial delay elapses, and the
// leader's SyncGroup makes the group Stable.
func Example() {
	ps := []impl.GroupProtocol{{Name: "range", Metadata: impl.NewSubscription(1, []string{"t"}, impl.PartitionSet{}, impl.NoGeneration)}}
	g := coordinator.New(coordinator.Config{Variant: impl.Kafka})

	g, out := g.JoinGroup(impl.JoinGroupRequest{Conn: 1, Version: 9, Protocols: ps}, "m1")
	fmt.Println(out[0].Response.Code(), out[0].Response.(impl.JoinGroupResponse).MemberID, "|", g)

	g, _ = g.JoinGroup(impl.JoinGroupRequest{Conn: 1, Version: 9, MemberID: "m1", Protocols: ps}, "")
	fmt.Println(g, "| join timer enabled:", g.EnabledJoinPhaseTimeout())

	g, out = g.JoinPhaseTimeout()
	r := out[0].Response.(impl.JoinGroupResponse)
	fmt.Println(g, "| leader", r.Leader, "generation", r.Generation)

	g, out = g.SyncGroup(impl.SyncGroupRequest{Conn: 1, MemberID: "m1", Generation: 1,
		Assignments: []impl.MemberAssignment{{MemberID: "m1", Assignment: impl.Assignment{Partitions: impl.NewPartitionSet(impl.TP("t", 0))}}}})
	fmt.Println(g, "|", out[0].Response.(impl.SyncGroupResponse).Assignment.Partitions)
	// Output:
	// MEMBER_ID_REQUIRED m1 | Empty gen=0 leader=- members=() pending=(m1)
	// PreparingRebalance gen=0 initial leader=m1 members=(m1{join@1 new}) | join timer enabled: true
	// CompletingRebalance gen=1 proto=range leader=m1 members=(m1{psync}) | leader m1 generation 1
	// Stable gen=1 proto=range leader=m1 members=(m1{asg=(t-0)}) | (t-0)
}
