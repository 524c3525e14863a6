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
func Converged(w *spec.World) bool {
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
	Source:    "vacuity guard (docs/protocol.md §6.5)",
	Applies:   classic,
	State: func(w *spec.World) string {
		if Converged(w) {
			return ""
		}
		return "not converged"
	},
}

// commitAccepted is the vacuity guard of the commit properties: with commits on, some
// OffsetCommit is accepted. Every commit property is about accepted commits, so a member that
// never commits (it never thinks it holds an assignment, or always thinks a commit is in
// flight), or a coordinator that refuses every commit, passes them all vacuously. It is a
// state predicate — an accepted commit's answer on its way back — so that it adds nothing to
// the state (a step predicate would need a transient bit in every world).
var commitAccepted = Property{
	Name:      "commit-accepted",
	Kind:      explorer.Sometimes,
	Statement: "with commits on, some OffsetCommit is accepted (its answer without error is on its way to the member)",
	Source:    "vacuity guard of commit-fencing and kip848-commit-fencing (docs/protocol.md §6.5)",
	Applies:   func(c spec.Config) bool { return c.Commits },
	State: func(w *spec.World) string {
		for _, s := range w.Slots {
			for _, r := range s.In {
				if c, ok := r.(impl.OffsetCommitResponse); ok && c.Error == impl.None {
					return ""
				}
			}
		}
		return "no accepted OffsetCommit answer in flight"
	},
}
