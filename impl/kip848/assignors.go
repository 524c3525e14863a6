package kip848

import (
	"math"
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// Uniform is the server's uniform assignor, as a deterministic sticky balancer: every member
// keeps what the previous target gave it and it may still have; unassigned partitions go to
// the least-loaded eligible member; then partitions move from a member to an eligible one
// with at least two fewer until no such move exists. Ties go to the smallest member id.
// Reference: docs/protocol.md §3.3 step 5 (group.consumer.assignors, "uniform").
func Uniform(s AssignmentSpec) Target {
	owner := map[impl.TopicPartition]int{}
	count := make([]int, len(s.Members))
	var all impl.PartitionSet
	for i, m := range s.Members {
		el := s.eligible(i)
		all = all.Union(el)
		for _, tp := range s.Previous.Of(m.ID).Intersect(el).Slice() {
			owner[tp] = i
			count[i]++
		}
	}
	for _, tp := range all.Slice() {
		if _, ok := owner[tp]; !ok {
			j := s.leastLoaded(tp, count, math.MaxInt)
			owner[tp] = j
			count[j]++
		}
	}
	for moved := true; moved; {
		moved = false
		for _, tp := range all.Slice() {
			h := owner[tp]
			if j := s.leastLoaded(tp, count, count[h]-1); j >= 0 {
				owner[tp] = j
				count[h]--
				count[j]++
				moved = true
			}
		}
	}
	return s.build(func(i int, tp impl.TopicPartition) bool { return owner[tp] == i })
}

// leastLoaded is the eligible member for tp with the fewest partitions, provided that count
// is below limit; -1 if none.
func (s AssignmentSpec) leastLoaded(tp impl.TopicPartition, count []int, limit int) int {
	best := -1
	for i, m := range s.Members {
		if !slices.Contains(m.SubscribedTopics, tp.Topic) || count[i] >= limit {
			continue
		}
		if best < 0 || count[i] < count[best] {
			best = i
		}
	}
	return best
}

// Range is the server's range assignor: for each topic, its subscribers in id order get
// contiguous ranges, the first (partitions mod subscribers) one partition more.
// Reference: docs/protocol.md §3.3 step 5 ("range").
func Range(s AssignmentSpec) Target {
	owner := map[impl.TopicPartition]int{}
	for _, topic := range s.topics() {
		var subs []int
		for i, m := range s.Members {
			if slices.Contains(m.SubscribedTopics, topic) {
				subs = append(subs, i)
			}
		}
		n := int(s.Cluster.PartitionCount(topic))
		p := 0
		for k, i := range subs {
			size := n / len(subs)
			if k < n%len(subs) {
				size++
			}
			for end := p + size; p < end; p++ {
				owner[impl.TP(topic, int32(p))] = i
			}
		}
	}
	return s.build(func(i int, tp impl.TopicPartition) bool {
		j, ok := owner[tp]
		return ok && j == i
	})
}

// AllTargets enumerates every complete valid target for s, deterministically: each
// partition subscribed by some member goes to exactly one of its subscribers. It is the
// `any` assignor for small configurations (the count is the product of subscriber counts).
func AllTargets(s AssignmentSpec) []Target {
	var parts []impl.TopicPartition
	var choices [][]int
	for _, topic := range s.topics() {
		var subs []int
		for i, m := range s.Members {
			if slices.Contains(m.SubscribedTopics, topic) {
				subs = append(subs, i)
			}
		}
		for p := int32(0); p < s.Cluster.PartitionCount(topic); p++ {
			parts = append(parts, impl.TP(topic, p))
			choices = append(choices, subs)
		}
	}
	pick := make([]int, len(parts))
	var out []Target
	for {
		out = append(out, s.build(func(i int, tp impl.TopicPartition) bool {
			k, _ := slices.BinarySearchFunc(parts, tp, impl.TopicPartition.Compare)
			return choices[k][pick[k]] == i
		}))
		k := len(pick) - 1
		for ; k >= 0; k-- {
			if pick[k]++; pick[k] < len(choices[k]) {
				break
			}
			pick[k] = 0
		}
		if k < 0 {
			return out
		}
	}
}

// topics is the sorted union of subscribed topics.
func (s AssignmentSpec) topics() []string {
	var ts []string
	for _, m := range s.Members {
		ts = append(ts, m.SubscribedTopics...)
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}

// build makes a target with one entry per member holding the eligible partitions for which
// has(i, tp) is true.
func (s AssignmentSpec) build(has func(int, impl.TopicPartition) bool) Target {
	t := make(Target, len(s.Members))
	for i, m := range s.Members {
		t[i] = MemberTarget{ID: m.ID, Partitions: s.eligible(i).Filter(func(tp impl.TopicPartition) bool {
			return has(i, tp)
		})}
	}
	return t
}
