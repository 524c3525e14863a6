package oracle

import (
	"fmt"
	"sort"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// status is what the coordinator's view of a member makes of its ownership.
type status uint8

const (
	// current: a member, as far as the history shows. Two current owners are a violation.
	current status = iota
	// doubtful: cut off or fenced and not yet told, or told and giving its partitions up
	// (its lost callback, docs/clients.md §2). An overlap in which it is the earlier owner is a
	// zombie.
	doubtful
	// stale: it knew it was no longer a member and moved on (rejoined, assigned, returned
	// from its lost callback) still owning. An overlap with it is a violation: this is how a
	// client that skips onPartitionsLost is caught.
	stale
)

// segment is a node's status from the event at seq from until its next segment.
type segment struct {
	from int64
	st   status
	why  []history.Event // the events that explain st
	note string          // st in words, for messages
}

// episode is a stretch in which a member's membership is in doubt or gone: it begins with the
// first sign (a cut, a Fenced event, a fencing answer) and ends when the coordinator admits
// the member again.
type episode struct {
	cause    history.Event
	isolated bool           // cut from the coordinator and not healed
	fenced   *history.Event // a Fenced event after another first sign
	learned  *history.Event // the member was told (a fencing answer) or said so (its lost callback began)
	movedOn  *history.Event // after learning, the member went on without releasing first
}

// node is one process of the history, as the main pass knows it so far.
type node struct {
	name     string
	proto    string
	member   bool     // it acted as a group member (not only named by Fenced or Mark events)
	id       identity // what it last said it is
	lastGen  identity // its last Generation event
	owned    map[part]*interval
	assigned map[part]int64         // seq of the latest assign that named each partition
	held     map[part]history.Event // what its callbacks hold, by call order: the assign that named each
	commits  int                    // its client commits under way (a wire OffsetCommit inside one is that commit)
	releases int                    // its revoke and lost callbacks under way: while one runs, it is giving partitions up
	ep       *episode
	fence    *history.Event           // the coordinator fenced it (Fenced) or it left; not admitted since
	released map[part]history.Event   // where it last gave each partition up
	gens     map[string]history.Event // last Generation event per member ID
	success  identity                 // its last successful generation, for lost
	genEv    *history.Event           // where it observed that generation; nil: since its start
	sinceGen int64                    // seq of that event or of its start
	evidence int64                    // seq of the last sign that it lost its membership
	closing  *history.Event           // its close began (until it restarts): lost is the close path
	timeline []segment
}

func newNode(name string) *node {
	return &node{name: name, owned: map[part]*interval{}, assigned: map[part]int64{}, held: map[part]history.Event{},
		released: map[part]history.Event{}, gens: map[string]history.Event{}}
}

// restart is a Start: a new process owns nothing and knows nothing (its ownership was
// released by the caller).
func (n *node) restart(e history.Event) {
	*n = node{name: n.name, proto: n.proto, member: true, owned: n.owned, assigned: map[part]int64{},
		held: map[part]history.Event{}, released: n.released, gens: map[string]history.Event{}, sinceGen: e.Seq, timeline: n.timeline}
}

// newGeneration notes a successful generation observed at e (a Generation event, an accepted
// JoinGroup or ConsumerGroupHeartbeat): signs of lost membership before it are old news.
func (n *node) newGeneration(id identity, e history.Event) {
	if id.gen <= 0 || id == n.success {
		return
	}
	n.success, n.sinceGen = id, e.Seq
	n.genEv = &e
}

// doubt begins an episode with cause e, or returns the one under way.
func (n *node) doubt(e history.Event) *episode {
	if n.ep == nil {
		n.ep = &episode{cause: e}
	}
	return n.ep
}

// admit is the coordinator accepting the member again (an answered membership request begun
// at seq since, or a new generation): the episode and the fence end, unless the member is
// still cut off, whose doubt the answer does not lift.
func (n *node) admit(since int64) {
	if n.fence != nil && since > n.fence.Seq {
		n.fence = nil
	}
	if n.ep != nil && !n.ep.isolated && since > n.ep.cause.Seq {
		n.ep = nil
	}
}

// learn is the member being told, or telling, that it is no longer a member.
func (n *node) learn(e history.Event) {
	if n.ep != nil && n.ep.learned == nil {
		n.ep.learned = &e
	}
}

// moveOn ends the member's reaction to learning: what it still owns from here on, it owns
// knowingly.
func (n *node) moveOn(e history.Event) {
	if n.ep != nil && n.ep.learned != nil && n.ep.movedOn == nil {
		n.ep.movedOn = &e
	}
}

// releaseReturned is one of the member's revoke or lost callbacks returning. An end whose
// begin the history lacks (a recorder that started mid-callback) leaves the count at zero.
func (n *node) releaseReturned() {
	if n.releases > 0 {
		n.releases--
	}
}

// moveOnUnlessReleasing is moveOn for a step that is not itself taking partitions (a
// membership request, a callback returning): while one of the member's revoke or lost
// callbacks still runs, the member is still giving its partitions up, whatever its other
// threads do meanwhile. librdkafka's background thread sends its next Heartbeat while the
// application's lost callback runs, and Sarama returns one claim's revoke while another
// claim's still runs (docs/real-kafka.md, finding 4).
func (n *node) moveOnUnlessReleasing(e history.Event) {
	if n.releases == 0 {
		n.moveOn(e)
	}
}

// status is the node's status after its event at seq, where retro is the later fencing answer
// that puts its membership in doubt then (nil when none does).
func (n *node) status(retro *history.Event) segment {
	switch {
	case n.ep == nil && retro == nil:
		return segment{st: current}
	case n.ep == nil:
		return segment{st: doubtful, why: []history.Event{*retro},
			note: fmt.Sprintf("%s was fenced at an unknown time before it was told so at %s", n.name, at(*retro))}
	case n.ep.movedOn != nil:
		return segment{st: stale, why: []history.Event{*n.ep.learned, *n.ep.movedOn},
			note: fmt.Sprintf("%s learned at %s that it was no longer a member and went on at %s still owning",
				n.name, at(*n.ep.learned), at(*n.ep.movedOn))}
	}
	s := segment{st: doubtful, why: []history.Event{n.ep.cause}, note: n.causeNote()}
	if f := n.ep.fenced; f != nil {
		s.why = append(s.why, *f)
		s.note += fmt.Sprintf(", the coordinator fenced it at %s", at(*f))
	}
	if l := n.ep.learned; l != nil && l.Seq != n.ep.cause.Seq {
		s.why = append(s.why, *l)
		s.note += fmt.Sprintf(", and %s was giving its partitions up after learning at %s", n.name, at(*l))
	}
	return s
}

func (n *node) causeNote() string {
	c := n.ep.cause
	switch c.Kind {
	case history.Cut:
		return fmt.Sprintf("%s was cut off from the coordinator at %s", n.name, at(c))
	case history.Fenced:
		return fmt.Sprintf("the coordinator fenced %s at %s", n.name, at(c))
	}
	return fmt.Sprintf("%s was told at %s that it was fenced (%s)", n.name, at(c), c.Err)
}

// mark appends the node's status after event e to its timeline, if it changed.
func (n *node) mark(e history.Event, retro *history.Event) {
	s := n.status(retro)
	s.from = e.Seq
	if k := len(n.timeline); k > 0 && sameSegment(n.timeline[k-1], s) {
		return
	}
	n.timeline = append(n.timeline, s)
}

func sameSegment(a, b segment) bool {
	if a.st != b.st || len(a.why) != len(b.why) {
		return false
	}
	for i := range a.why {
		if a.why[i].Seq != b.why[i].Seq {
			return false
		}
	}
	return true
}

// at is the node's segment in force at seq.
func (n *node) at(seq int64) segment {
	i := sort.Search(len(n.timeline), func(i int) bool { return n.timeline[i].from > seq })
	if i == 0 {
		return segment{st: current}
	}
	return n.timeline[i-1]
}

// prune forgets the segments no judgment can ask for: those before the one in force at lo
// (the earliest seq a pending overlap may ask about), always keeping the one in force now.
func (n *node) prune(lo int64) {
	i := sort.Search(len(n.timeline), func(i int) bool { return n.timeline[i].from > lo }) - 1
	i = min(max(i, 0), len(n.timeline)-1)
	if i > 0 {
		n.timeline = append([]segment(nil), n.timeline[i:]...)
	}
}
