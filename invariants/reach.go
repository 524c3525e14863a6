package invariants

import (
	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// Converged reports whether the group is Stable, every live member is current, and every
// partition some live member subscribes to is owned by exactly one live member.
func Converged(w spec.World) bool {
	if w.Coord.State() != coordinator.Stable {
		return false
	}
	var subscribed, owned impl.PartitionSet
	total, live := 0, 0
	for i, s := range w.Slots {
		if !w.Live(i) {
			continue
		}
		live++
		if !current(w, i) || s.Client.State() != consumer.Stable {
			return false
		}
		subscribed = subscribed.Union(w.Cluster.PartitionsOf(s.Client.Topics))
		owned = owned.Union(s.Client.Owned())
		total += s.Client.Owned().Len()
	}
	return live > 0 && owned.Equal(subscribed) && total == owned.Len()
}

var convergedReachable = Property{
	Name:      "converged-reachable",
	Kind:      explorer.Sometimes,
	Statement: "a Stable group in which every subscribed partition is owned by exactly one live member is reachable",
	Source:    "vacuity guard (DESIGN.md Properties)",
	Applies:   classic,
	State: func(w spec.World) string {
		if Converged(w) {
			return ""
		}
		return "not converged"
	},
}
