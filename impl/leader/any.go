package leader

import (
	"iter"
	"math"

	"github.com/groupcheck/groupcheck/impl"
)

// AllAssignments is the "any" assignor: every valid assignment of the members' subscribed
// partitions, so that the model checks safety for all assignors at once (docs/protocol.md §6.4).
// A valid assignment gives each existing partition of a subscribed topic to exactly one member
// subscribed to its topic; with allowUnassigned, also to none (an assignor may leave partitions
// idle, as cooperative-sticky does for partitions transferring ownership). Each element lists
// every member, sorted by member id, like an Assignor's output.
//
// Order: partitions in (topic, partition) order form the digits of an odometer whose first
// partition varies slowest; a partition's choices are its subscribers by member id, then "none".
// There are CountAssignments(…) elements: ∏ over those partitions of (subscribers(p) + u) with u
// = 1 if allowUnassigned else 0. Keep configs small: 3 partitions × 3 members is 27 (64 with u).
func AllAssignments(cluster impl.Cluster, members []impl.JoinGroupMember, allowUnassigned bool) [][]impl.MemberAssignment {
	var out [][]impl.MemberAssignment
	for a := range EachAssignment(cluster, members, allowUnassigned) {
		out = append(out, a)
	}
	return out
}

// EachAssignment yields AllAssignments' elements one at a time, in the same order, without
// holding them all. Each yielded slice is freshly allocated.
func EachAssignment(cluster impl.Cluster, members []impl.JoinGroupMember, allowUnassigned bool) iter.Seq[[]impl.MemberAssignment] {
	ms := sortedMembers("EachAssignment", members)
	parts, choices := anyChoices(cluster, ms, allowUnassigned)
	return func(yield func([]impl.MemberAssignment) bool) {
		digit := make([]int, len(parts))
		for {
			if !yield(anyAssignment(ms, parts, choices, digit)) {
				return
			}
			i := len(digit) - 1
			for ; i >= 0; i-- {
				if digit[i]++; digit[i] < len(choices[i]) {
					break
				}
				digit[i] = 0
			}
			if i < 0 {
				return
			}
		}
	}
}

// CountAssignments is the number of elements of AllAssignments, saturating at math.MaxInt.
func CountAssignments(cluster impl.Cluster, members []impl.JoinGroupMember, allowUnassigned bool) int {
	_, choices := anyChoices(cluster, sortedMembers("CountAssignments", members), allowUnassigned)
	n := 1
	for _, c := range choices {
		if len(c) > 0 && n > math.MaxInt/len(c) {
			return math.MaxInt
		}
		n *= len(c)
	}
	return n
}

// anyChoices lists the subscribed partitions and, for each, the member indexes that may take it
// (-1 = nobody).
func anyChoices(cluster impl.Cluster, ms []impl.JoinGroupMember, allowUnassigned bool) ([]impl.TopicPartition, [][]int) {
	parts := cluster.PartitionsOf(subscribedTopics(ms)).Slice()
	choices := make([][]int, len(parts))
	for p, tp := range parts {
		for i, m := range ms {
			if m.Metadata.Subscribes(tp.Topic) {
				choices[p] = append(choices[p], i)
			}
		}
		if allowUnassigned {
			choices[p] = append(choices[p], -1)
		}
	}
	return parts, choices
}

func anyAssignment(ms []impl.JoinGroupMember, parts []impl.TopicPartition, choices [][]int, digit []int) []impl.MemberAssignment {
	lists := make([][]impl.TopicPartition, len(ms))
	for p, d := range digit {
		if i := choices[p][d]; i >= 0 {
			lists[i] = append(lists[i], parts[p])
		}
	}
	return assignmentsOf(ms, lists)
}
