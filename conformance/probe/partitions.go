package main

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// Partition labels (KIP-848 worlds). Kafka's uniform assignor and the reference's pick
// different partitions when they balance: with t-0 and t-1 on one member and a second
// member joining, Kafka keeps the first partitions of a member's current assignment and
// frees the rest (UniformHomogeneousAssignmentBuilder: it retains min(size, quota)
// partitions in the order it reads them), so the first member keeps t-0; the reference
// moves the first partition it finds on the loaded member (kip848.Uniform), t-0. Partitions
// of one topic are interchangeable to the coordinator, so the probe matches them like member
// ids: by position of first appearance. Until a topic's partitions have been told apart
// (some partition set of it exchanged that is neither empty nor whole), the broker's choice
// relabels them; afterwards a different choice is a difference.

// brokerPartition is the broker's number for the reference's partition p of topic.
func (n *names) brokerPartition(topic string, p int32) int32 {
	if perm := n.perm[topic]; int(p) < len(perm) {
		return perm[p]
	}
	return p
}

// refPartition is the reference's number for the broker's partition b of topic.
func (n *names) refPartition(topic string, b int32) int32 {
	if i := slices.Index(n.perm[topic], b); i >= 0 {
		return int32(i)
	}
	return b
}

// note records a partition set exchanged with the broker: a proper, non-empty subset of a
// topic tells that topic's partitions apart, and fixes their labels for the schedule.
func (n *names) note(s impl.PartitionSet) {
	for _, t := range s.Topics() {
		if c := n.partitions[t]; int32(s.OfTopics([]string{t}).Len()) < c {
			n.told[t] = true
		}
	}
}

// relabel tries to make the broker's set got (read with the current labels) the reference's
// want by relabelling the partitions of topics not yet told apart. It reports whether it did.
func (n *names) relabel(want, got impl.PartitionSet) bool {
	topics := slices.Compact(slices.Sorted(slices.Values(append(want.Topics(), got.Topics()...))))
	next := map[string][]int32{}
	for _, t := range topics {
		w, g := want.OfTopics([]string{t}), got.OfTopics([]string{t})
		if w.Equal(g) {
			continue
		}
		c := n.partitions[t]
		if n.told[t] || w.Len() != g.Len() || c == 0 {
			return false
		}
		// the reference's partitions of want take the broker's of got, in order; the rest
		// the rest, in order.
		var from, to []int32
		for p := range c {
			if w.Contains(impl.TP(t, p)) {
				from = append(from, p)
			}
			if g.Contains(impl.TP(t, p)) {
				to = append(to, p)
			}
		}
		for p := range c {
			if !w.Contains(impl.TP(t, p)) {
				from = append(from, p)
			}
			if !g.Contains(impl.TP(t, p)) {
				to = append(to, p)
			}
		}
		perm := make([]int32, c)
		for i := range from {
			perm[from[i]] = n.brokerPartition(t, to[i])
		}
		next[t] = perm
	}
	for t, perm := range next {
		n.perm[t] = perm
	}
	n.relabels += len(next)
	return len(next) > 0
}
