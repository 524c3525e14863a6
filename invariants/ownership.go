package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// current reports whether slot i's consumer is a member the coordinator holds in its current
// generation: running, its member id in the group, its generation the group's.
func current(w *spec.World, i int) bool {
	if !running(w, i) {
		return false
	}
	c := w.Slots[i].Client
	_, ok := w.Coord.Member(c.MemberID())
	return ok && c.Generation() == w.Coord.Generation()
}

// doubleOwner finds a partition two of the selected slots both believe they own, whichever the
// protocol, naming each owner's member id and generation (classic) or epoch (KIP-848).
func doubleOwner(w *spec.World, include func(i int) bool) string {
	for i := range w.Slots {
		if !include(i) {
			continue
		}
		for j := i + 1; j < len(w.Slots); j++ {
			if !include(j) {
				continue
			}
			if both := w.Owned(i).Intersect(w.Owned(j)); !both.IsEmpty() {
				unit, group := "gen", int64(w.Coord.Generation())
				if w.IsConsumerGroup() {
					unit, group = "epoch", int64(w.Group.GroupEpoch())
				}
				return fmt.Sprintf("%s owned by %s (%s %s %d) and %s (%s %s %d); the group is at %s %d",
					both, name(w, i), w.MemberIDOf(i), unit, counter(w, i), name(w, j), w.MemberIDOf(j), unit, counter(w, j), unit, group)
			}
		}
	}
	return ""
}

// counter is slot i's generation (classic) or member epoch (KIP-848).
func counter(w *spec.World, i int) int64 {
	if w.ConsumerSlot(i) {
		return int64(w.Slots[i].Member.Epoch())
	}
	return int64(w.Slots[i].Client.Generation())
}

func name(w *spec.World, i int) string { return w.Config().Members[i].Name }

var exclusiveOwnership = Property{
	Name:      "exclusive-ownership",
	Kind:      explorer.Always,
	Statement: "no partition is believed owned by two members the coordinator holds in its current generation",
	Source:    "KIP-429 §2; docs/protocol.md §1.12, §6 (Vanlightly's NoDoubleClientAssignment)",
	Applies:   classic,
	State: func(w *spec.World) string {
		return doubleOwner(w, func(i int) bool { return current(w, i) })
	},
	Expected: staticKeptRejoins,
}

var exclusiveOwnershipStrict = Property{
	Name:      "exclusive-ownership-strict",
	Kind:      explorer.Always,
	Statement: "no partition is believed owned by two running consumers, current or not (fails in the zombie window)",
	Source:    "docs/protocol.md §1.12 (the zombie window the protocol cannot close)",
	Applies:   classic,
	State: func(w *spec.World) string {
		return doubleOwner(w, func(i int) bool { return running(w, i) })
	},
	Expected: zombieWindow,
}

// zombieWindow: when the coordinator can remove a member that is still running (its session
// or a phase timer expires while it is slow or cut off), the member keeps processing until a
// response tells it: no protocol can close that window (docs/protocol.md §1.12).
func zombieWindow(c spec.Config) string {
	if sharedInstance(c) {
		return "two processes share a group.instance.id: the second one's join replaces the first while it runs (KIP-345), which keeps its partitions until FENCED_INSTANCE_ID tells it (the zombie window, docs/protocol.md §1.10, §1.12)"
	}
	if !liveTimeouts(c) {
		return ""
	}
	return "a live member can be removed by a timeout and keeps its partitions until a response tells it (the zombie window, docs/protocol.md §1.12)"
}

// sharedInstance reports whether two static members of c share a group.instance.id.
func sharedInstance(c spec.Config) bool {
	seen := map[impl.InstanceID]bool{}
	for _, m := range c.Members {
		if !m.Static {
			continue
		}
		if seen[m.InstanceID()] {
			return true
		}
		seen[m.InstanceID()] = true
	}
	return false
}

var syncAssignmentValid = Property{
	Name:      "sync-assignment-valid",
	Kind:      explorer.Always,
	Statement: "the leader's sync assignment gives each partition to at most one member, and only to a subscriber of its topic",
	Source:    "docs/protocol.md §1.5, §2.4",
	Applies:   classic,
	Step: func(_ *spec.World, ev []spec.Event, _ *spec.World) string {
		for _, a := range assignments(ev) {
			if why := validAssignment(a); why != "" {
				return why
			}
		}
		return ""
	},
}

func validAssignment(a spec.AssignEvent) string {
	topics := map[impl.MemberID][]string{}
	for _, m := range a.Members {
		topics[m.MemberID] = m.Metadata.Topics
	}
	owner := map[impl.TopicPartition]impl.MemberID{}
	for _, m := range a.Assignments {
		for _, tp := range m.Assignment.Partitions.Slice() {
			if o, dup := owner[tp]; dup {
				return fmt.Sprintf("%s: gen %d assigns %s to both %s and %s", a.Name, a.Generation, tp, o, m.MemberID)
			}
			owner[tp] = m.MemberID
			sub := false
			for _, t := range topics[m.MemberID] {
				sub = sub || t == tp.Topic
			}
			if !sub {
				return fmt.Sprintf("%s: gen %d assigns %s to %s, which does not subscribe to %s", a.Name, a.Generation, tp, m.MemberID, tp.Topic)
			}
		}
	}
	return ""
}

var noHandoverWhileOwned = Property{
	Name:      "no-handover-while-owned",
	Kind:      explorer.Always,
	Statement: "a current leader never hands a partition to a member while another member of the group still owns it",
	Source:    "KIP-429 §2.6 (docs/protocol.md §7.2.6: withhold maybe-revoking partitions); docs/protocol.md §2.5",
	Applies:   classic,
	Expected:  staticKeptAtDeadline,
	Step: func(pre *spec.World, ev []spec.Event, _ *spec.World) string {
		for _, a := range assignments(ev) {
			if !currentLeader(pre, a) {
				continue
			}
			for _, m := range a.Assignments {
				for i := range pre.Slots {
					c := pre.Slots[i].Client
					if !running(pre, i) || c.MemberID() == m.MemberID || !inGroup(pre, c.MemberID()) {
						continue
					}
					if both := c.Owned().Intersect(m.Assignment.Partitions); !both.IsEmpty() {
						return fmt.Sprintf("%s's gen %d assignment gives %s to %s while %s (%s) still owns it",
							a.Name, a.Generation, both, m.MemberID, name(pre, i), c.MemberID())
					}
				}
			}
		}
		return ""
	},
}

// staticKeptAtDeadline is why no-handover-while-owned and commit-fencing can fail where a
// static member can miss a join phase (a join timeout budgeted): at the deadline the
// coordinator keeps an absent static member with the subscription of its last JoinGroup
// (KAFKA-8220; docs/protocol.md §1.3 onCompleteJoin), which claims what it owned then —
// nothing, for an eager member or one that joined empty-handed — so the leader may give
// another member the partitions it still processes, and their new owner commit them, until
// its next heartbeat is answered ILLEGAL_GENERATION: the zombie window of docs/protocol.md
// §1.12 for a member the coordinator keeps instead of removing. The coordinator's commit
// check is generation-only (ClassicGroup.validateOffsetCommit), so nothing in the
// protocol refuses the new owner's commit. The deadline is missed within a join-timeouts
// budget, or for free by a member a condition cuts off (budget cuts).
func staticKeptAtDeadline(c spec.Config) string {
	if c.Budget.JoinTimeouts == 0 && !c.FreesLiveTimers() || !staticMembers(c) {
		return ""
	}
	return "a static member that misses the join deadline is kept with its last subscription (KAFKA-8220), so the leader may hand its partitions on, and their new owner commit them, while it still processes them, until its next heartbeat (the zombie window, docs/protocol.md §1.12)"
}

// staticKeptRejoins is why exclusive-ownership can fail where staticKeptAtDeadline does and a
// member is cooperative: the kept member, never told of the generation that gave its
// partitions away, rejoins the next one still owning them (a cooperative member revokes
// nothing before it joins, KIP-429), so two members of the current generation own a
// partition until the leader's assignment, which prefers the claim of the higher generation
// (CooperativeStickyAssignor, KAFKA-14639), revokes it from the kept one. An eager member
// revokes everything before it joins, and there the property holds.
func staticKeptRejoins(c spec.Config) string {
	if staticKeptAtDeadline(c) == "" {
		return ""
	}
	for i := range c.Members {
		if c.MemberProtocol(i) == impl.Cooperative {
			return "a static member kept at the join deadline (KAFKA-8220) rejoins the next generation still owning what the last one gave away (a cooperative member revokes nothing before it joins), so two current members own it until the leader's assignment revokes it from the kept one (the zombie window, docs/protocol.md §1.12)"
		}
	}
	return ""
}

func inGroup(w *spec.World, id impl.MemberID) bool {
	_, ok := w.Coord.Member(id)
	return ok
}

// currentLeader: the assignment comes from the group's leader of its current generation. A
// leader evicted while computing (a zombie) sends a SyncGroup the coordinator will refuse.
func currentLeader(w *spec.World, a spec.AssignEvent) bool {
	c := w.Slots[a.Slot].Client
	return a.Generation == w.Coord.Generation() && c.MemberID() == w.Coord.Leader()
}

// liveTimeouts reports whether the config lets the coordinator remove a live member: a
// session, join or sync timer firing on it, its own poll timeout (fencingTimeouts), or a hang
// (the sync timer removes the hung member, which never learns).
func liveTimeouts(c spec.Config) bool {
	return c.RemovesLive(true)
}

// fencingTimeouts reports whether a live member that goes on taking steps can be removed, and
// so be told so by a fencing answer.
//
// Which budgets those are is the kinds table's removal column (spec.Kind.Removes).
func fencingTimeouts(c spec.Config) bool {
	return c.RemovesLive(false)
}

// running reports whether slot i's consumer runs and believes what it owns: a live one, or a
// hung or paused one (budgets hangs, pauses), frozen but still the owner in its application's
// eyes (a paused one goes on processing when it resumes).
func running(w *spec.World, i int) bool {
	return w.Live(i) || w.Slots[i].Process == spec.Hung || w.Slots[i].Process == spec.Paused
}

// classic: the property concerns the classic protocols (eager, cooperative), one protocol
// for every member (not a mixed world).
func classic(c spec.Config) bool { return !c.ConsumerProtocol && !c.Mixed() }

// kip848Protocol: the property concerns protocol consumer (KIP-848).
func kip848Protocol(c spec.Config) bool { return c.ConsumerProtocol }

// kip848Group: the property reads only the KIP-848 group (World.Group), which a mixed world
// holds while its group is a consumer group (the zero group, which satisfies it, otherwise).
func kip848Group(c spec.Config) bool { return c.ConsumerProtocol || c.Mixed() }

// assignments are the step's leader assignments that were computed (not failed rounds).
// joinsSent are the step's JoinGroup sends.
func joinsSent(ev []spec.Event) []spec.SendEvent {
	var out []spec.SendEvent
	for _, e := range ev {
		if s, ok := e.(spec.SendEvent); ok {
			if _, join := s.Request.(impl.JoinGroupRequest); join {
				out = append(out, s)
			}
		}
	}
	return out
}

func assignments(ev []spec.Event) []spec.AssignEvent {
	var out []spec.AssignEvent
	for _, e := range ev {
		if a, ok := e.(spec.AssignEvent); ok && a.Failed == "" {
			out = append(out, a)
		}
	}
	return out
}
