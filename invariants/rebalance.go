package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// rebalanceCause asks that a classic coordinator start a rebalance only for one of the causes
// KAFKA.md §1.4 and §4 name: the membership changes (a member joins, leaves, expires, or a
// static member is replaced), a member's protocols change, the leader rejoins a Stable group,
// or — under KIP-423 (coordinator kip423) — a member asks for it with TOPIC_METADATA_CHANGE or
// UPGRADE. Anything else is a round that moves nothing: a known member's unchanged JoinGroup
// answered with a new generation instead of the current one
// (GroupCoordinator.handleJoinGroup → `if (member.matches(protocols) && !isLeader) respond
// current`), a reason honoured where the variant ignores it. Every such round reassigns what
// each member has, so no ownership property and no rounds figure sees it; it costs every
// member a join and a sync, and under eager revocation every partition for the round's length.
// Failover worlds are left out: loading the group from the log is a cause of its own.
var rebalanceCause = Property{
	Name:      "rebalance-cause",
	Kind:      explorer.Always,
	Statement: "a classic coordinator starts a rebalance (Stable or CompletingRebalance → PreparingRebalance) only on a membership change, a member's changed protocols, the leader's rejoin of a Stable group, or a KIP-423 reason that forces one",
	Source:    "KAFKA.md §1.4 (handleJoinGroup: member.matches, isLeader), §1.7, §1.9, §1.10, §4 (KIP-423 reasons)",
	Applies:   func(c spec.Config) bool { return !c.ConsumerProtocol && c.Budget.Failovers == 0 },
	Step: func(pre spec.World, _ []spec.Event, post spec.World) string {
		return rebalanceWithoutCause(pre.Coord, post.Coord, pre.Config().Coordinator)
	},
}

// rebalanceWithoutCause says why the step from group a to group b started a rebalance for no
// cause the variant knows, or "" when it did not start one or had a cause.
func rebalanceWithoutCause(a, b coordinator.Group, variant impl.Variant) string {
	from := a.State()
	if b.State() != coordinator.PreparingRebalance || from != coordinator.Stable && from != coordinator.CompletingRebalance {
		return ""
	}
	if !slices.Equal(a.Members(), b.Members()) {
		return "" // a member joined, left, expired or was replaced
	}
	for _, id := range b.Members() {
		ma, _ := a.Member(id)
		mb, _ := b.Member(id)
		if !slices.EqualFunc(ma.Protocols, mb.Protocols, sameProtocol) {
			return "" // its protocols changed
		}
		newJoin := mb.Join.Parked && !ma.Join.Parked
		if newJoin && from == coordinator.Stable && id == a.Leader() {
			return "" // the leader rejoined a Stable group
		}
		if newJoin && variant == impl.KIP && (mb.Join.Reason == impl.ReasonTopicMetadataChange || mb.Join.Reason == impl.ReasonUpgrade) {
			return "" // KIP-423: the reason forces a rebalance
		}
	}
	return fmt.Sprintf("the coordinator went from %s to PreparingRebalance at generation %d with the same members, protocols unchanged and no join that asks for a rebalance", from, a.Generation())
}

// sameProtocol compares two assignor entries: name and subscription (topics, owned partitions
// and generation, user data), as GroupMetadata's member.matches compares the raw metadata.
func sameProtocol(x, y impl.GroupProtocol) bool {
	return x.Name == y.Name && x.Metadata.Equal(y.Metadata)
}
