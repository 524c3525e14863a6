package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// claimsTruthful checks what a JoinGroup tells the leader about ownership, which the leader
// cannot check and decides by: the owned list (v1+) is what the member owns, and
// cooperative-sticky's user-data generation — the label a leader reading v1 subscriptions
// arbitrates claims by — is the generation those partitions were assigned in
// (CooperativeStickyAssignor.onAssignment; KIP-341 for the sticky user data). The v2
// generation field is not checked: KIP-792 defines it as the member's generation, which after
// REBALANCE_IN_PROGRESS on SyncGroup is newer than the content (docs/protocol.md §2.8).
var claimsTruthful = Property{
	Name:      "claims-truthful",
	Kind:      explorer.Always,
	Statement: "a JoinGroup claims what its member owns, labelled in cooperative-sticky's user data with the generation it was assigned in",
	Source:    "KIP-429 §2 (ownedPartitions); docs/protocol.md §2.2, §2.8; KIP-341 (user-data generation)",
	Applies:   classic,
	Step: func(_ *spec.World, ev []spec.Event, post *spec.World) string {
		for _, e := range ev {
			s, ok := e.(spec.SendEvent)
			if !ok {
				continue
			}
			j, ok := s.Request.(impl.JoinGroupRequest)
			if !ok {
				continue
			}
			c := post.Slots[s.Slot].Client
			for _, p := range j.Protocols {
				if why := untruthful(c, p); why != "" {
					return fmt.Sprintf("%s's JoinGroup (%s) %s", s.Name, p.Name, why)
				}
			}
		}
		return ""
	},
}

// untruthful says how one protocol's subscription misstates c's ownership, or "".
func untruthful(c *consumer.Consumer, p impl.GroupProtocol) string {
	m, owned := p.Metadata, c.Owned()
	if m.Version >= 1 && !m.OwnedPartitions.Equal(owned) {
		return fmt.Sprintf("claims %s but the member owns %s", m.OwnedPartitions, owned)
	}
	if p.Name == consumer.CooperativeSticky && !owned.IsEmpty() && m.UserData.Generation != c.OwnedGeneration {
		return fmt.Sprintf("labels %s with generation %d in its user data, but they were assigned in generation %d",
			owned, m.UserData.Generation, c.OwnedGeneration)
	}
	return ""
}
