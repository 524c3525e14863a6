package oracle

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// pair is two nodes' ownerships of one partition, b begun while a was still owned. Its
// classes depend on the nodes' statuses over the overlap, so it is judged for
// exclusive-ownership once either ends and for revoke-before-assign once a ends (its report
// names a's release), or when the history ends.
type pair struct {
	a, b      *interval
	exclusive bool // exclusive-ownership judged
}

// overlapping notes a new ownership b: it overlaps every ownership of its partition by
// another node that has not ended.
func (s *scan) overlapping(b *interval) {
	for _, a := range s.active[b.q] {
		if a.node != b.node {
			s.pairs = append(s.pairs, &pair{a: a, b: b})
		}
	}
	s.active[b.q] = append(s.active[b.q], b)
}

// ended notes that an ownership ended.
func (s *scan) ended(iv *interval) {
	as := s.active[iv.q]
	for i, a := range as {
		if a == iv {
			as = append(as[:i], as[i+1:]...)
			break
		}
	}
	if len(as) == 0 {
		delete(s.active, iv.q)
	} else {
		s.active[iv.q] = as
	}
}

// judgePairs judges what the event at seq settled: every interval that began while another
// node's was still open is a revoke-before-assign finding (on the callback edges, in Seq
// order), and an exclusive-ownership one when the two also overlap for a positive time.
func (s *scan) judgePairs() {
	if len(s.pairs) == 0 {
		return
	}
	kept := s.pairs[:0]
	for _, p := range s.pairs {
		if !p.exclusive && (p.a.end != nil || p.b.end != nil) {
			s.judgeExclusive(p)
		}
		if p.a.end == nil {
			kept = append(kept, p)
			continue
		}
		s.revokeBeforeAssign(p.a, p.b)
	}
	clear(s.pairs[len(kept):])
	s.pairs = kept
}

func (s *scan) judgeExclusive(p *pair) {
	p.exclusive = true
	if p.b.start.T < min(p.a.endT, p.b.endT) {
		s.exclusive(p.a, p.b)
	}
}

// finish judges the overlaps still under way when the history ends.
func (s *scan) finish() {
	for _, p := range s.pairs {
		if !p.exclusive {
			s.judgeExclusive(p)
		}
		s.revokeBeforeAssign(p.a, p.b)
	}
	s.pairs = nil
	if s.settle != nil {
		s.settle.finish(s)
	}
}

// oldestPair is the earliest seq a pair still to be judged may ask a node's status at.
func (s *scan) oldestPair() int64 {
	lo := int64(math.MaxInt64)
	for _, p := range s.pairs {
		lo = min(lo, p.b.start.Seq)
	}
	return lo
}

// revokeBeforeAssign reports b's assign beginning while a still owned the partition.
func (s *scan) revokeBeforeAssign(a, b *interval) {
	class, why, note := s.classify(a.node, b.node, b.start.Seq, b.start.Seq+1)
	events := append([]history.Event{a.start, b.start}, why...)
	if a.end != nil {
		events = append(events, *a.end)
	}
	s.found(finding{prop: RevokeBeforeAssign, class: class, at: b.start.Seq, parts: []part{a.q},
		events: events, msg: func(ps string) string {
			return fmt.Sprintf("%s began assigning %s at %s while %s still owned %s (assigned at %s, %s); %s",
				b.node, ps, at(b.start), a.node, pronoun(ps), at(a.start), ended(a), note)
		}})
}

// exclusive reports a and b owning the partition at once for a positive time.
func (s *scan) exclusive(a, b *interval) {
	hi, last := a.endSeq, a.end
	if b.endSeq < hi {
		hi, last = b.endSeq, b.end
	}
	class, why, note := s.classify(a.node, b.node, b.start.Seq, hi)
	events := append([]history.Event{a.start, b.start}, why...)
	until := "the end of the history"
	if last != nil {
		events = append(events, *last)
		until = at(*last)
	}
	s.found(finding{prop: ExclusiveOwnership, class: class, at: b.start.Seq, parts: []part{a.q},
		events: events, msg: func(ps string) string {
			return fmt.Sprintf("%s and %s both owned %s from %s to %s (%s since %s, %s since %s); %s",
				a.node, b.node, ps, at(b.start), until, a.node, at(a.start), b.node, at(b.start), note)
		}})
}

func pronoun(ps string) string {
	if strings.Contains(ps, ",") {
		return "them"
	}
	return "it"
}

// ended says how an interval ended, for messages.
func ended(iv *interval) string {
	if iv.end == nil {
		return "never released"
	}
	switch iv.end.Kind {
	case history.Revoke, history.Lost:
		return fmt.Sprintf("its %s returned only at %s", iv.end.Kind, at(*iv.end))
	case history.Crash:
		return fmt.Sprintf("until it crashed at %s", at(*iv.end))
	case history.Start:
		return fmt.Sprintf("until it restarted at %s", at(*iv.end))
	}
	return fmt.Sprintf("until its %s at %s", iv.end.Kind, at(*iv.end))
}

// classify judges the shared ownership over the seqs [lo, hi) of an earlier owner (an) and a
// later one (bn): a zombie where the earlier owner was doubtful (cut off or fenced, and not yet
// told or still giving up), since that is the overlap Kafka allows; a violation at any point
// where either was stale or the earlier owner was current (the later owner's own trouble,
// such as being fenced after it was assigned, does not excuse an owner that should have
// released). It returns the events and words that explain the class.
func (s *scan) classify(an, bn string, lo, hi int64) (string, []history.Event, string) {
	a, b := s.nodes[an], s.nodes[bn]
	points := append(a.changes(lo, hi), b.changes(lo, hi)...)
	sort.Slice(points, func(i, j int) bool { return points[i] < points[j] })
	var bad, excused []segment
	var aCurrent, bCurrent bool
	for _, x := range append([]int64{lo}, points...) {
		sa, sb := a.at(x), b.at(x)
		switch {
		case sa.st == stale || sb.st == stale:
			bad = append(bad, pick(stale, sa, sb)...)
		case sa.st == doubtful:
			excused = append(excused, sa)
		default:
			aCurrent, bCurrent = true, bCurrent || sb.st == current
		}
	}
	switch {
	case len(bad) > 0:
		why, note := explain(bad)
		return ClassViolation, why, note
	case aCurrent && bCurrent:
		return ClassViolation, nil, "both were current members"
	case aCurrent:
		return ClassViolation, nil, an + " was still a current member"
	}
	why, note := explain(excused)
	return ClassZombie, why, note
}

// changes are the seqs in (lo, hi) where the node's status changes.
func (n *node) changes(lo, hi int64) []int64 {
	var xs []int64
	i := sort.Search(len(n.timeline), func(i int) bool { return n.timeline[i].from > lo })
	for ; i < len(n.timeline) && n.timeline[i].from < hi; i++ {
		xs = append(xs, n.timeline[i].from)
	}
	return xs
}

func pick(st status, segs ...segment) []segment {
	var out []segment
	for _, s := range segs {
		if s.st == st {
			out = append(out, s)
		}
	}
	return out
}

// explain joins the events and notes of segs, leaving out a note that a later one of the same
// episode extends.
func explain(segs []segment) ([]history.Event, string) {
	var why []history.Event
	var notes []string
	for _, s := range segs {
		why = append(why, s.why...)
		notes = append(notes, s.note)
	}
	var kept []string
	for i, n := range notes {
		redundant := false
		for j, m := range notes {
			if j != i && strings.HasPrefix(m, n) && (len(m) > len(n) || j < i) {
				redundant = true
			}
		}
		if !redundant {
			kept = append(kept, n)
		}
	}
	return why, strings.Join(kept, "; ")
}
