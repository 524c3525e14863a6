package lin

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// member848 is what the history says of one KIP-848 member record at the coordinator.
type member848 struct {
	epoch      int32 // the member epoch of the record, if epochKnown
	epochKnown bool
	assigned   impl.PartitionSet // the assignment the record holds, if assignedKnown
	known      bool
	removed    bool // the record was deleted (fenced, left, expired) and not re-created
}

// consumer is the knowledge of a KIP-848 coordinator (impl/kip848). A member's record
// changes only in the member's own heartbeats, which the history shows, or when the
// coordinator deletes it (session or rebalance timeout, static replacement), which it does
// not: a deletion is inferred when it is the only explanation, and refuted if the member is
// later answered as if it still existed.
type consumer struct {
	members     map[string]member848
	handedOut   set
	why         provenance
	encodingKey string
}

func newConsumer() *consumer {
	c := &consumer{members: map[string]member848{}, handedOut: set{}, why: provenance{}}
	c.encodingKey = c.encode()
	return c
}

func (c *consumer) key() string { return c.encodingKey }

func (c *consumer) encode() string {
	var b strings.Builder
	for _, id := range slices.Sorted(maps.Keys(c.members)) {
		m := c.members[id]
		fmt.Fprintf(&b, "%s:%d/%t/%s/%t/%t;", id, m.epoch, m.epochKnown, m.assigned, m.known, m.removed)
	}
	b.WriteString("handed=" + c.handedOut.String())
	return b.String()
}

func (c *consumer) String() string {
	var parts []string
	for _, id := range slices.Sorted(maps.Keys(c.members)) {
		m := c.members[id]
		s := id
		switch {
		case m.removed:
			s += " removed"
		case m.epochKnown:
			s += fmt.Sprintf(" epoch %d", m.epoch)
		}
		if m.known {
			s += " " + m.assigned.String()
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func (c *consumer) clone() *consumer {
	return &consumer{members: maps.Clone(c.members), handedOut: c.handedOut.clone(), why: maps.Clone(c.why)}
}

func (c *consumer) apply(o *operation, explain bool) ([]knowledge, string) {
	s := &step848{stepOf[*consumer]{n: c, o: o, explain: explain}}
	var ok bool
	switch {
	case o.op == history.OffsetCommit:
		ok = s.commit()
	case !o.answered:
		s.unanswered()
		ok = true
	default:
		ok = s.heartbeat()
	}
	if !ok {
		return nil, s.why
	}
	if s.copied {
		s.n.encodingKey = s.n.encode()
	}
	return []knowledge{s.n}, ""
}

// step848 is one application of an operation, copying the knowledge on the first write.
// step848 applies a KIP-848 response.
type step848 struct{ stepOf[*consumer] }

// set writes a member's record if it changed, with the provenance of the changed facts.
func (s *step848) set(id string, m member848) {
	old, had := s.n.members[id]
	if had && old.epoch == m.epoch && old.epochKnown == m.epochKnown && old.known == m.known &&
		old.removed == m.removed && old.assigned.Equal(m.assigned) {
		return
	}
	n := s.w()
	if m.epochKnown && (!old.epochKnown || old.epoch != m.epoch) {
		n.why["epoch:"+id] = s.o.label()
	}
	if m.known && (!old.known || !old.assigned.Equal(m.assigned)) {
		n.why["assigned:"+id] = s.o.label()
	}
	n.members[id] = m
}

// heartbeat: a ConsumerGroupHeartbeat answer. Reference: docs/protocol.md §3.3, §3.6; kip848.Heartbeat.
func (s *step848) heartbeat() bool {
	o, n := s.o, s.n
	m := n.members[o.member]
	switch {
	case o.err == impl.UnknownMemberID:
		s.remove(o.member, o.label())
		return true
	case o.err == impl.FencedMemberEpoch && o.gen > 0 && o.member != "":
		if m.removed {
			return s.fail("FENCED_MEMBER_EPOCH is for a member that exists, but %s was removed (%s)", o.member, n.why.of("removed:"+o.member))
		}
		if m.epochKnown && m.epoch == o.gen {
			return s.fail("epoch %d is %s's current epoch (%s): the coordinator accepts it", o.gen, o.member, n.why.of("epoch:"+o.member))
		}
		return true
	case o.err != impl.None:
		return true
	case o.gen < 0:
		if o.member == "" {
			return true
		}
		if m.removed {
			return s.fail("a leave answered NONE for %s, removed before (%s)", o.member, n.why.of("removed:"+o.member))
		}
		if o.gen == int32(impl.EpochLeave) {
			s.remove(o.member, o.label())
		} else { // a static member's temporary leave: its record stays, at epoch -2
			m.epochKnown = false
			s.set(o.member, m)
		}
		return true
	}
	id := o.respMember
	if id == "" {
		id = o.member
	}
	switch {
	case id == "":
		return true
	case o.member != "" && o.respMember != "" && o.respMember != o.member:
		return s.fail("the coordinator answered member %s's heartbeat for member %s", o.member, o.respMember)
	case o.member == "" && n.handedOut[id]:
		return s.fail("a join without member id was given %s, handed out before (%s)", id, n.why.of("handed:"+id))
	}
	m = n.members[id]
	switch {
	case o.gen > 0 && m.removed:
		return s.fail("member %s was removed (%s): a heartbeat at epoch %d cannot succeed", id, n.why.of("removed:"+id), o.gen)
	case o.gen > 0 && o.respGen < o.gen:
		return s.fail("epoch %d answered to a heartbeat at epoch %d; reconciliation never lowers an epoch", o.respGen, o.gen)
	case m.epochKnown && o.respGen < m.epoch:
		return s.fail("member %s's epoch went back from %d (%s) to %d", id, m.epoch, n.why.of("epoch:"+id), o.respGen)
	}
	if !n.handedOut[id] {
		w := s.w()
		w.handedOut[id], w.why["handed:"+id] = true, o.label()
	}
	m.removed, m.epoch, m.epochKnown = false, o.respGen, true
	if !o.hasParts {
		// No assignment carried: unchanged, or (in JSON, where an empty map is omitted) empty.
		m.known, m.assigned = false, impl.PartitionSet{}
		s.set(id, m)
		return true
	}
	for _, other := range slices.Sorted(maps.Keys(n.members)) {
		h := n.members[other]
		if other == id || h.removed || !h.known || !h.assigned.Intersects(o.parts) {
			continue
		}
		// Two records never hold one partition: the other one must have been deleted.
		s.remove(other, fmt.Sprintf("inferred: it held %s (%s) when %s", h.assigned.Intersect(o.parts),
			n.why.of("assigned:"+other), o.label()))
	}
	m.assigned, m.known = o.parts, true
	s.set(id, m)
	return true
}

// commit: OffsetCommit carries the member epoch. It is accepted at the member's current epoch
// and, since KIP-1251 (apache/kafka#21692; kfake's handleConsumerOffsetCommit), at an older one
// at or after the epoch the partitions were assigned at, which the model does not track: so
// an accepted commit needs an epoch no higher than the member's, and STALE_MEMBER_EPOCH is
// never the answer at the current epoch. Reference: docs/protocol.md §3.1; kip848.OffsetCommit.
func (s *step848) commit() bool {
	o, n := s.o, s.n
	if !o.answered || o.gen < 0 && o.member == "" {
		return true
	}
	m := n.members[o.member]
	switch o.err {
	case impl.None, impl.StaleMemberEpoch:
		if m.removed {
			return s.fail("member %s was removed (%s): the commit cannot be %s", o.member, n.why.of("removed:"+o.member), o.err)
		}
		if o.err == impl.None && m.epochKnown && o.gen > m.epoch {
			return s.fail("a commit at epoch %d accepted while %s's epoch is %d (%s)", o.gen, o.member, m.epoch, n.why.of("epoch:"+o.member))
		}
		if o.err == impl.StaleMemberEpoch && m.epochKnown && m.epoch == o.gen {
			return s.fail("STALE_MEMBER_EPOCH at epoch %d, which is %s's current epoch (%s)", o.gen, o.member, n.why.of("epoch:"+o.member))
		}
	case impl.UnknownMemberID:
		s.remove(o.member, o.label())
	}
	return true
}

// unanswered: a heartbeat without an answer may have changed the member's epoch and
// assignment, re-created a deleted record (a join) or deleted it (a leave); only a
// heartbeat of a deleted member at a positive epoch surely did nothing.
func (s *step848) unanswered() {
	o := s.o
	m, ok := s.n.members[o.member]
	if o.member == "" || !ok || o.gen > 0 && m.removed {
		return
	}
	s.set(o.member, member848{})
}

// remove deletes a member's record.
func (s *step848) remove(id, why string) {
	if id == "" || s.n.members[id].removed {
		return
	}
	n := s.w()
	m := n.members[id]
	m.removed, m.known, m.assigned = true, false, impl.PartitionSet{}
	n.members[id] = m
	n.why["removed:"+id] = why
}
