package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// eagerJoinsEmpty: a classic member whose rebalance protocol is eager sends every JoinGroup
// owning nothing. Eager exclusivity rests on exactly this (docs/protocol.md §1.12 (a)): onJoinPrepare
// revokes everything before the JoinGroup goes out (§1.11 "Eager behaviour", §2.3 step 3), a
// retry after a failed round owns nothing because nothing was assigned since, and KIP-429's
// eager member answered NEEDS_REJOIN revokes everything before it rejoins (KIP-429 §1.f). The
// protocol is the config's (spec.Config.MemberProtocol: Kafka's common protocol of the
// member's assignors, §2.1 and §2.7 — a member listing cooperative-sticky beside an eager
// assignor is still eager; KIP-429's rebalance.protocol), not the client's own view of it,
// so a client that takes itself for cooperative is judged by what it was configured as.
var eagerJoinsEmpty = Property{
	Name:      "eager-joins-empty",
	Kind:      explorer.Always,
	Statement: "a classic member whose rebalance protocol is eager sends every JoinGroup owning nothing: it revoked (or lost) everything first",
	Source:    "docs/protocol.md §1.11 (Eager behaviour), §1.12 (a), §2.3 step 3, §2.7; KIP-429 §1.f; ConsumerCoordinator.onJoinPrepare",
	Applies:   classic,
	Step: func(_ *spec.World, ev []spec.Event, post *spec.World) string {
		for _, s := range joinsSent(ev) {
			if post.Config().MemberProtocol(s.Slot) != impl.Eager {
				continue
			}
			if c := post.Slots[s.Slot].Client; !c.OwnedPartitions.IsEmpty() {
				return fmt.Sprintf("%s is eager and sends a JoinGroup still owning %s", s.Name, c.OwnedPartitions)
			}
		}
		return ""
	},
}
