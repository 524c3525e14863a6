package htmlreport

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// MaxHistoryEvents bounds the events a history's timeline draws: beyond it the page would be
// too large to open comfortably; the page says where it stopped. A caller may pass only
// that many events (the report's count says how many there were).
const MaxHistoryEvents = 4000

// HistoryPage is check-history's report as a page: the verdict per property (with the first
// finding's message), linearizability (linking porcupine's visualization when there is one),
// and the history as a timeline over real time with the findings' events in red.
func HistoryPage(name string, h history.History, r oracle.Report, porcupine string) *Page {
	p := &Page{Title: "groupcheck check-history: " + name, Verdict: "the history keeps every property"}
	if !r.OK() {
		p.Verdict, p.Bounded = "VIOLATED: the history breaks a property", true
	}
	p.Facts = []Fact{{"events", fmt.Sprint(r.Events)}, {"members", fmt.Sprint(r.Members)},
		{"violations", fmt.Sprint(len(r.Violations))}, {"zombies (classified, not failures)", fmt.Sprint(len(r.Zombies))},
		{"linearizable", r.Linearizable}}
	if len(h) > 0 {
		p.Facts = append(p.Facts, Fact{"span", time.Duration(h[len(h)-1].T - h[0].T).String()})
	}
	first := map[string]oracle.Violation{}
	for _, v := range append(slices.Clone(r.Violations), r.Zombies...) {
		if _, ok := first[v.Property]; !ok {
			first[v.Property] = v
		}
	}
	names := slices.DeleteFunc(slices.Clone(r.Checked), func(n string) bool { return n == oracle.Linearizability })
	if r.Reference != "" {
		p.Facts = append(p.Facts, Fact{"reference search", firstLine(r.Reference)})
	}
	var extra []string // well-formed: the only check of a malformed history
	for name := range first {
		if !slices.Contains(names, name) {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	names = append(names, extra...)
	for _, name := range names {
		v := Verdict{Name: name, Kind: "history", Status: "holds", Source: "oracle." + name}
		if f, ok := first[name]; ok {
			v.Statement, v.Timeline = f.Message, "h1"
			v.Status = "violated"
			if name == oracle.ReferenceSearch {
				// The states just before the event and the answers the reference allows there.
				v.Expected = r.Reference
			}
			if f.Class == oracle.ClassZombie {
				v.Expected = "a zombie: the earlier owner was cut off or fenced and not yet told (docs/protocol.md §1.12)"
			}
		}
		p.Props = append(p.Props, v)
	}
	lin := Verdict{Name: oracle.Linearizability, Kind: "history", Status: "holds", Statement: oracle.NeedsSearch + ": " + r.Linearizable,
		Source: "porcupine ordering the requests, the reference coordinator judging each order (search.Linearize)"}
	switch {
	case r.Linearizable == oracle.LinNotChecked || r.Linearizable == oracle.LinNothing:
		lin.Status = "not checked"
	case !strings.HasPrefix(r.Linearizable, oracle.LinYes):
		lin.Status = "violated"
	}
	p.Props = append(p.Props, lin)
	if porcupine != "" {
		p.Links = append(p.Links, Link{Text: "porcupine's visualization of the linearizability check", Href: porcupine})
	}
	p.Timelines = []*Timeline{HistoryTimeline("h1", name, h, r)}
	return p
}

// HistoryTimeline draws a recorded history over real time: a lane for the coordinator and
// one per node, a column per event placed at its time (spread where events crowd), callbacks
// and commits as marks, requests and commits as arrows from their begin to their end, a band
// per partition with its owners as the oracle counts them (from an assign's begin to the
// revoke's or lost's end, a crash, a restart or a close's end), and the events of each
// finding marked red with the property's name.
func HistoryTimeline(id, name string, h history.History, r oracle.Report) *Timeline {
	tl := &Timeline{ID: id, Title: name, Found: fmt.Sprintf("%d events", len(h))}
	total := max(len(h), r.Events)
	if len(h) > MaxHistoryEvents {
		h = h[:MaxHistoryEvents]
	}
	if total > len(h) {
		tl.About = append(tl.About, fmt.Sprintf("the first %d of %d events are drawn", len(h), total))
	}
	findings := map[int64][]string{}
	for _, v := range append(slices.Clone(r.Violations), r.Zombies...) {
		for _, e := range v.Events {
			findings[e.Seq] = append(findings[e.Seq], v.Class+" "+v.Property+": "+v.Message)
		}
	}
	for _, seq := range linSeqs(r.Linearizable) {
		findings[seq] = append(findings[seq], "violation linearizable: an operation no order of the reference coordinator fits (see porcupine's visualization)")
	}
	tl.Lanes = []string{"coord"}
	lane := map[string]int{}
	lane["coordinator"], lane["coord"] = 0, 0 // the harness's own notes go on the coordinator's lane
	for _, e := range h {
		if _, ok := lane[e.Node]; !ok && e.Node != "" {
			lane[e.Node] = len(tl.Lanes)
			tl.Lanes = append(tl.Lanes, e.Node)
		}
	}
	tl.X, tl.ColLabels = historyXs(h)
	tl.Init = "before the first event: nobody owns anything"
	own := newOwnership()
	begins := map[int64]int{} // interval id → its message's index
	for i, e := range h {
		col := i + 1
		own.apply(e)
		s := StepView{N: col, Text: eventText(e), Lane: lane[e.Node], Class: eventClass(e), Enabled: true,
			World: eventJSON(e) + "\n\nowned after it:\n" + own.String(), WorldHead: "the event, and who owns what after it"}
		s.Got = []string{fmt.Sprintf("seq %d at %s", e.Seq, time.Duration(e.T-h[0].T))}
		if m, ok := historyMark(e, s.Lane); ok {
			s.Marks = append(s.Marks, m)
		}
		for _, f := range findings[e.Seq] {
			s.Got = append(s.Got, f)
			prop, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(f, oracle.ClassViolation+" "), oracle.ClassZombie+" "), ":")
			s.Marks = append(s.Marks, Mark{Lane: s.Lane, Label: "✗ " + prop, Title: f, Class: "finding"})
			s.Broken = true
		}
		tl.Steps = append(tl.Steps, s)
		historyMessage(tl, begins, e, col, s.Lane)
		own.snapshot()
	}
	tl.Bands = own.bands()
	return tl
}

// historyXs places a column per event at its time, scaled to about 12 units per event on
// average, but never closer than 6 units to the one before: crowded events spread out.
func historyXs(h history.History) ([]float64, []string) {
	xs := []float64{float64(gutter + colW/2)}
	labels := []string{"start"}
	if len(h) == 0 {
		return xs, labels
	}
	span := float64(h[len(h)-1].T - h[0].T)
	width := float64(len(h)) * 12
	for _, e := range h {
		x := xs[0] + 12
		if span > 0 {
			x += float64(e.T-h[0].T) / span * width
		}
		x = max(x, xs[len(xs)-1]+6)
		xs = append(xs, x)
		labels = append(labels, shortDuration(time.Duration(e.T-h[0].T)))
	}
	return xs, labels
}

func shortDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return d.String()
}

func eventText(e history.Event) string {
	s := fmt.Sprintf("%s %s", e.Node, e.Kind)
	if e.Phase != "" {
		s += " " + string(e.Phase)
	}
	if e.Op != "" {
		s += " " + e.Op
	}
	if len(e.Parts) > 0 {
		s += " " + partsText(e.Parts)
	}
	if e.Err != "" {
		s += " err=" + e.Err
	}
	return s
}

func eventClass(e history.Event) string {
	switch e.Kind {
	case history.Start, history.Close, history.Crash, history.Cut, history.Heal, history.Mark:
		return "env"
	case history.Fenced:
		return "timer"
	}
	return "protocol"
}

func eventJSON(e history.Event) string {
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// historyMark is the tag a callback, a commit or a generation leaves on its node's lane.
func historyMark(e history.Event, lane int) (Mark, bool) {
	if e.Phase == history.End && e.Kind != history.Commit {
		return Mark{}, false
	}
	switch e.Kind {
	case history.Assign:
		return Mark{Lane: lane, Label: "+" + partsText(e.Parts), Title: eventText(e), Class: "assigned"}, true
	case history.Revoke:
		return Mark{Lane: lane, Label: "−" + partsText(e.Parts), Title: eventText(e), Class: "revoked"}, true
	case history.Lost:
		return Mark{Lane: lane, Label: "lost " + partsText(e.Parts), Title: eventText(e), Class: "lost"}, true
	case history.Generation:
		return Mark{Lane: lane, Label: fmt.Sprintf("g%d", e.Gen), Title: eventText(e), Class: "assign"}, true
	case history.Commit:
		label := "commit"
		if !e.OK() {
			label = "commit ✗"
		}
		return Mark{Lane: lane, Label: label, Title: eventText(e), Class: "commit"}, true
	case history.Crash, history.Fenced:
		return Mark{Lane: lane, Label: string(e.Kind), Title: eventText(e), Class: "fatal"}, true
	}
	return Mark{}, false
}

// historyMessage draws a request or a commit as an arrow from its node at its begin to the
// coordinator at its end; a failed one ends in a cross, one never answered runs off the end.
func historyMessage(tl *Timeline, begins map[int64]int, e history.Event, col, lane int) {
	if e.Kind != history.Request && e.Kind != history.Commit || e.ID == 0 {
		return
	}
	switch e.Phase {
	case history.Begin:
		label := e.Op
		if e.Kind == history.Commit {
			label = "OffsetCommit"
		}
		begins[e.ID] = len(tl.Messages)
		tl.Messages = append(tl.Messages, Message{FromLane: lane, ToLane: 0, From: col, To: -1, Label: label, Title: eventText(e)})
	case history.End:
		if i, ok := begins[e.ID]; ok {
			m := &tl.Messages[i]
			m.To, m.Lost = col, !e.OK()
			m.Title += " → " + eventText(e)
		}
	}
}

func partsText(p history.Parts) string {
	var out []string
	p.Each(func(topic string, part int32) { out = append(out, fmt.Sprintf("%s-%d", topic, part)) })
	slices.Sort(out)
	return strings.Join(out, " ")
}

// ownership follows what each node's callbacks say it owns, as the oracle counts it, and
// keeps a snapshot per column for the bands.
type ownership struct {
	owned  map[string]map[string]bool // node → partitions
	giving map[int64]history.Parts    // revoke and lost callbacks begun, by interval id
	cols   []map[string][]string      // per column: partition → owners, sorted
	parts  []string
}

func newOwnership() *ownership {
	o := &ownership{owned: map[string]map[string]bool{}, giving: map[int64]history.Parts{}}
	o.snapshot()
	return o
}

func (o *ownership) apply(e history.Event) {
	set := o.owned[e.Node]
	if set == nil {
		set = map[string]bool{}
		o.owned[e.Node] = set
	}
	switch {
	case e.Kind == history.Assign && e.Phase != history.End:
		e.Parts.Each(func(t string, p int32) {
			tp := fmt.Sprintf("%s-%d", t, p)
			set[tp] = true
			if !slices.Contains(o.parts, tp) {
				o.parts = append(o.parts, tp)
			}
		})
	case (e.Kind == history.Revoke || e.Kind == history.Lost) && e.Phase == history.Begin:
		o.giving[e.ID] = e.Parts // an end carries no partitions: its begin's are given up then
	case e.Kind == history.Revoke || e.Kind == history.Lost:
		parts := e.Parts
		if len(parts) == 0 {
			parts = o.giving[e.ID]
		}
		delete(o.giving, e.ID)
		parts.Each(func(t string, p int32) { delete(set, fmt.Sprintf("%s-%d", t, p)) })
	case e.Kind == history.Crash, e.Kind == history.Start, e.Kind == history.Close && e.Phase != history.Begin:
		clear(set)
	}
}

func (o *ownership) snapshot() {
	col := map[string][]string{}
	for node, set := range o.owned {
		for tp := range set {
			col[tp] = append(col[tp], node)
		}
	}
	for tp := range col {
		slices.Sort(col[tp])
	}
	o.cols = append(o.cols, col)
}

func (o *ownership) String() string {
	var nodes []string
	for n := range o.owned {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes)
	var b strings.Builder
	for _, n := range nodes {
		var tps []string
		for tp := range o.owned[n] {
			tps = append(tps, tp)
		}
		slices.Sort(tps)
		fmt.Fprintf(&b, "%-10s (%s)\n", n, strings.Join(tps, " "))
	}
	return b.String()
}

func (o *ownership) bands() []Band {
	parts := slices.Clone(o.parts)
	slices.Sort(parts)
	var out []Band
	for _, tp := range parts {
		b := Band{Partition: tp}
		for c, col := range o.cols {
			b.add(c, col[tp])
		}
		out = append(out, b)
	}
	return out
}

// linSeqs are the events a failed linearizability check names ("[seq 275–278]"): the
// operations no order of the reference fits, and the last one that did.
func linSeqs(detail string) []int64 {
	if strings.HasPrefix(detail, oracle.LinYes) {
		return nil
	}
	var out []int64
	for _, m := range seqRange.FindAllStringSubmatch(detail, -1) {
		for _, g := range m[1:] {
			if n, err := strconv.ParseInt(g, 10, 64); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

var seqRange = regexp.MustCompile(`\[seq (\d+)–(\d+)\]`)

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
