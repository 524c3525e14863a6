package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl/leader"
	"github.com/groupcheck/groupcheck/spec"
)

// convergedBalanced is the balance each built-in assignor promises, judged where a classic
// group has settled (Converged), so that the rounds in between — cooperative's withheld
// partitions, a member still rejoining — are not judged. Every valid assignment passes the
// safety properties, so an assignor that deals every partition to one member, or a leader
// that never moves an owned partition to a newcomer, went unseen: the slower measures even
// reward it (an idle member has nothing to revoke). Which balance depends on the selected
// assignor:
//   - sticky and cooperative-sticky: no partition could move to a live member subscribed to
//     its topic that owns two fewer (the balancer stops exactly there, KIP-54: "balanced");
//   - range: per topic, the live subscribers' counts differ by at most one (n/m, the first n
//     mod m one more);
//   - roundrobin: when every live member has the same subscription, the counts differ by at
//     most one (with different subscriptions it promises nothing: its javadoc's own example is
//     4 against 1).
//
// Not under `assignor any`, whose point is every valid assignment.
// Reference: docs/protocol.md §2.4, §2.5; KIP-54; RangeAssignor and RoundRobinAssignor javadoc.
var convergedBalanced = Property{
	Name:      "converged-balanced",
	Kind:      explorer.Always,
	Statement: "in a converged classic group the built-in assignor's balance holds (sticky: no partition movable to a subscriber with two fewer; range: per topic; roundrobin: among identical subscriptions, counts within one)",
	Source:    "docs/protocol.md §2.4, §2.5; KIP-54; RangeAssignor and RoundRobinAssignor javadoc",
	Applies:   func(c spec.Config) bool { return classic(c) && c.Assignor != leader.AnyName },
	State: func(w *spec.World) string {
		if !Converged(w) {
			return ""
		}
		var live []int
		for i := range w.Slots {
			if w.Live(i) {
				live = append(live, i)
			}
		}
		switch w.Coord.ProtocolName() {
		case leader.StickyName, leader.CooperativeStickyName:
			return movable(w, live)
		case leader.RangeName:
			for _, topic := range w.Cluster.Topics {
				var subs []int
				for _, i := range live {
					if slices.Contains(w.Slots[i].Client.Topics, topic.Name) {
						subs = append(subs, i)
					}
				}
				if why := spread(w, subs, func(i int) int { return w.Slots[i].Client.Owned().OfTopics([]string{topic.Name}).Len() }); why != "" {
					return "topic " + topic.Name + ": " + why
				}
			}
		case leader.RoundRobinName:
			for _, i := range live {
				if !slices.Equal(w.Slots[i].Client.Topics, w.Slots[live[0]].Client.Topics) {
					return ""
				}
			}
			return spread(w, live, func(i int) int { return w.Slots[i].Client.Owned().Len() })
		}
		return ""
	},
}

// movable names a partition some live member could hand to a live subscriber of its topic
// that owns two fewer partitions, or "".
func movable(w *spec.World, live []int) string {
	for _, a := range live {
		owned := w.Slots[a].Client.Owned()
		for _, b := range live {
			nb := w.Slots[b].Client.Owned().Len()
			if b == a || nb+1 >= owned.Len() {
				continue
			}
			for _, tp := range owned.Slice() {
				if slices.Contains(w.Slots[b].Client.Topics, tp.Topic) {
					return fmt.Sprintf("%s owns %d partitions and %s, subscribed to %s, owns %d: %s could move",
						name(w, a), owned.Len(), name(w, b), tp.Topic, nb, tp)
				}
			}
		}
	}
	return ""
}

// spread says which two of the slots have counts more than one apart, or "".
func spread(w *spec.World, slots []int, count func(int) int) string {
	for _, a := range slots {
		for _, b := range slots {
			if count(a) > count(b)+1 {
				return fmt.Sprintf("%s owns %d and %s %d", name(w, a), count(a), name(w, b), count(b))
			}
		}
	}
	return ""
}
