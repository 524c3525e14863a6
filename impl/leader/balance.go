package leader

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// balancer is the sticky assignors' working state: which member holds which partition. It is
// local to one Assign call; partitions and members are addressed by index (parts sorted, ms
// sorted by member id).
type balancer struct {
	parts    []impl.TopicPartition
	eligible [][]bool // [member][partition]: the member subscribes to the partition's topic
	held     [][]bool // [member][partition]
	kept     [][]bool // [member][partition]: held because the member owned it before
	count    []int
	// balanceFirst: unheld partitions go to the first eligible member and moveOne takes a
	// member's partitions in partition order, owned before or not (FaultBalanceMovesOwned,
	// docs/bugs.md B27).
	balanceFirst bool
}

// stickyBalance is the balancing shared by sticky and cooperative-sticky. Each member first
// keeps the partitions it previously owned (prev, already arbitrated) on topics it subscribes
// to; unowned partitions then go one by one, those with the fewest eligible members first, to
// the least loaded eligible member (ties: lowest member id); finally, while some member A holds a
// partition that an eligible member B with count(B)+1 < count(A) could take, the partition moves
// to B (A = most loaded, preferring partitions A did not own, highest first; B = least loaded).
// The result keeps owned partitions up to the min/max quota, takes away the extras and is
// balanced: no single move reduces the spread. Each move lowers Σ count², so it terminates.
//
// With FaultBalanceMovesOwned balance comes before stickiness, as in the sticky algorithm
// before KAFKA-8767's mitigation (apache/kafka#7130: "first try to balance by only moving newly
// added partitions"): unheld partitions are heaped on the first eligible member, then each
// move takes the most loaded member's lowest partition whether it owned it or not. The result
// is as balanced, but an owned partition may move where a newly placed one would have done;
// under cooperative that is one more revocation, hence a third round (docs/bugs.md B27).
// Reference: docs/protocol.md §2.5 (sticky balancing); KIP-54.
func stickyBalance(cluster impl.Cluster, ms []impl.JoinGroupMember, prev []impl.PartitionSet, faults impl.Faults) [][]impl.TopicPartition {
	b := newBalancer(cluster, ms)
	b.balanceFirst = faults.Has(impl.FaultBalanceMovesOwned)
	for i := range ms {
		for _, tp := range prev[i].Slice() {
			if p, ok := slices.BinarySearchFunc(b.parts, tp, impl.TopicPartition.Compare); ok && b.eligible[i][p] {
				b.kept[i][p] = true
				b.give(i, p)
			}
		}
	}
	b.distributeUnheld()
	for b.moveOne() {
	}
	out := make([][]impl.TopicPartition, len(ms))
	for i := range ms {
		for p, h := range b.held[i] {
			if h {
				out[i] = append(out[i], b.parts[p])
			}
		}
	}
	return out
}

func newBalancer(cluster impl.Cluster, ms []impl.JoinGroupMember) *balancer {
	b := &balancer{parts: cluster.PartitionsOf(subscribedTopics(ms)).Slice(), count: make([]int, len(ms))}
	for _, m := range ms {
		e := make([]bool, len(b.parts))
		for p, tp := range b.parts {
			e[p] = m.Metadata.Subscribes(tp.Topic)
		}
		b.eligible = append(b.eligible, e)
		b.held = append(b.held, make([]bool, len(b.parts)))
		b.kept = append(b.kept, make([]bool, len(b.parts)))
	}
	return b
}

func (b *balancer) give(i, p int) {
	if !b.held[i][p] {
		b.held[i][p] = true
		b.count[i]++
	}
}

func (b *balancer) take(i, p int) {
	if b.held[i][p] {
		b.held[i][p] = false
		b.count[i]--
	}
}

// eligibleCount is how many members may hold partition p.
func (b *balancer) eligibleCount(p int) int {
	n := 0
	for i := range b.eligible {
		if b.eligible[i][p] {
			n++
		}
	}
	return n
}

// distributeUnheld gives every partition nobody holds to the least loaded eligible member,
// most constrained partitions first.
func (b *balancer) distributeUnheld() {
	var unheld []int
	for p := range b.parts {
		if !slices.ContainsFunc(b.held, func(h []bool) bool { return h[p] }) {
			unheld = append(unheld, p)
		}
	}
	slices.SortStableFunc(unheld, func(x, y int) int { return b.eligibleCount(x) - b.eligibleCount(y) })
	for _, p := range unheld {
		if i, ok := b.leastLoaded(p, -1, len(b.parts)+1); ok {
			if b.balanceFirst {
				i = slices.IndexFunc(b.eligible, func(e []bool) bool { return e[p] })
			}
			b.give(i, p)
		}
	}
}

// leastLoaded is the eligible member not holding p with the smallest count below limit (ties:
// lowest index), other than skip.
func (b *balancer) leastLoaded(p, skip, limit int) (int, bool) {
	best := -1
	for i := range b.eligible {
		if i != skip && b.eligible[i][p] && !b.held[i][p] && b.count[i] < limit && (best < 0 || b.count[i] < b.count[best]) {
			best = i
		}
	}
	return best, best >= 0
}

// moveOne performs the first improving move, if any, and reports whether it did.
func (b *balancer) moveOne() bool {
	order := make([]int, len(b.count))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return b.count[y] - b.count[x] })
	for _, a := range order {
		if b.balanceFirst {
			if b.moveFirstOf(a) {
				return true
			}
			continue
		}
		for _, keptPass := range []bool{false, true} {
			for p := len(b.parts) - 1; p >= 0; p-- {
				if !b.held[a][p] || b.kept[a][p] != keptPass {
					continue
				}
				if to, ok := b.leastLoaded(p, a, b.count[a]-1); ok {
					b.take(a, p)
					b.give(to, p)
					return true
				}
			}
		}
	}
	return false
}

// moveFirstOf moves member a's lowest partition that a less loaded member can take, owned or
// not (FaultBalanceMovesOwned).
func (b *balancer) moveFirstOf(a int) bool {
	for p := range b.parts {
		if !b.held[a][p] {
			continue
		}
		if to, ok := b.leastLoaded(p, a, b.count[a]-1); ok {
			b.take(a, p)
			b.give(to, p)
			return true
		}
	}
	return false
}
