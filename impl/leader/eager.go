package leader

import (
	"github.com/groupcheck/groupcheck/impl"
)

// Range is Kafka's RangeAssignor: per topic, the topic's subscribers in MemberInfo order (member
// id, static members first by instance id) get contiguous ranges of partitions; with n
// partitions and m subscribers each gets n/m and the first n mod m get one more. Eager only.
// Reference: docs/protocol.md §2.4; RangeAssignor javadoc (C0, C1 on t0, t1 with 3 partitions each →
// C0: t0-0 t0-1 t1-0 t1-1, C1: t0-2 t1-2).
type Range struct{}

// Name is "range".
func (Range) Name() string { return RangeName }

// SupportedProtocols is eager only.
func (Range) SupportedProtocols() []impl.RebalanceProtocol {
	return []impl.RebalanceProtocol{impl.Eager}
}

// Assign implements Assignor.
func (Range) Assign(cluster impl.Cluster, members []impl.JoinGroupMember) []impl.MemberAssignment {
	ms := sortedMembers("range.Assign", members)
	parts := make([][]impl.TopicPartition, len(ms))
	for _, topic := range subscribedTopics(ms) {
		var subs []impl.JoinGroupMember
		for _, m := range ms {
			if m.Metadata.Subscribes(topic) {
				subs = append(subs, m)
			}
		}
		subs = memberInfoOrder(subs)
		n, m := int(cluster.PartitionCount(topic)), len(subs)
		next := 0
		for i, s := range subs {
			count := n / m
			if i < n%m {
				count++
			}
			j, _ := indexOf(ms, s.MemberID)
			for p := next; p < next+count; p++ {
				parts[j] = append(parts[j], impl.TP(topic, int32(p)))
			}
			next += count
		}
	}
	return assignmentsOf(ms, parts)
}

// RoundRobin is Kafka's RoundRobinAssignor: all partitions of all subscribed topics in order
// (topic, partition) are dealt to the members in MemberInfo order in a circle, skipping members
// not subscribed to the partition's topic. Eager only.
// Reference: docs/protocol.md §2.4; RoundRobinAssignor javadoc (C0 on t0; C1 on t0, t1; C2 on t0, t1, t2
// with 1, 2, 3 partitions → C0: t0-0, C1: t1-0, C2: t1-1 t2-0 t2-1 t2-2).
type RoundRobin struct{}

// Name is "roundrobin".
func (RoundRobin) Name() string { return RoundRobinName }

// SupportedProtocols is eager only.
func (RoundRobin) SupportedProtocols() []impl.RebalanceProtocol {
	return []impl.RebalanceProtocol{impl.Eager}
}

// Assign implements Assignor.
func (RoundRobin) Assign(cluster impl.Cluster, members []impl.JoinGroupMember) []impl.MemberAssignment {
	ms := sortedMembers("roundrobin.Assign", members)
	parts := make([][]impl.TopicPartition, len(ms))
	circle := memberInfoOrder(ms)
	next := 0
	for _, tp := range cluster.PartitionsOf(subscribedTopics(ms)).Slice() {
		for !circle[next].Metadata.Subscribes(tp.Topic) {
			next = (next + 1) % len(circle)
		}
		j, _ := indexOf(ms, circle[next].MemberID)
		parts[j] = append(parts[j], tp)
		next = (next + 1) % len(circle)
	}
	return assignmentsOf(ms, parts)
}
