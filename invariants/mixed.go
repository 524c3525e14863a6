package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
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
	"no-orphan-member":                 true,
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

// upgradeMidRevocation is why ownership and commit fencing fail in a mixed world whose
// cooperative classic members can be upgraded: the conversion takes each classic member's
// assignment from its last SyncGroup, not what it still owns, so a partition a member is
// revoking is free in the consumer group and goes to another member while it still owns it
// (docs/findings.md, "An online upgrade during a cooperative revocation hands the revoking
// partition on"; GroupMetadataManager.convertToConsumerGroup, ConsumerGroupMember built from
// the classic member's assignment).
func upgradeMidRevocation(c spec.Config) string {
	if !c.Mixed() || c.Protocol != impl.Cooperative || !c.MigrationPolicy.UpgradeEnabled() {
		return ""
	}
	return "an online upgrade during a cooperative revocation hands the revoking partition on: the conversion builds each member from its last SyncGroup assignment, not from what it still owns (docs/findings.md)"
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
	Expected: upgradeMidRevocation,
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
		return upgradeMidRevocation(c)
	},
}

var mixedCommitFencing = Property{
	Name:      "mixed-commit-fencing",
	Kind:      explorer.Always,
	Statement: "an accepted OffsetCommit, of either protocol, comes from a member the coordinator holds, for partitions no other member owns, holds or is assigned",
	Source:    "docs/protocol.md §1.8, §3.1, §9",
	Applies:   func(c spec.Config) bool { return c.Commits && c.Mixed() },
	Expected:  upgradeMidRevocation,
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
