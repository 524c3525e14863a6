package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/impl/kip848client"
	"github.com/groupcheck/groupcheck/spec"
)

// Properties of mixed worlds (spec/mixed.go): one group whose members run the classic
// protocol or the consumer protocol, converted online by the coordinator. The promises of
// each protocol are written once across the seam: a member is current when the half that
// holds the group holds it at its client's generation or epoch (a classic member's generation
// is its member epoch in a consumer group), whichever protocol it runs.
//
// The properties written for one protocol read one protocol's roles in every slot, so in a
// mixed world only the properties named in mixedProperties apply (For).

// mixedProperties are the properties that apply to mixed worlds.
var mixedProperties = map[string]bool{
	"mixed-exclusive-ownership":        true,
	"mixed-exclusive-ownership-strict": true,
	"mixed-commit-fencing":             true,
	"mixed-counter-monotonic":          true,
	"no-orphan-member":                 true,
	"kip848-partition-epochs":          true,
	"kip848-target-exclusive":          true,
}

func mixedWorld(c spec.Config) bool { return c.Mixed() }

// currentMixed reports whether slot i's client is a member the coordinator holds at the
// client's generation or epoch, in either half.
func currentMixed(w *spec.World, i int) bool {
	if !w.Live(i) {
		return false
	}
	if !w.IsConsumerGroup() {
		return !w.ConsumerSlot(i) && current(w, i)
	}
	id := w.MemberIDOf(i)
	m, ok := w.Group.Member(id)
	if !ok || id == impl.NoMemberID {
		return false
	}
	if w.ConsumerSlot(i) {
		return w.Slots[i].Member.Epoch() == m.MemberEpoch
	}
	return impl.Epoch(w.Slots[i].Client.Generation()) == m.MemberEpoch
}

// upgradeHandsOwnedOn is why ownership and commit fencing fail in a mixed world whose
// cooperative classic members can be upgraded: the conversion builds each classic member from
// the classic group's record of its assignment, not from what it still owns. That record
// lacks a partition the member is revoking (its last SyncGroup withheld it), and is empty
// once a rebalance has cleared it (prepareRebalance from CompletingRebalance), so the consumer
// group counts such a partition free and gives it to another member while the cooperative
// owner keeps it (docs/findings.md, "An online upgrade during a cooperative revocation hands
// the revoking partition on"; GroupMetadataManager.convertToConsumerGroup,
// ConsumerGroup.fromClassicGroup).
func upgradeHandsOwnedOn(c spec.Config) string {
	if !c.Mixed() || c.Protocol != impl.Cooperative || !c.MigrationPolicy.UpgradeEnabled() || !upgradesClassic(c) {
		return ""
	}
	return "an online upgrade mid-rebalance hands a partition on while its cooperative classic owner still holds it: the conversion builds each member from the classic group's record of its assignment (without a partition being revoked, empty once a rebalance cleared it), not from what it owns (docs/findings.md)"
}

// upgradesClassic reports whether a consumer-protocol member can join a classic group that
// has members: some member starts classic, or the bounces outnumber the members starting on
// the consumer protocol (the group is downgraded once each of them has bounced, and a further
// bounce upgrades it again).
func upgradesClassic(c spec.Config) bool {
	consumers := 0
	for _, m := range c.Members {
		if !m.StartsConsumer {
			return true
		}
		consumers++
	}
	return c.Budget.Bounces > consumers
}

var mixedExclusiveOwnership = Property{
	Name:      "mixed-exclusive-ownership",
	Kind:      explorer.Always,
	Statement: "no partition is believed owned by two members, of either protocol, that the coordinator holds at their client's generation or epoch",
	Source:    "docs/protocol.md §1.12, §3.4, §9 (the seam between the classic and the consumer group)",
	Applies:   mixedWorld,
	State: func(w *spec.World) string {
		return doubleOwner(w, func(i int) bool { return currentMixed(w, i) })
	},
	Expected: upgradeHandsOwnedOn,
}

var mixedExclusiveOwnershipStrict = Property{
	Name:      "mixed-exclusive-ownership-strict",
	Kind:      explorer.Always,
	Statement: "no partition is believed owned by two running clients of either protocol, current or not (fails in the zombie window)",
	Source:    "docs/protocol.md §1.12, §6, §9",
	Applies:   mixedWorld,
	State: func(w *spec.World) string {
		return doubleOwner(w, func(i int) bool { return running(w, i) })
	},
	Expected: func(c spec.Config) string {
		if why := zombieWindow(c); why != "" {
			return why
		}
		return upgradeHandsOwnedOn(c)
	},
}

var mixedCommitFencing = Property{
	Name:      "mixed-commit-fencing",
	Kind:      explorer.Always,
	Statement: "an accepted OffsetCommit, of either protocol, comes from a member the coordinator holds, for partitions no other member owns, holds or is assigned",
	Source:    "docs/protocol.md §1.8, §3.1, §9",
	Applies:   func(c spec.Config) bool { return c.Commits && c.Mixed() },
	Expected:  upgradeHandsOwnedOn,
	Step: func(pre *spec.World, ev []spec.Event, _ *spec.World) string {
		return firstAcceptedCommit(ev, func(c spec.CommitEvent) string {
			if !pre.IsConsumerGroup() {
				if why := commitOutsideGeneration(pre, c); why != "" {
					return why
				}
				return commitOfOthers(pre, c)
			}
			if _, ok := pre.Group.Member(c.MemberID); !ok {
				return fmt.Sprintf("commit of %s from %s epoch %d accepted, but the consumer group holds no such member", c.Partitions, c.MemberID, c.Generation)
			}
			for _, m := range pre.Group.Members() {
				if both := c.Partitions.Intersect(m.Holds()); m.ID != c.MemberID && !both.IsEmpty() {
					return fmt.Sprintf("commit of %s from %s epoch %d accepted, but the consumer group gives %s to %s (epoch %d)", c.Partitions, c.MemberID, c.Generation, both, m.ID, m.MemberEpoch)
				}
			}
			for j := range pre.Slots {
				if both := c.Partitions.Intersect(pre.Owned(j)); running(pre, j) && pre.MemberIDOf(j) != c.MemberID && !both.IsEmpty() {
					return fmt.Sprintf("commit of %s from %s epoch %d accepted, but %s (%s) owns %s", c.Partitions, c.MemberID, c.Generation, name(pre, j), pre.MemberIDOf(j), both)
				}
			}
			return ""
		})
	},
}

// groupCounter is the group's one counter in a mixed world: its generation while classic, its
// group epoch while consumer (a conversion copies one into the other), and whether the group
// has members.
func groupCounter(w *spec.World) (int64, bool) {
	if w.IsConsumerGroup() {
		return int64(w.Group.GroupEpoch()), len(w.Group.Members()) > 0
	}
	return int64(w.Coord.Generation()), len(w.Coord.AllMembers()) > 0
}

var mixedCounterMonotonic = Property{
	Name:      "mixed-counter-monotonic",
	Kind:      explorer.Always,
	Statement: "the group's generation (classic) or group epoch (consumer) never decreases while it has members, across conversions either way",
	Source:    "docs/protocol.md §1.3, §3.2, §9 (convertToConsumerGroup, convertToClassicGroup carry the counter over)",
	Applies:   mixedWorld,
	Step: func(pre *spec.World, _ []spec.Event, post *spec.World) string {
		a, members := groupCounter(pre)
		b, _ := groupCounter(post)
		if members && b < a {
			kind := map[bool]string{false: "classic group at generation", true: "consumer group at epoch"}
			return fmt.Sprintf("the %s %d became the %s %d", kind[pre.IsConsumerGroup()], a, kind[post.IsConsumerGroup()], b)
		}
		return ""
	},
}

// ConvergedMixed is convergence in a mixed world whose group is a consumer group: the group
// Stable, every live member of either protocol in it and stable at the group epoch (a classic
// member's generation is its member epoch, its consumer STABLE), every member the group holds
// behind a live process, and every subscribed partition owned by exactly one live member. A
// classic group converges as in a classic world (Converged: a live consumer-protocol member
// is never current in it).
func ConvergedMixed(w *spec.World) bool {
	g := w.Group
	if !w.IsConsumerGroup() || g.State() != kip848.StableGroup {
		return false
	}
	var subscribed, owned impl.PartitionSet
	total, live := 0, 0
	members := map[impl.MemberID]bool{}
	for i, s := range w.Slots {
		if !w.Live(i) {
			continue
		}
		live++
		id := w.MemberIDOf(i)
		m, ok := g.Member(id)
		if !ok || !m.IsStableAt(g.GroupEpoch()) {
			return false
		}
		topics := s.Client.Topics
		if w.ConsumerSlot(i) {
			if s.Member.State() != kip848client.Stable || s.Member.Epoch() != g.GroupEpoch() {
				return false
			}
			topics = s.Member.Topics
		} else if s.Client.State() != consumer.Stable || impl.Epoch(s.Client.Generation()) != g.GroupEpoch() {
			return false
		}
		members[id] = true
		subscribed = subscribed.Union(w.Cluster.PartitionsOf(topics))
		owned = owned.Union(w.Owned(i))
		total += w.Owned(i).Len()
	}
	return live > 0 && len(members) == len(g.Members()) && owned.Equal(subscribed) && total == owned.Len()
}
