package oracle

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/groupcheck/groupcheck/oracle/search"
)

// Check checks a history against every property and returns the report, deterministic for a
// given history. A history that does not validate, or that has nothing to check (no event
// but marks), is reported as one WellFormed violation, and nothing else is checked in it.
func Check(h history.History, o Options) Report {
	r := Report{Events: len(h), Linearizable: LinNotChecked}
	err := h.Validate()
	if err == nil && !checkable(h) {
		err = ErrNothingToCheck
	}
	if err != nil {
		r.Violations = []Violation{{Property: WellFormed, Class: ClassViolation, Message: err.Error()}}
		return r
	}
	r = scanHistory(h, o.Settle).result()
	requests, searchable := 0, 0
	for _, e := range h {
		if e.Kind == history.Request {
			requests++
		}
		if searched(e) {
			searchable++
		}
	}
	switch {
	case requests == 0:
		r.Linearizable = LinNothing
	case o.Linearizability != nil:
		r.Linearizable = linearizable(o.Linearizability(h))
		r.Checked = append(r.Checked, Linearizability)
	}
	if !o.NoReference && searchable > 0 {
		ro := o.referenceOptions()
		ro.Shape = search.ShapeOf(h)
		sc := simplestSearch(ro)
		replay := replayHistory(h)
		if err := replay(sc.Add); err != nil {
			r.Reference = "not searched: " + err.Error()
			return r
		}
		res, v, err := judgeReference(sc.Result(), ro, replay)
		if err != nil {
			r.Reference = "not searched: " + err.Error()
			return r
		}
		r.applyReference(res, v)
	}
	return r
}

// result is the report of a finished scan, linearizability not checked.
func (s *scan) result() Report {
	r := Report{Events: s.events, Linearizable: LinNotChecked}
	for _, n := range s.nodes {
		if n.member {
			r.Members++
		}
	}
	for _, v := range s.report() {
		if v.Class == ClassZombie {
			r.Zombies = append(r.Zombies, v)
		} else {
			r.Violations = append(r.Violations, v)
		}
	}
	r.Checked = append(r.Checked, Plain...)
	if s.settle != nil {
		r.Checked = append(r.Checked, RebalanceCompletes)
	}
	return r
}

// CheckReader reads a JSON-lines history (history.Reader: strict, the error names the line and
// the field) and checks it. Without Options.Linearizability it streams: it reads the input
// twice (a file directly, any other reader through a temporary file) and holds only live
// state, never the history; Options.LinearizabilityStream and the reference search's simplest
// explanations are fed in the second pass (the whole search reads it a third time where those
// find none). With only Options.Linearizability, the history is read into memory for the search.
func CheckReader(r io.Reader, o Options) (Report, error) {
	if o.Linearizability != nil && o.LinearizabilityStream == nil {
		h, err := history.Read(progressReader(r, o.Progress, 0))
		if err != nil {
			return Report{}, err
		}
		if !checkable(h) {
			return Report{}, ErrNothingToCheck
		}
		return Check(h, o), nil
	}
	rs, done, err := rewindable(r)
	if err != nil {
		return Report{}, err
	}
	defer done()
	b := newLookaheadBuilder()
	requests, searchable := 0, 0
	var shape search.Shape
	events, err := stream(progressReader(rs, o.Progress, 1), func(e history.Event) {
		shape.Add(e)
		if e.Kind == history.Request {
			requests++
		}
		if searched(e) {
			searchable++
		}
		b.add(e)
	})
	if err != nil {
		return Report{}, err
	}
	if events == 0 {
		return Report{}, ErrNothingToCheck
	}
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return Report{}, fmt.Errorf("history: rewinding for the second pass: %v", err)
	}
	s := newScan(b.la)
	s.settleWithin(o.Settle)
	add := s.add
	var lc StreamChecker
	if o.LinearizabilityStream != nil && requests > 0 {
		lc = o.LinearizabilityStream()
		if sh, ok := lc.(shaped); ok {
			sh.SetShape(&shape)
		}
		add = func(e history.Event) {
			lc.Add(e) // a refused event is remembered for the verdict
			s.add(e)
		}
	}
	var sc *search.Checker
	var searchErr error
	var ro search.Options
	if !o.NoReference && searchable > 0 {
		ro = o.referenceOptions()
		ro.Shape = &shape
		sc = simplestSearch(ro)
		plain := add
		add = func(e history.Event) {
			if searchErr == nil {
				searchErr = sc.Add(e)
			}
			plain(e)
		}
	}
	if _, err := stream(progressReader(rs, o.Progress, 2), add); err != nil {
		return Report{}, err
	}
	s.finish()
	rep := s.result()
	if requests == 0 {
		rep.Linearizable = LinNothing
	}
	if lc != nil {
		ok, detail, err := lc.Verdict()
		if a, is := lc.(again); is && err == nil && a.Again() {
			if err = replayInto(rs, o.Progress, lc.Add); err == nil {
				ok, detail, err = lc.Verdict()
			}
		}
		rep.Linearizable = linearizable(ok, detail, err)
		rep.Checked = append(rep.Checked, Linearizability)
	}
	if sc != nil {
		if searchErr != nil {
			return Report{}, searchErr
		}
		replay := func(add func(history.Event) error) error { return replayInto(rs, o.Progress, add) }
		res, v, err := judgeReference(sc.Result(), ro, replay)
		if err != nil {
			return Report{}, err
		}
		rep.applyReference(res, v)
	}
	return rep, nil
}

// replayInto reads the history again from its start into add (pass 3: a search whose first
// pass found no explanation).
func replayInto(rs io.ReadSeeker, progress func(int, int64), add func(history.Event) error) error {
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("history: rewinding for the whole search: %v", err)
	}
	var addErr error
	_, err := stream(progressReader(rs, progress, 3), func(e history.Event) {
		if addErr == nil {
			addErr = add(e)
		}
	})
	if err == nil {
		err = addErr
	}
	return err
}

// stream reads every event of r into fn and counts the checkable ones.
func stream(r io.Reader, fn func(history.Event)) (int, error) {
	rd := history.NewReader(r)
	n := 0
	for {
		e, err := rd.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		if e.Kind != history.Mark {
			n++
		}
		fn(e)
	}
}

// rewindable returns r as something that can be read twice: itself if it seeks (a file),
// else a temporary file it was copied to, removed by done.
func rewindable(r io.Reader) (io.ReadSeeker, func(), error) {
	if rs, ok := r.(io.ReadSeeker); ok {
		if _, err := rs.Seek(0, io.SeekCurrent); err == nil {
			return rs, func() {}, nil
		}
	}
	f, err := os.CreateTemp("", "groupcheck-history-*.jsonl")
	if err != nil {
		return nil, nil, fmt.Errorf("history: a temporary file for the second pass: %v", err)
	}
	done := func() { f.Close(); os.Remove(f.Name()) }
	if _, err := io.Copy(f, r); err != nil {
		done()
		return nil, nil, fmt.Errorf("history: %v", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		done()
		return nil, nil, fmt.Errorf("history: %v", err)
	}
	return f, done, nil
}

// ErrNothingToCheck is an empty history, or one with only harness marks: no report can say
// anything about it, and "ok" would be a lie.
var ErrNothingToCheck = errors.New("nothing to check: the history has no events other than marks")

// checkable reports whether h has an event the checker reads (anything but a Mark).
func checkable(h history.History) bool {
	for _, e := range h {
		if e.Kind != history.Mark {
			return true
		}
	}
	return false
}

func linearizable(ok bool, detail string, err error) string {
	switch {
	case err != nil:
		return LinNotChecked + ": " + err.Error()
	case ok:
		return LinYes
	case detail == "":
		return linNo
	}
	return linNo + ": " + detail
}

// finding is a violation before partitions with the same story are merged: msg renders the
// message for a list of partitions.
type finding struct {
	prop, class string
	at          int64 // the seq at which it became evident, for the report's order
	parts       []part
	events      []history.Event
	msg         func(parts string) string
}

func (s *scan) found(f finding) { s.findings = append(s.findings, f) }

// report merges findings that differ only in their partitions (a callback over many
// partitions tells one story) and orders them by when they became evident.
func (s *scan) report() []Violation {
	type merged struct {
		f     finding
		parts []part
	}
	byKey := map[string]*merged{}
	var keys []string
	for _, f := range s.findings {
		f.events = bySeq(f.events)
		k := key(f)
		if m := byKey[k]; m != nil {
			m.parts = append(m.parts, f.parts...)
			continue
		}
		byKey[k] = &merged{f: f, parts: f.parts}
		keys = append(keys, k)
	}
	out := make([]Violation, 0, len(keys))
	ats := make([]int64, 0, len(keys))
	for _, k := range keys {
		m := byKey[k]
		sort.Slice(m.parts, func(i, j int) bool { return m.parts[i].less(m.parts[j]) })
		out = append(out, Violation{Property: m.f.prop, Class: m.f.class, Message: m.f.msg(joinParts(m.parts)), Events: m.f.events})
		ats = append(ats, m.f.at)
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := idx[i], idx[j]
		if ats[a] != ats[b] {
			return ats[a] < ats[b]
		}
		if out[a].Property != out[b].Property {
			return out[a].Property < out[b].Property
		}
		return out[a].Message < out[b].Message
	})
	sorted := make([]Violation, len(out))
	for i, k := range idx {
		sorted[i] = out[k]
	}
	return sorted
}

// key identifies a finding's story: property, class, events, and the message with the
// partitions left out.
func key(f finding) string {
	var b strings.Builder
	b.WriteString(f.prop + "|" + f.class + "|")
	for _, e := range f.events {
		b.WriteString(strconv.FormatInt(e.Seq, 10) + ",")
	}
	b.WriteString("|" + f.msg("\x00"))
	return b.String()
}

// bySeq sorts events by Seq and drops repeats.
func bySeq(es []history.Event) []history.Event {
	sort.Slice(es, func(i, j int) bool { return es[i].Seq < es[j].Seq })
	out := es[:0]
	for _, e := range es {
		if len(out) == 0 || e.Seq != out[len(out)-1].Seq {
			out = append(out, e)
		}
	}
	return out
}
