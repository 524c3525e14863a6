package kip848

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

// MemberTarget is one member's entry in a target assignment.
type MemberTarget struct {
	ID         impl.MemberID
	Partitions impl.PartitionSet
}

// Target is a target assignment: one entry per member, sorted by member id. A Target held by
// a Group is immutable; build new ones with NewTarget.
type Target []MemberTarget

// NewTarget builds a target from entries in any order. Duplicate ids panic.
func NewTarget(entries ...MemberTarget) Target {
	t := slices.Clone(entries)
	slices.SortFunc(t, func(a, b MemberTarget) int { return strings.Compare(string(a.ID), string(b.ID)) })
	for i := 1; i < len(t); i++ {
		if t[i].ID == t[i-1].ID {
			panic("kip848: NewTarget: duplicate member " + string(t[i].ID))
		}
	}
	return t
}

// Of is the member's target partitions, empty if it has no entry.
func (t Target) Of(id impl.MemberID) impl.PartitionSet {
	if i, ok := t.index(id); ok {
		return t[i].Partitions
	}
	return impl.PartitionSet{}
}

// Equal compares two targets entry by entry.
func (t Target) Equal(o Target) bool {
	return slices.EqualFunc(t, o, func(a, b MemberTarget) bool {
		return a.ID == b.ID && a.Partitions.Equal(b.Partitions)
	})
}

func (t Target) index(id impl.MemberID) (int, bool) {
	return slices.BinarySearchFunc(t, id, func(e MemberTarget, id impl.MemberID) int {
		return strings.Compare(string(e.ID), string(id))
	})
}

func (t Target) without(id impl.MemberID) Target {
	if i, ok := t.index(id); ok {
		return slices.Delete(slices.Clone(t), i, i+1)
	}
	return t
}

// renamed moves old's entry to id: a replaced static member's target is transferred
// (docs/protocol.md §3.3 step 5, §3.6).
func (t Target) renamed(old, id impl.MemberID) Target {
	i, ok := t.index(old)
	if !ok || old == id {
		return t
	}
	ps := t[i].Partitions
	return NewTarget(append(t.without(old).without(id), MemberTarget{id, ps})...)
}

// validate: entries name members and no partition is targeted twice.
func (t Target) validate(g Group) error {
	var seen impl.PartitionSet
	for i, e := range t {
		if i > 0 && strings.Compare(string(t[i-1].ID), string(e.ID)) >= 0 {
			return fmt.Errorf("target not sorted at %s", e.ID)
		}
		if _, ok := g.index(e.ID); !ok {
			return fmt.Errorf("target names non-member %s", e.ID)
		}
		if seen.Intersects(e.Partitions) {
			return fmt.Errorf("target assigns %s twice", seen.Intersect(e.Partitions))
		}
		seen = seen.Union(e.Partitions)
	}
	return nil
}

// MemberSpec is what an assignor knows of one member.
type MemberSpec struct {
	ID               impl.MemberID
	InstanceID       impl.InstanceID
	SubscribedTopics []string
}

// AssignmentSpec is the input of a server assignor: the members (sorted by id) with their
// subscriptions, the cluster, and the previous target (for stickiness).
type AssignmentSpec struct {
	Members  []MemberSpec
	Cluster  impl.Cluster
	Previous Target
}

// AssignFunc is a server assignor: a pure function from the spec to a target valid for it
// (CheckTarget). It is not part of the group's state.
type AssignFunc func(AssignmentSpec) Target

// AssignmentSpec is the spec the group's next target is computed from.
func (g Group) AssignmentSpec() AssignmentSpec {
	ms := make([]MemberSpec, len(g.members))
	for i, m := range g.members {
		ms[i] = MemberSpec{m.ID, m.InstanceID, m.SubscribedTopics}
	}
	return AssignmentSpec{Members: ms, Cluster: g.cluster, Previous: g.target}
}

// eligible is the set of partitions member i may be assigned.
func (s AssignmentSpec) eligible(i int) impl.PartitionSet {
	return s.Cluster.PartitionsOf(s.Members[i].SubscribedTopics)
}

// CheckTarget reports why t is not a valid target for s: an entry for each member, in order;
// each partition exists, is subscribed by its member and is targeted at most once.
func CheckTarget(s AssignmentSpec, t Target) error {
	if len(t) != len(s.Members) {
		return fmt.Errorf("target has %d entries for %d members", len(t), len(s.Members))
	}
	var seen impl.PartitionSet
	for i, e := range t {
		if e.ID != s.Members[i].ID {
			return fmt.Errorf("target entry %d is %s, want %s", i, e.ID, s.Members[i].ID)
		}
		if bad := e.Partitions.Minus(s.eligible(i)); !bad.IsEmpty() {
			return fmt.Errorf("target gives %s partitions it may not have: %s", e.ID, bad)
		}
		if seen.Intersects(e.Partitions) {
			return fmt.Errorf("target assigns %s twice", seen.Intersect(e.Partitions))
		}
		seen = seen.Union(e.Partitions)
	}
	return nil
}

// installTarget runs assign and installs its result at the group epoch (docs/protocol.md §3.3 step 5).
func (g Group) installTarget(assign AssignFunc, transition string) Group {
	s := g.AssignmentSpec()
	t := assign(s)
	if err := CheckTarget(s, t); err != nil {
		panic("kip848: " + transition + ": assignor returned an invalid target: " + err.Error())
	}
	g.target, g.assignmentEpoch = t, g.groupEpoch
	return g
}

// WithTarget installs t as the target assignment at the group epoch, as if the assignor had
// computed it: the `any` assignor's hook. t must be valid for AssignmentSpec (CheckTarget).
// Once installed, a target never changes within its epoch: installing a different one when
// the group epoch is not ahead of the assignment epoch panics.
func (g Group) WithTarget(t Target) Group {
	if g.groupEpoch == g.assignmentEpoch && !t.Equal(g.target) {
		panic("kip848: WithTarget: a target is already installed at epoch " + fmt.Sprint(g.groupEpoch))
	}
	return g.installTarget(func(AssignmentSpec) Target { return t }, "WithTarget").checked("WithTarget")
}

// assignFunc is the configured server assignor.
func (c Config) assignFunc() AssignFunc {
	switch c.Assignor {
	case "", AssignorUniform:
		return Uniform
	case AssignorRange:
		return Range
	}
	panic("kip848: unknown assignor " + c.Assignor)
}

// supportedAssignor reports whether a requested ServerAssignor exists ("" = unchanged).
func supportedAssignor(name string) bool {
	return name == "" || name == AssignorUniform || name == AssignorRange
}
