package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// leaderReadsOwnVersion: a classic leader decodes every member's subscription with the layout
// of its own ConsumerProtocolSubscription version — owned partitions exist from v1 (KIP-429),
// the generation field from v2 (KIP-792) — so what it acts on is each subscription as sent
// minus the fields newer than its version, and nothing else. This is what makes the rolling
// upgrade a hazard (docs/protocol.md §2.7: "an old (v0-only) leader cannot see OwnedPartitions and may
// hand owned partitions to others"; docs/protocol.md §7.4), and what the upgrade presets
// model. A leader that reads more than its version carries hides that hazard: the presets
// would then pass for the wrong reason, and every other property holds (it is only safer). A
// leader that reads less than its version — a v1 leader losing owned partitions, a v2 one the
// generation — is the opposite bug, double ownership or a stale claim ranked wrong.
//
// Judged on what the round records the leader read (spec.AssignEvent.Members, the input of its
// assignor and of the KIP variant's plan) against the members' JoinGroup subscriptions restated here
// at the leader's version. In the upgrade presets the v0 leader is eager and runs range, whose
// output ignores owned partitions, so there the view is all a misreading changes.
// Reference: docs/protocol.md §2.2 (ConsumerProtocolSubscription v0–v2), §2.7; apache/kafka
// clients/src/main/resources/common/message/ConsumerProtocolSubscription.json (OwnedPartitions
// "versions": "1+", GenerationId "2+"); KIP-429; KIP-792.
var leaderReadsOwnVersion = Property{
	Name:      "leader-reads-own-version",
	Kind:      explorer.Always,
	Statement: "a classic leader acts on each subscription as its own subscription version decodes it: owned partitions only from v1, the generation field only from v2, every other field as sent",
	Source:    "docs/protocol.md §2.2, §2.7 (an old leader cannot see OwnedPartitions); ConsumerProtocolSubscription.json (OwnedPartitions 1+, GenerationId 2+); KIP-429; KIP-792",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, _ *spec.World) string {
		for _, a := range assignments(ev) {
			ra := pre.Slots[a.Slot].Assigning
			if ra == nil {
				continue
			}
			v := pre.Config().Members[a.Slot].SubscriptionVersion
			for _, m := range ra.Members {
				want := decodedAt(m.Metadata, v)
				i := slices.IndexFunc(a.Members, func(x impl.JoinGroupMember) bool { return x.MemberID == m.MemberID })
				if i < 0 {
					return fmt.Sprintf("%s's gen %d round (leader at v%d) does not read %s's subscription", a.Name, a.Generation, v, m.MemberID)
				}
				if got := a.Members[i].Metadata; !got.Equal(want) || got.Version != want.Version {
					return fmt.Sprintf("%s's gen %d round (leader at v%d) reads %s's v%d subscription as %+v, want %+v", a.Name, a.Generation, v, m.MemberID, m.Metadata.Version, got, want)
				}
			}
		}
		return ""
	},
}

// decodedAt is s as a reader of subscription version v sees it: the fields v lacks at their
// defaults (no owned partitions below v1, no generation below v2), the version no higher than v.
func decodedAt(s impl.Subscription, v int8) impl.Subscription {
	out := impl.Subscription{Version: min(s.Version, v), Topics: s.Topics, UserData: s.UserData,
		OwnedPartitions: s.OwnedPartitions, Generation: s.Generation}
	if v < 1 {
		out.OwnedPartitions = impl.PartitionSet{}
	}
	if v < 2 {
		out.Generation = impl.NoGeneration
	}
	return out
}
