package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// groupMaxSize is KIP-389's bound (group-max-size N): a generation never has more members
// than group.max.size — the classic coordinator refuses a join past it with
// GROUP_MAX_SIZE_REACHED, counting in PreparingRebalance the members that have rejoined (so
// the old generation's members may outnumber the bound until the join completes and drops
// those that did not); the KIP-848 coordinator refuses a new member of a full group.
var groupMaxSize = Property{
	Name:      "group-max-size",
	Kind:      explorer.Always,
	Statement: "with group-max-size N, a completed join (CompletingRebalance, Stable) has at most N members, and a KIP-848 group never more than N",
	Source:    "docs/protocol.md §1.4 (capacity check, KIP-389), §3.3 step 2",
	Applies:   func(c spec.Config) bool { return c.MaxSize > 0 },
	State: func(w *spec.World) string {
		max := w.Config().MaxSize
		if w.Config().ConsumerProtocol {
			if n := len(w.Group.Members()); n > max {
				return fmt.Sprintf("the KIP-848 group holds %d members, group.consumer.max.size is %d", n, max)
			}
			return ""
		}
		st := w.Coord.State()
		if n := len(w.Coord.Members()); (st == coordinator.CompletingRebalance || st == coordinator.Stable) && n > max {
			return fmt.Sprintf("the group is %s with %d members, group.max.size is %d", st, n, max)
		}
		return ""
	},
}
