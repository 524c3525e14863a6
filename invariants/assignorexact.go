package invariants

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/leader"
	"github.com/groupcheck/groupcheck/spec"
)

// assignorExact is a refinement check of the two deterministic eager assignors: every
// assignment a range or roundrobin leader sends is exactly what Kafka's assignor computes from
// the round's members and metadata, restated here from the documented algorithm rather than
// taken from impl/leader. Every valid assignment passes the safety properties and most pass
// converged-balanced, so a leader that deals in another member order — member id instead of
// KIP-345's static-first order, which makes a restarted static member change place — or that
// misplaces the extra partitions went unseen: such output is valid, balanced and wrong. The
// statement:
//   - members in MemberInfo order: static members first, by group.instance.id, then dynamic
//     members by member id (AbstractPartitionAssignor.MemberInfo.compareTo; its test
//     testMemberInfoSortingSomeGroupInstanceId: (a, -), (b, y), (c, x) sort as c, b, a);
//   - range: per topic (sorted), its subscribers in that order; with n partitions and m
//     subscribers the k-th takes n/m contiguous partitions, one more when k < n mod m
//     (RangeAssignor.assignPartitions);
//   - roundrobin: the partitions of all subscribed topics in (topic, partition) order, dealt
//     around the circle of all members in that order, skipping a member not subscribed to the
//     partition's topic (RoundRobinAssignor.assign's CircularIterator).
//
// Judged only where the leader sends the assignor's output as is (no KIP-429 plan rewrote it,
// the round did not fail).
// Reference: docs/protocol.md §2.4; KIP-345; RangeAssignor and RoundRobinAssignor (javadoc and assign).
var assignorExact = Property{
	Name:      "assignor-exact",
	Kind:      explorer.Always,
	Statement: "a range or roundrobin leader sends exactly Kafka's assignment: members static-first by instance id, then by member id; range per topic n/m with the first n mod m one more; roundrobin dealt round the circle skipping non-subscribers",
	Source:    "docs/protocol.md §2.4; KIP-345; RangeAssignor.assignPartitions, RoundRobinAssignor.assign, AbstractPartitionAssignor.MemberInfo.compareTo",
	Applies:   func(c spec.Config) bool { return classic(c) && c.Assignor != leader.AnyName },
	Step: func(pre *spec.World, ev []spec.Event, _ *spec.World) string {
		for _, a := range assignments(ev) {
			ra := pre.Slots[a.Slot].Assigning
			if a.Plan != nil || ra == nil {
				continue
			}
			var want map[impl.MemberID][]impl.TopicPartition
			switch ra.ProtocolName {
			case leader.RangeName:
				want = kafkaRange(ra.Cluster, ra.Members)
			case leader.RoundRobinName:
				want = kafkaRoundRobin(ra.Cluster, ra.Members)
			default:
				continue
			}
			if why := sameAsWanted(a, want); why != "" {
				return fmt.Sprintf("%s's gen %d %s assignment %s", a.Name, a.Generation, ra.ProtocolName, why)
			}
		}
		return ""
	},
}

// memberInfoOrdered is the members in Kafka's MemberInfo order: static ones (an instance id)
// first by instance id, then dynamic ones by member id.
func memberInfoOrdered(ms []impl.JoinGroupMember) []impl.JoinGroupMember {
	key := func(m impl.JoinGroupMember) (int, string) {
		if m.InstanceID != "" {
			return 0, string(m.InstanceID)
		}
		return 1, string(m.MemberID)
	}
	out := slices.Clone(ms)
	slices.SortFunc(out, func(x, y impl.JoinGroupMember) int {
		kx, sx := key(x)
		ky, sy := key(y)
		return cmp.Or(cmp.Compare(kx, ky), strings.Compare(sx, sy))
	})
	return out
}

// topicsOf is the sorted set of topics some member subscribes to.
func topicsOf(ms []impl.JoinGroupMember) []string {
	var ts []string
	for _, m := range ms {
		for _, t := range m.Metadata.Topics {
			if !slices.Contains(ts, t) {
				ts = append(ts, t)
			}
		}
	}
	slices.Sort(ts)
	return ts
}

// kafkaRange is RangeAssignor's output, per member id.
func kafkaRange(cluster impl.Cluster, ms []impl.JoinGroupMember) map[impl.MemberID][]impl.TopicPartition {
	out := map[impl.MemberID][]impl.TopicPartition{}
	for _, topic := range topicsOf(ms) {
		var subs []impl.JoinGroupMember
		for _, m := range memberInfoOrdered(ms) {
			if slices.Contains(m.Metadata.Topics, topic) {
				subs = append(subs, m)
			}
		}
		n, m := int(cluster.PartitionCount(topic)), len(subs)
		for k, s := range subs {
			first := k*(n/m) + min(k, n%m)
			size := n / m
			if k < n%m {
				size++
			}
			for p := first; p < first+size; p++ {
				out[s.MemberID] = append(out[s.MemberID], impl.TP(topic, int32(p)))
			}
		}
	}
	return out
}

// kafkaRoundRobin is RoundRobinAssignor's output, per member id.
func kafkaRoundRobin(cluster impl.Cluster, ms []impl.JoinGroupMember) map[impl.MemberID][]impl.TopicPartition {
	out := map[impl.MemberID][]impl.TopicPartition{}
	circle := memberInfoOrdered(ms)
	at := 0
	for _, topic := range topicsOf(ms) {
		for p := range cluster.PartitionCount(topic) {
			for !slices.Contains(circle[at%len(circle)].Metadata.Topics, topic) {
				at++
			}
			id := circle[at%len(circle)].MemberID
			out[id] = append(out[id], impl.TP(topic, p))
			at++
		}
	}
	return out
}

// sameAsWanted says where the event's assignment differs from want (per member id), or "".
func sameAsWanted(a spec.AssignEvent, want map[impl.MemberID][]impl.TopicPartition) string {
	seen := 0
	for _, m := range a.Assignments {
		w := impl.NewPartitionSet(want[m.MemberID]...)
		if len(want[m.MemberID]) > 0 {
			seen++
		}
		if !m.Assignment.Partitions.Equal(w) {
			return fmt.Sprintf("gives %s %s where Kafka's assignor gives it %s", m.MemberID, m.Assignment.Partitions, w)
		}
	}
	if seen != len(want) {
		return fmt.Sprintf("leaves out a member Kafka's assignor gives partitions to (%d of %d)", seen, len(want))
	}
	return ""
}
