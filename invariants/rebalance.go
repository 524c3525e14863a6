package invariants

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/spec"
)

// rebalanceCause asks that a classic coordinator start a rebalance only for one of the causes
// docs/protocol.md §1.4 and §4 name: the membership changes (a member joins, leaves, expires, or a
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
	Source:    "docs/protocol.md §1.4 (handleJoinGroup: member.matches, isLeader), §1.7, §1.9, §1.10, §4 (KIP-423 reasons)",
	Applies:   func(c spec.Config) bool { return !c.ConsumerProtocol && c.Budget.Failovers == 0 },
	Step: func(pre *spec.World, _ []spec.Event, post *spec.World) string {
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

// kip848EpochCause is rebalance-cause for KIP-848: the coordinator bumps the group epoch (a
// new target, a rebalance) only when the group's membership, a member's subscription or the
// metadata of the cluster changes (docs/protocol.md §3.3 step 1–2, §3.5, §3.6). A static member that
// returns — its new incarnation replacing the record it left at epoch −2 — is the same member
// with the same subscription: no bump (§3.6: "a static member's quick return causes no
// rebalance"). A bump without a cause computes the same target again, so no partition moves
// and no figure grows; every member still reconciles to the new epoch.
var kip848EpochCause = Property{
	Name:      "kip848-epoch-cause",
	Kind:      explorer.Always,
	Statement: "the KIP-848 group epoch is bumped only when the membership (static members by instance id), a member's subscription or the cluster's metadata changes",
	Source:    "docs/protocol.md §3.3 steps 1–2, §3.5, §3.6 (GroupMetadataManager.consumerGroupHeartbeat: bumpGroupEpoch)",
	Applies:   func(c spec.Config) bool { return c.ConsumerProtocol && c.Budget.Failovers == 0 },
	Step: func(pre *spec.World, _ []spec.Event, post *spec.World) string {
		a, b := pre.Group, post.Group
		if b.GroupEpoch() <= a.GroupEpoch() || !a.Cluster().Equal(b.Cluster()) {
			return ""
		}
		if slices.Equal(subscriptions(a.Members()), subscriptions(b.Members())) {
			return fmt.Sprintf("the group epoch went from %d to %d with the same members, subscriptions and metadata", a.GroupEpoch(), b.GroupEpoch())
		}
		return ""
	},
}

// subscriptions lists each member as identity=topics, sorted: a static member's identity is
// its instance id, so that its replacement by a new incarnation changes nothing.
func subscriptions(ms []kip848.Member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		id := "member " + string(m.ID)
		if m.IsStatic() {
			id = "instance " + string(m.InstanceID)
		}
		out[i] = id + "=" + strings.Join(m.SubscribedTopics, ",")
	}
	slices.Sort(out)
	return out
}
