package oracle

import (
	"math"
	"sort"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// scan is the main pass over a validated history in Seq order, fed one event at a time: it
// follows every node (ownership from its callbacks, membership from what the coordinator told
// it), checks the properties that are judged at one event, and judges each pair of
// overlapping ownerships once the overlap is over. It keeps live state only: the nodes, the
// open intervals and ownerships, the overlaps under way, and the status history a pending
// overlap still needs.
type scan struct {
	la       *lookahead
	rt       router
	retroCur map[string]int
	open     map[int64]history.Event // begins of the intervals under way
	nodes    map[string]*node
	active   map[part][]*interval // per partition, the ownerships not yet ended, in order of their start
	pairs    []*pair              // overlapping ownerships not yet judged
	lost     map[int64]lostStart  // open lost callbacks by ID
	commits  map[int64]*commitCheck
	coord    *coordinator
	settle   *settling // RebalanceCompletes, when a bound is given
	findings []finding
	events   int
}

// interval is one node's ownership of one partition: from its assign's begin until the event
// that ended it (nil while it has not ended).
type interval struct {
	node         string
	q            part
	start        history.Event
	end          *history.Event
	endSeq, endT int64
}

func newScan(la *lookahead) *scan {
	return &scan{la: la, rt: newRouter(), retroCur: map[string]int{}, open: map[int64]history.Event{},
		nodes: map[string]*node{}, active: map[part][]*interval{}, lost: map[int64]lostStart{},
		commits: map[int64]*commitCheck{}, coord: newCoordinator()}
}

// scanHistory runs both passes over an in-memory history, judging RebalanceCompletes within
// settle (0: not judged).
func scanHistory(h history.History, settle time.Duration) *scan {
	b := newLookaheadBuilder()
	for _, e := range h {
		b.add(e)
	}
	s := newScan(b.la)
	s.settleWithin(settle)
	for _, e := range h {
		s.add(e)
	}
	s.finish()
	return s
}

// add is the main pass's step: one event.
func (s *scan) add(e history.Event) {
	s.events++
	if s.settle != nil {
		s.settle.before(s, e)
	}
	if e.Phase == history.Begin {
		s.open[e.ID] = e
	}
	defer func() {
		if e.Phase == history.End {
			delete(s.open, e.ID)
		}
	}()
	name, dead := s.rt.route(e)
	if dead {
		return // a dead process observes nothing (history.Recorder drops these too)
	}
	n := s.node(name)
	if e.Proto != "" {
		n.proto = e.Proto
	}
	if e.Kind != history.Mark && e.Kind != history.Fenced {
		n.member = true
	}
	retro := s.retroAt(name, e.Seq)
	s.step(n, retro, e)
	if s.settle != nil {
		s.settle.observe(s, n, e)
	}
	n.mark(e, retro)
	s.judgePairs()
	if len(n.timeline) > 64 {
		n.prune(s.oldestPair())
	}
}

// begin is the begin of the interval that e ends.
func (s *scan) begin(e history.Event) history.Event { return s.open[e.ID] }

func (s *scan) node(name string) *node {
	n := s.nodes[name]
	if n == nil {
		n = newNode(name)
		s.nodes[name] = n
	}
	return n
}

func (s *scan) step(n *node, retro *history.Event, e history.Event) {
	switch e.Kind {
	case history.Start:
		s.releaseAll(n, e)
		n.restart(e)
	case history.Crash:
		s.releaseAll(n, e)
	case history.Close:
		if e.Phase == history.Begin {
			n.closing = &e
		}
		if e.Phase == history.End {
			s.releaseAll(n, e)
			clear(n.held)
			s.left(n, e)
		}
	case history.Cut:
		n.doubt(e).isolated = true
		n.evidence = e.Seq
	case history.Heal:
		if n.ep != nil {
			n.ep.isolated = false
		}
	case history.Fenced:
		s.fenced(n, e)
		s.coordinatorEvent(e)
	case history.Generation:
		s.generation(n, e)
	case history.Assign, history.Revoke, history.Lost:
		s.callback(n, e)
	case history.Commit:
		s.commit(n, retro, e)
	case history.Request:
		s.request(n, e)
		s.coordinatorEvent(e)
		if e.Op == history.OffsetCommit {
			s.wireCommit(n, retro, e)
		}
	}
}

// partsOfInterval is what an interval event is about: its begin's and its end's Parts, so
// that a recorder may note them on either edge.
func (s *scan) partsOfInterval(e history.Event) []part {
	if e.Phase == history.End {
		return partsOf(e.Parts, s.begin(e).Parts)
	}
	return partsOf(e.Parts, s.la.endParts[e.ID])
}

func (s *scan) callback(n *node, e history.Event) {
	qs := s.partsOfInterval(e)
	switch {
	case e.Kind == history.Assign && e.Phase == history.Begin:
		s.bookkeep(n, qs, e)
		n.moveOn(e)
		s.acquire(n, qs, e)
	case e.Kind == history.Revoke && e.Phase == history.Begin:
		s.bookkeep(n, qs, e)
		n.releases++
	case e.Kind == history.Lost && e.Phase == history.Begin:
		s.bookkeep(n, qs, e)
		n.releases++
		n.learn(e)
		s.lost[e.ID] = lostStart{since: n.sinceGen, gen: n.genEv}
	case e.Kind == history.Revoke && e.Phase == history.End:
		s.release(n, s.notReassigned(n, qs, e), e)
		n.releaseReturned()
		n.moveOnUnlessReleasing(e)
	case e.Kind == history.Lost && e.Phase == history.End:
		s.release(n, s.notReassigned(n, qs, e), e)
		s.checkLost(n, qs, e)
		n.releaseReturned()
		n.moveOnUnlessReleasing(e)
	}
}

// notReassigned are the partitions a revoke or lost (its end e) gives up: callbacks are
// deltas in the order they were called, so one that an assign named after this callback
// began is owned again, whenever this callback returns (a revoke acknowledged early, with
// the client rejoining and being given the partition back while it still runs).
func (s *scan) notReassigned(n *node, qs []part, e history.Event) []part {
	began := s.begin(e).Seq
	out := qs[:0:0]
	for _, q := range qs {
		if n.assigned[q] < began {
			out = append(out, q)
		}
	}
	return out
}

func (s *scan) acquire(n *node, qs []part, e history.Event) {
	for _, q := range qs {
		n.assigned[q] = e.Seq
		if n.owned[q] != nil {
			continue
		}
		iv := &interval{node: n.name, q: q, start: e, endSeq: math.MaxInt64, endT: math.MaxInt64}
		n.owned[q] = iv
		s.overlapping(iv)
	}
}

func (s *scan) release(n *node, qs []part, e history.Event) {
	for _, q := range qs {
		if iv := n.owned[q]; iv != nil {
			iv.end, iv.endSeq, iv.endT = &e, e.Seq, e.T
			delete(n.owned, q)
			n.released[q] = e
			s.ended(iv)
		}
	}
}

func (s *scan) releaseAll(n *node, e history.Event) { s.release(n, n.ownedParts(), e) }

// ownedParts is what the node owns now, in partition order.
func (n *node) ownedParts() []part {
	qs := make([]part, 0, len(n.owned))
	for q := range n.owned {
		qs = append(qs, q)
	}
	sort.Slice(qs, func(i, j int) bool { return qs[i].less(qs[j]) })
	return qs
}

// left is the member leaving for good (an accepted leave, the end of its close): it is not a
// member and knows it, so whatever it still owns it owns knowingly.
func (s *scan) left(n *node, e history.Event) {
	n.fence = &e
	n.evidence = e.Seq // leaving gives the membership up: a lost callback after it is the close path
	n.doubt(e)
	n.learn(e)
	n.moveOn(e)
}

// fenced is the coordinator removing a member (a Fenced event). A Fenced event about an
// earlier member ID or epoch of the node is old news and changes nothing.
func (s *scan) fenced(n *node, e history.Event) {
	if e.Member != "" && n.id.member != "" && e.Member != n.id.member {
		return
	}
	if e.Gen > 0 && n.id.gen > e.Gen {
		return
	}
	if ep := n.doubt(e); ep.cause.Seq != e.Seq && ep.fenced == nil {
		ep.fenced = &e
	}
	if n.fence == nil {
		n.fence = &e
	}
	n.evidence = e.Seq
}

func (s *scan) request(n *node, e history.Event) {
	if e.Member != "" {
		n.id.member = e.Member
	}
	if e.Phase == history.Begin {
		if isMembership(e) {
			n.moveOnUnlessReleasing(e)
		}
		s.checkClaim(n, e)
		return
	}
	if !answered(e) {
		return
	}
	if !e.OK() && !flowControl[e.Err] {
		n.evidence = e.Seq
	}
	if isMembership(e) {
		s.membershipAnswer(n, s.begin(e), e)
	}
}

// membershipAnswer is what the coordinator's answer to a membership request tells the member.
func (s *scan) membershipAnswer(n *node, b, e history.Event) {
	switch {
	case e.OK() && isLeave(b):
		s.left(n, e)
	case e.OK():
		if e.Gen > 0 {
			n.id.gen = e.Gen
			n.newGeneration(identity{n.id.member, e.Gen}, e)
		}
		n.admit(b.Seq)
	case fencing[e.Err]:
		// Not n.fence: an answer is what the member is told, and a harness can tell it without
		// fencing it (franz-go conformance's Fence step leaves kfake's state unchanged); what
		// the coordinator did is what a Fenced event records (docs/clients.md §6.4).
		n.doubt(e)
		n.learn(e)
	}
}
