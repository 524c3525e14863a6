package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestKafkaAssignorsJavadoc: the statement reproduces the assignors' documented examples and
// Kafka's MemberInfo order test (a dynamic; b, c static as y, x: c, b, a).
func TestKafkaAssignorsJavadoc(t *testing.T) {
	m := func(id, inst string, topics ...string) impl.JoinGroupMember {
		return impl.JoinGroupMember{MemberID: impl.MemberID(id), InstanceID: impl.InstanceID(inst), Metadata: impl.NewSubscription(1, topics, impl.PartitionSet{}, impl.NoGeneration)}
	}
	if got := memberInfoOrdered([]impl.JoinGroupMember{m("a", ""), m("b", "y"), m("c", "x")}); got[0].MemberID != "c" || got[1].MemberID != "b" || got[2].MemberID != "a" {
		t.Errorf("MemberInfo order %v, want c, b, a", got)
	}
	cluster := func(ts ...impl.TopicMetadata) impl.Cluster { return impl.Cluster{Topics: ts} }
	check := func(name string, got map[impl.MemberID][]impl.TopicPartition, want map[impl.MemberID]string) {
		t.Helper()
		for id, w := range want {
			if s := impl.NewPartitionSet(got[id]...).String(); s != w {
				t.Errorf("%s: %s gets %s, want %s", name, id, s, w)
			}
		}
	}
	// RangeAssignor's javadoc: C0, C1 on t0, t1 of 3 partitions each.
	check("range", kafkaRange(cluster(impl.TopicMetadata{Name: "t0", Partitions: 3}, impl.TopicMetadata{Name: "t1", Partitions: 3}),
		[]impl.JoinGroupMember{m("C1", "", "t0", "t1"), m("C0", "", "t0", "t1")}),
		map[impl.MemberID]string{"C0": impl.NewPartitionSet(impl.TP("t0", 0), impl.TP("t0", 1), impl.TP("t1", 0), impl.TP("t1", 1)).String(), "C1": impl.NewPartitionSet(impl.TP("t0", 2), impl.TP("t1", 2)).String()})
	// RoundRobinAssignor's javadoc: C0 on t0; C1 on t0, t1; C2 on t0, t1, t2 of 1, 2, 3.
	check("roundrobin", kafkaRoundRobin(cluster(impl.TopicMetadata{Name: "t0", Partitions: 1}, impl.TopicMetadata{Name: "t1", Partitions: 2}, impl.TopicMetadata{Name: "t2", Partitions: 3}),
		[]impl.JoinGroupMember{m("C2", "", "t0", "t1", "t2"), m("C0", "", "t0"), m("C1", "", "t0", "t1")}),
		map[impl.MemberID]string{"C0": impl.NewPartitionSet(impl.TP("t0", 0)).String(), "C1": impl.NewPartitionSet(impl.TP("t1", 0)).String(),
			"C2": impl.NewPartitionSet(impl.TP("t1", 1), impl.TP("t2", 0), impl.TP("t2", 1), impl.TP("t2", 2)).String()})
}

// TestAssignorExact: in a range group of a dynamic member a and a static member b the static
// one comes first (KIP-345) and takes the single partition; the property holds on every step,
// and the same round dealt in member-id order (a first: impl/leader's 791, 900) is named.
func TestAssignorExact(t *testing.T) {
	for _, assignor := range []string{"range", "roundrobin"} {
		c := config(t, "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor "+assignor+"\ntopic t 1\nmember a topics=t\nmember b topics=t static\n")
		pre, ev, post, _ := shortestStep(t, c, assignorExact, func(_ *spec.World, ev []spec.Event, _ *spec.World) bool {
			as := assignments(ev)
			return len(as) > 0 && len(as[0].Assignments) == 2
		})
		var bad []spec.Event
		for _, e := range ev {
			if a, ok := e.(spec.AssignEvent); ok {
				if len(a.Assignments) != 2 || a.Assignments[1].Assignment.Partitions.Len() != 1 {
					t.Fatalf("%s: want b (static) to take t-0: %s", assignor, a)
				}
				a.Assignments = []impl.MemberAssignment{
					{MemberID: a.Assignments[0].MemberID, Assignment: a.Assignments[1].Assignment},
					{MemberID: a.Assignments[1].MemberID, Assignment: a.Assignments[0].Assignment},
				}
				e = a
			}
			bad = append(bad, e)
		}
		if got := assignorExact.Step(&pre, bad, &post); got == "" {
			t.Errorf("%s: the member-id order's assignment is not named", assignor)
		} else {
			t.Log(got)
		}
	}
}
