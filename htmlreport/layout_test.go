package htmlreport

import (
	"bytes"
	"fmt"
	"html/template"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/traces"
)

// runPage is a page shaped as explore's of the default world: its facts and config, a verdict
// row per property, two charts of some thirty bars, and two counterexamples, the first an
// expected violation (the session-expiry zombie window).
func runPage(t *testing.T) *Page {
	t.Helper()
	zombie, zres := loadTrace(t, "../traces/scenarios/session-expiry-zombie.trace")
	pause, pres := loadTrace(t, "../traces/scenarios/pause-zombie-kafka.trace")
	cfg := zombie.Config
	p := &Page{Title: "groupcheck explore: " + cfg.Name, Command: "groupcheck explore --html run.html", World: cfg.Format(),
		Verdict: "exhaustive: every reachable state was explored",
		Facts: []Fact{{"distinct states", "693,375"}, {"generated", "1,780,188"}, {"depth", "103"},
			{"time", "46.0 s on 2 workers"}, {"fingerprint collision probability", "≤ 1.3e-08"}, {"peak memory", "43 MiB"}},
		Timelines: []*Timeline{NewTimeline("tl1", zombie, zres), NewTimeline("tl2", pause, pres)}}
	violated := map[string]string{}
	for i, res := range []*traces.Result{zres, pres} {
		for _, s := range res.Steps {
			for _, v := range s.Violations {
				if violated[v.Property] == "" {
					violated[v.Property] = fmt.Sprintf("tl%d", i+1)
				}
			}
		}
	}
	for _, pr := range invariants.NewModel(cfg).Props() {
		if id := violated[pr.Name]; id != "" {
			p.Props = append(p.Props, PropertyVerdict(pr.Name, "violated", cfg, id))
		} else {
			p.Props = append(p.Props, PropertyVerdict(pr.Name, "holds", cfg, ""))
		}
	}
	coverage, levels := Chart{Title: "Coverage: transitions taken per action kind", Log: true}, Chart{Title: "Distinct states per depth"}
	for i, k := range spec.KindNames() {
		coverage.Rows = append(coverage.Rows, Bar{Label: k, Value: float64(i * 1000), Text: strconv.Itoa(i * 1000), Zero: i == 0})
	}
	for d := range 30 {
		levels.Rows = append(levels.Rows, Bar{Label: fmt.Sprintf("depth %d", d), Value: float64(d * (30 - d)), Text: strconv.Itoa(d * (30 - d))})
	}
	p.Charts = []Chart{coverage, levels}
	return p
}

// TestRunPageOrder: a run's page opens with its answer — the summary line, then each
// counterexample, its heading saying whether the violation is expected here and why — and only
// then the verdict table and the figures.
func TestRunPageOrder(t *testing.T) {
	p := runPage(t)
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if _, err := parseXML(b.Bytes()); err != nil {
		t.Fatalf("not well-formed: %v", err)
	}
	order := []string{`<p class="summary">`, `<section class="timeline" id="tl1"`, `<section class="timeline" id="tl2"`, `<section id="verdicts">`, `<section id="charts">`}
	at := -1
	for _, mark := range order {
		i := strings.Index(s, mark)
		if i < 0 {
			t.Fatalf("the page lacks %s", mark)
		}
		if i < at {
			t.Errorf("%s comes before what should precede it (want the order %s)", mark, strings.Join(order, ", "))
		}
		at = i
	}
	i := slices.IndexFunc(p.Props, func(v Verdict) bool { return v.Name == "exclusive-ownership-strict" })
	if i < 0 || p.Props[i].Expected == "" || p.Props[i].Timeline != "tl1" {
		t.Fatalf("the fixture's first counterexample is not the expected violation of exclusive-ownership-strict")
	}
	why := template.HTMLEscapeString(p.Props[i].Expected)
	for _, want := range []string{
		`<span class="n expected">1 violated as expected here</span>`,
		`<h2 class="cxhead">exclusive-ownership-strict <span class="tag expected">violated, expected here</span><span class="why">` + why + `</span></h2>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

// TestSummary: the summary counts the verdicts by outcome in the order a reader asks —
// failures (violated, unreached), expected violations, the undecided, what holds — and keeps
// first-seen order within each.
func TestSummary(t *testing.T) {
	p := &Page{Props: []Verdict{
		{Name: "a", Status: "holds"}, {Name: "b", Status: "unknown"}, {Name: "c", Status: "violated", Expected: "the zombie window"},
		{Name: "d", Status: "holds"}, {Name: "e", Status: "unreached"}, {Name: "f", Status: "violated"}, {Name: "g", Status: "not seen"},
	}}
	var got []string
	for _, c := range p.Summary() {
		got = append(got, fmt.Sprintf("%d %s (%s)", c.N, c.Label, c.Class))
	}
	want := []string{"1 unreached (violated)", "1 violated (violated)", "1 violated as expected here (expected)", "1 unknown (unknown)", "1 not seen (unknown)", "2 holds (holds)"}
	if !slices.Equal(got, want) {
		t.Errorf("Summary() = %q, want %q", got, want)
	}
}

// TestHeadingsOfAHistory: a timeline that holds several findings (a history's) keeps its own
// title and names each finding in its tag; an expected one carries its reason.
func TestHeadingsOfAHistory(t *testing.T) {
	p := &Page{Timelines: []*Timeline{{ID: "h1", Title: "late-commit"}}, Props: []Verdict{
		{Name: "commit-from-owner", Status: "violated", Timeline: "h1"},
		{Name: "exclusive-ownership", Status: "violated", Expected: "a zombie", Timeline: "h1"},
		{Name: "well-formed", Status: "holds"},
	}}
	got := p.headings()["h1"]
	want := Heading{Text: "late-commit", Tags: []Tag{
		{Name: "commit-from-owner", Status: "violated", Class: "violated"},
		{Name: "exclusive-ownership", Status: "violated, expected here", Class: "expected", Why: "a zombie"},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("headings()[h1] = %+v, want %+v", got, want)
	}
}
