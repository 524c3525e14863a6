package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/impl/kip848client"
	"github.com/groupcheck/groupcheck/spec"
)

// KIP-848 (protocol consumer) properties. Each applies only under protocol consumer; the
// classic properties apply only to the classic protocols. revoke-before-reassign is shared:
// the client's callbacks must track its ownership under either protocol.

// partitionEpochConflict finds a partition two member records hold (assigned ∪ pending
// revocation): the partition-epoch map would give it two epochs.
func partitionEpochConflict(ms []kip848.Member) string {
	for i := range ms {
		for j := i + 1; j < len(ms); j++ {
			if both := ms[i].Holds().Intersect(ms[j].Holds()); !both.IsEmpty() {
				return fmt.Sprintf("%s held by both %s (epoch %d) and %s (epoch %d)", both, ms[i].ID, ms[i].MemberEpoch, ms[j].ID, ms[j].MemberEpoch)
			}
		}
	}
	return ""
}

var kip848PartitionEpochs = Property{
	Name:      "kip848-partition-epochs",
	Kind:      explorer.Always,
	Statement: "the partition-epoch map is a function: no partition is in assigned ∪ pending revocation of two members",
	Source:    "docs/protocol.md §3.2 (currentPartitionEpoch, single holder), §3.9",
	Applies:   kip848Group,
	State: func(w *spec.World) string {
		if why := partitionEpochConflict(w.Group.Members()); why != "" {
			return why
		}
		return recovered(func() { w.Group.PartitionEpochs() })
	},
}

// recovered runs f and returns its panic as a reason, "" if it returns.
func recovered(f func()) (why string) {
	defer func() {
		if r := recover(); r != nil {
			why = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// targetConflict finds a partition a target gives twice, or an entry for a non-member.
func targetConflict(t kip848.Target, isMember func(impl.MemberID) bool) string {
	owner := map[impl.TopicPartition]impl.MemberID{}
	for _, e := range t {
		if !isMember(e.ID) {
			return fmt.Sprintf("the target has an entry for %s, which is not a member", e.ID)
		}
		for _, tp := range e.Partitions.Slice() {
			if o, dup := owner[tp]; dup {
				return fmt.Sprintf("the target assigns %s to both %s and %s", tp, o, e.ID)
			}
			owner[tp] = e.ID
		}
	}
	return ""
}

var kip848TargetExclusive = Property{
	Name:      "kip848-target-exclusive",
	Kind:      explorer.Always,
	Statement: "the target assignment gives each partition to at most one member, and only to members",
	Source:    "docs/protocol.md §3.2 (targetAssignment), §3.9",
	Applies:   kip848Group,
	State: func(w *spec.World) string {
		return targetConflict(w.Group.Target(), func(id impl.MemberID) bool { _, ok := w.Group.Member(id); return ok })
	},
}

// currentKIP848 reports whether slot i's client is a member the coordinator holds at the
// client's epoch: running, its member id in the group, its epoch the member epoch there.
func currentKIP848(w *spec.World, i int) bool {
	if !w.Live(i) {
		return false
	}
	c := w.Slots[i].Member
	m, ok := w.Group.Member(c.MemberID())
	return ok && c.MemberID() != impl.NoMemberID && c.Epoch() == m.MemberEpoch
}

var kip848ExclusiveOwnership = Property{
	Name:      "kip848-exclusive-ownership",
	Kind:      explorer.Always,
	Statement: "no partition is believed owned by two members the coordinator holds at their client's epoch",
	Source:    "docs/protocol.md §3.4 (safety mechanism), §3.9; §6 (Vanlightly's NoDoubleClientAssignment)",
	Applies:   kip848Protocol,
	State: func(w *spec.World) string {
		return doubleOwner(w, func(i int) bool { return currentKIP848(w, i) })
	},
}

var kip848ExclusiveOwnershipStrict = Property{
	Name:      "kip848-exclusive-ownership-strict",
	Kind:      explorer.Always,
	Statement: "no partition is believed owned by two running KIP-848 clients, current or not (fails in the zombie window)",
	Source:    "docs/protocol.md §6 (zombie ownership is inherent in both protocols)",
	Applies:   kip848Protocol,
	State: func(w *spec.World) string {
		return doubleOwner(w, func(i int) bool { return w.Live(i) })
	},
	Expected: zombieWindow,
}

// resetEpoch: the epochs a member epoch may drop to — rejoin (0), leave (-1), temporary
// leave (-2).
func resetEpoch(e impl.Epoch) bool {
	return e == impl.EpochJoin || e == impl.EpochLeave || e == impl.EpochTemporaryLeave
}

var kip848EpochMonotonic = Property{
	Name:      "kip848-epoch-monotonic",
	Kind:      explorer.Always,
	Statement: "group, assignment and member epochs never decrease, except a member epoch to 0, -1 or -2 (server and client side)",
	Source:    "docs/protocol.md §3.9 (member epoch never decreases except replacement to 0 / leave values), §3.1",
	Applies:   kip848Protocol,
	Step: func(pre *spec.World, _ []spec.Event, post *spec.World) string {
		g, h := pre.Group, post.Group
		if h.GroupEpoch() < g.GroupEpoch() || h.AssignmentEpoch() < g.AssignmentEpoch() {
			return fmt.Sprintf("group epoch %d -> %d, assignment epoch %d -> %d", g.GroupEpoch(), h.GroupEpoch(), g.AssignmentEpoch(), h.AssignmentEpoch())
		}
		for _, m := range g.Members() {
			n, ok := h.Member(m.ID)
			if ok && n.MemberEpoch < m.MemberEpoch && !resetEpoch(n.MemberEpoch) {
				return fmt.Sprintf("coordinator: member %s went from epoch %d to %d", m.ID, m.MemberEpoch, n.MemberEpoch)
			}
		}
		for i, s := range pre.Slots {
			t := post.Slots[i]
			if t.Incarnation != s.Incarnation || s.Process == spec.Absent {
				continue
			}
			if a, b := s.Member.Epoch(), t.Member.Epoch(); b < a && !resetEpoch(b) {
				return fmt.Sprintf("client %s (%s) went from epoch %d to %d", name(pre, i), t.Member.MemberID(), a, b)
			}
		}
		return ""
	},
}

var kip848CommitFencing = Property{
	Name:      "kip848-commit-fencing",
	Kind:      explorer.Always,
	Statement: "an accepted OffsetCommit comes from a member at its current epoch, for partitions it holds (assigned ∪ pending revocation); under KIP-1251 (the default, Kafka 4.3 on) at an older epoch too, for partitions it has held since that epoch; under commit-epochs exact (Kafka 4.0 to 4.2) only at its current epoch; and a commit the rule allows is not refused with STALE_MEMBER_EPOCH",
	Source:    "docs/protocol.md §3.1 (OffsetCommit v9, STALE_MEMBER_EPOCH; KIP-1251), §3.9",
	Applies:   func(c spec.Config) bool { return c.Commits && kip848Protocol(c) },
	Step: func(pre *spec.World, ev []spec.Event, _ *spec.World) string {
		for _, e := range ev {
			c, ok := e.(spec.CommitEvent)
			if !ok {
				continue
			}
			why := ""
			switch c.Error {
			case impl.None:
				why = acceptedCommitFenced(pre.Group, c)
			case impl.StaleMemberEpoch:
				why = refusedCommitAllowed(pre.Group, c)
			}
			if why != "" {
				return why
			}
		}
		return ""
	},
}

// acceptedCommitFenced is why an accepted commit should have been fenced, or "".
func acceptedCommitFenced(g kip848.Group, c spec.CommitEvent) string {
	m, ok := g.Member(c.MemberID)
	epoch := impl.Epoch(c.Generation)
	older := g.Config().CommitRule == kip848.CommitAssignmentEpochs && epoch < m.MemberEpoch
	if !ok || epoch != m.MemberEpoch && !older {
		return fmt.Sprintf("commit of %s from %s epoch %d accepted, but the coordinator holds no such member at that epoch", c.Partitions, c.MemberID, c.Generation)
	}
	if extra := c.Partitions.Minus(m.Holds()); !extra.IsEmpty() {
		return fmt.Sprintf("commit of %s from %s epoch %d accepted, but it holds only %s at that epoch (%s is no longer its)", c.Partitions, c.MemberID, c.Generation, m.Holds(), extra)
	}
	for _, tp := range c.Partitions.Slice() {
		if at, _ := m.AssignmentEpoch(tp); older && at > epoch {
			return fmt.Sprintf("commit of %s from %s epoch %d accepted, but %s was assigned to it only at epoch %d", c.Partitions, c.MemberID, c.Generation, tp, at)
		}
	}
	return ""
}

// refusedCommitAllowed is why a commit refused with STALE_MEMBER_EPOCH should have been
// accepted, or "": it carries the member's epoch, or under KIP-1251 an older one at or after
// which the member was assigned every partition in it (ConsumerGroup.validateOffsetCommit).
func refusedCommitAllowed(g kip848.Group, c spec.CommitEvent) string {
	m, ok := g.Member(c.MemberID)
	epoch := impl.Epoch(c.Generation)
	switch {
	case !ok || epoch > m.MemberEpoch:
		return ""
	case epoch == m.MemberEpoch:
		return fmt.Sprintf("commit of %s from %s epoch %d refused STALE_MEMBER_EPOCH, but that is the member's epoch", c.Partitions, c.MemberID, c.Generation)
	case g.Config().CommitRule != kip848.CommitAssignmentEpochs:
		return ""
	}
	for _, tp := range c.Partitions.Slice() {
		if at, held := m.AssignmentEpoch(tp); !held || at > epoch {
			return ""
		}
	}
	return fmt.Sprintf("commit of %s from %s epoch %d refused STALE_MEMBER_EPOCH, but under KIP-1251 it is allowed: the member, at epoch %d, was assigned each of them at or before %d", c.Partitions, c.MemberID, c.Generation, m.MemberEpoch, c.Generation)
}

// ConvergedKIP848 reports whether a KIP-848 group has converged: the group is STABLE (every
// member STABLE at the assignment epoch, which is the group epoch); every member is the
// member of a live client that is STABLE at that epoch; and every partition some live
// client subscribes to is owned by exactly one live client. A live client that has
// unsubscribed (UNSUBSCRIBED with no topics: config alt-topics=-) is not in the group by its
// own choice and is left out.
func ConvergedKIP848(w *spec.World) bool {
	g := w.Group
	if g.State() != kip848.StableGroup {
		return false
	}
	var subscribed, owned impl.PartitionSet
	total, live := 0, 0
	members := map[impl.MemberID]bool{}
	for i, s := range w.Slots {
		if !w.Live(i) || s.Member.State() == kip848client.Unsubscribed && len(s.Member.Topics) == 0 {
			continue
		}
		live++
		c := s.Member
		m, ok := g.Member(c.MemberID())
		if !ok || c.State() != kip848client.Stable || c.Epoch() != g.GroupEpoch() || !m.IsStableAt(g.GroupEpoch()) {
			return false
		}
		members[c.MemberID()] = true
		subscribed = subscribed.Union(w.Cluster.PartitionsOf(c.Topics))
		owned = owned.Union(c.Owned())
		total += c.Owned().Len()
	}
	return live > 0 && len(members) == len(g.Members()) && owned.Equal(subscribed) && total == owned.Len()
}

var kip848ConvergedReachable = Property{
	Name:      "kip848-converged-reachable",
	Kind:      explorer.Sometimes,
	Statement: "a group in which every live member is STABLE at the group epoch and every subscribed partition is owned by exactly one live member is reachable",
	Source:    "docs/protocol.md §3.9 (liveness: every member reaches STABLE at assignmentEpoch == groupEpoch); vacuity guard",
	Applies:   kip848Protocol,
	State: func(w *spec.World) string {
		if ConvergedKIP848(w) {
			return ""
		}
		return "not converged"
	},
}
