package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/spec"
)

// kip848TargetBalanced is converged-balanced for the KIP-848 server assignors, judged on the
// target itself once it is computed for the group's epoch (assignment epoch = group epoch:
// every membership, subscription and metadata change is in it). The uniform assignor promises
// that no partition could move to another member subscribed to its topic that has two fewer
// partitions (docs/protocol.md §3.3 step 5: UniformAssignor balances, then stops exactly there); the
// range assignor, per topic, gives each subscriber ⌊n/k⌋ or ⌈n/k⌉ of its n partitions
// (RangeAssignor's contiguous ranges, the first n mod k one more). Any valid target passes
// every safety property, and members reconcile to whatever the target says, so an assignor
// that stops balancing early or deals one topic unevenly went unseen.
var kip848TargetBalanced = Property{
	Name:      "kip848-target-balanced",
	Kind:      explorer.Always,
	Statement: "a KIP-848 target computed for the group epoch is balanced as its assignor promises (uniform: no partition movable to a subscriber with two fewer; range: per topic, each subscriber ⌊n/k⌋ or ⌈n/k⌉)",
	Source:    "docs/protocol.md §3.3 step 5 (group.consumer.assignors: UniformAssignor, RangeAssignor)",
	Applies:   func(c spec.Config) bool { return c.ConsumerProtocol && c.Assignor != "any" },
	State: func(w *spec.World) string {
		g := w.Group
		if g.AssignmentEpoch() != g.GroupEpoch() || len(g.Members()) == 0 {
			return ""
		}
		if w.Config().Assignor == kip848.AssignorRange {
			return rangeUneven(g)
		}
		return uniformMovable(g)
	},
}

// uniformMovable finds a partition of group g's target that could move to a member subscribed
// to its topic with two fewer partitions.
func uniformMovable(g kip848.Group) string {
	count := map[impl.MemberID]int{}
	for _, e := range g.Target() {
		count[e.ID] = e.Partitions.Len()
	}
	for _, e := range g.Target() {
		for _, tp := range e.Partitions.Slice() {
			for _, m := range g.Members() {
				if slices.Contains(m.SubscribedTopics, tp.Topic) && count[m.ID] <= count[e.ID]-2 {
					return fmt.Sprintf("the uniform target gives %s %d partitions and %s, subscribed to %s, %d: %s could move", e.ID, count[e.ID], m.ID, tp.Topic, count[m.ID], tp)
				}
			}
		}
	}
	return ""
}

// rangeUneven finds a topic whose partitions group g's target does not spread over its
// subscribers ⌊n/k⌋ or ⌈n/k⌉ each.
func rangeUneven(g kip848.Group) string {
	for _, topic := range g.Cluster().Topics {
		var subs []impl.MemberID
		for _, m := range g.Members() {
			if slices.Contains(m.SubscribedTopics, topic.Name) {
				subs = append(subs, m.ID)
			}
		}
		if len(subs) == 0 {
			continue
		}
		n, k := int(topic.Partitions), len(subs)
		for _, id := range subs {
			if got := g.TargetOf(id).OfTopics([]string{topic.Name}).Len(); got != n/k && got != (n+k-1)/k {
				return fmt.Sprintf("the range target gives %s %d of topic %s's %d partitions, with %d subscribers", id, got, topic.Name, n, k)
			}
		}
	}
	return ""
}
