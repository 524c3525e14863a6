package oracle

import "github.com/groupcheck/groupcheck/oracle/history"

// router follows, in a forward pass, which node each event concerns (a Fenced event names a
// member, whose node is the one last seen using that member ID) and whether that node is dead
// (crashed and not restarted: a dead process observes nothing). Both passes run one.
type router struct {
	memberNode map[string]string
	crashed    map[string]bool
}

func newRouter() router { return router{memberNode: map[string]string{}, crashed: map[string]bool{}} }

// route returns e's node and whether it is dead.
func (r router) route(e history.Event) (string, bool) {
	n := e.Node
	if e.Kind == history.Fenced && e.Member != "" && r.memberNode[e.Member] != "" {
		n = r.memberNode[e.Member]
	} else if e.Member != "" && e.Kind != history.Fenced && e.Kind != history.Mark {
		r.memberNode[e.Member] = n
	}
	switch {
	case e.Kind == history.Start:
		r.crashed[n] = false
	case r.crashed[n]:
		return n, true
	case e.Kind == history.Crash:
		r.crashed[n] = true
	}
	return n, false
}

// lookahead is what the main pass must know ahead of time, gathered by a first pass that
// keeps only this (so a file is read twice rather than held): the partitions noted on an
// interval's end, and the stretches in which a later fencing answer puts a node's membership
// in doubt. Both are rare in a clean history, so the lookahead stays small.
type lookahead struct {
	endParts map[int64]history.Parts // interval ID → the Parts its end notes (callbacks, commits)
	retro    map[string][]retroRange // per node, in seq order
}

// retroRange: after each of the node's events with seq in [lo, hi), its membership is in doubt
// because of answer, a later fencing answer: the coordinator fenced it at a moment the history
// does not show, since its last proof of membership.
type retroRange struct {
	lo, hi int64
	answer history.Event
}

// lookaheadBuilder is the first pass. A node's proofs of membership are an accepted
// membership request (not a leave) or commit, a newly observed generation, and (as a
// boundary) its start.
type lookaheadBuilder struct {
	la    *lookahead
	rt    router
	open  map[int64]history.Event // begins of open membership requests, to tell a leave
	proof map[string]int64        // node → seq of its last proof of membership
	fence map[string]int64        // node → seq of its last fencing answer
	last  map[string]identity     // node → its last Generation event's identity
}

func newLookaheadBuilder() *lookaheadBuilder {
	return &lookaheadBuilder{la: &lookahead{endParts: map[int64]history.Parts{}, retro: map[string][]retroRange{}},
		rt: newRouter(), open: map[int64]history.Event{}, proof: map[string]int64{}, fence: map[string]int64{},
		last: map[string]identity{}}
}

func (b *lookaheadBuilder) add(e history.Event) {
	if e.Phase == history.End && len(e.Parts) > 0 && (e.Kind != history.Request || e.Op == history.OffsetCommit) {
		b.la.endParts[e.ID] = e.Parts
	}
	n, dead := b.rt.route(e)
	begin, began := b.open[e.ID]
	switch {
	case e.Phase == history.Begin && isMembership(e):
		b.open[e.ID] = e
	case e.Phase == history.End && began:
		delete(b.open, e.ID)
	}
	if dead {
		return
	}
	switch {
	case fencingAnswer(e):
		lo := b.proof[n]
		if f := b.fence[n]; lo <= f {
			lo = f + 1
		}
		b.la.retro[n] = append(b.la.retro[n], retroRange{lo: lo, hi: e.Seq, answer: e})
		b.fence[n] = e.Seq
	case e.Kind == history.Start:
		b.proof[n], b.last[n] = e.Seq, identity{}
	case e.Kind == history.Generation:
		id := identity{e.Member, e.Gen}
		if e.Gen > 0 && id != b.last[n] {
			b.proof[n] = e.Seq
		}
		b.last[n] = id
	case e.Phase == history.End && okAnswer(e) && isCommit(e):
		b.proof[n] = e.Seq
	case e.Phase == history.End && okAnswer(e) && isMembership(e) && !(began && isLeave(begin)):
		b.proof[n] = e.Seq
	}
}

// retroAt is the fencing answer that puts node n's membership in doubt after its event at seq,
// or nil. Lookups come in seq order, so a cursor per node walks its ranges once.
func (s *scan) retroAt(n string, seq int64) *history.Event {
	rs := s.la.retro[n]
	i := s.retroCur[n]
	for i < len(rs) && rs[i].hi <= seq {
		i++
	}
	s.retroCur[n] = i
	if i < len(rs) && rs[i].lo <= seq {
		return &rs[i].answer
	}
	return nil
}

// fencingAnswer reports whether e is an answer that shows the coordinator no longer had the
// member: a membership request or a commit refused with a fencing error.
func fencingAnswer(e history.Event) bool {
	if e.Phase != history.End || !answered(e) {
		return false
	}
	return (isMembership(e) && fencing[e.Err]) || (isCommit(e) && commitFencing[e.Err])
}

// identity is who a member believes it is: member ID and generation (epoch).
type identity struct {
	member string
	gen    int32
}
