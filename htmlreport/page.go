package htmlreport

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
)

// Page is one run's report: what was run, how far it got, the verdicts, the charts and the
// counterexamples. The commands fill it (cmd/groupcheck); Write renders it, the answer first:
// the summary, the counterexamples, then the verdict table and the charts.
type Page struct {
	Title   string
	Command string // the command line that made it, for the reader to run again
	World   string // the world's config text
	// Verdict is the run's one-line outcome ("exhaustive: every reachable state was explored",
	// "BOUNDED: stopped by max-states", "random walks: finding nothing is not a proof").
	Verdict string
	Bounded bool
	Facts   []Fact
	Props   []Verdict
	Notes   []string
	Charts  []Chart
	Never   []string // actions never enabled
	// NeverTitle heads Never when it is not "Actions never enabled" (a simulation's are
	// never taken).
	NeverTitle string
	Timelines  []*Timeline
	Links      []Link
	_          struct{}
}

// Fact is one figure of the run's header: "distinct states" 693,375.
type Fact struct{ Name, Value string }

// Verdict is one property's row in the verdict table.
type Verdict struct {
	Name, Kind, Status, Statement, Source string
	// Expected says why a violation does not fail the run (the zombie window); "" otherwise.
	Expected string
	// Timeline is the id of its counterexample's timeline in the page, "" for none.
	Timeline string
}

// StatusClass is the verdict's class in the table: holds, violated, expected, unknown.
func (v Verdict) StatusClass() string {
	switch {
	case v.Expected != "" && v.Status == "violated":
		return "expected"
	case v.Status == "violated" || v.Status == "unreached":
		return "violated"
	case v.Status == "holds":
		return "holds"
	}
	return "unknown"
}

// Link is a link to a file beside the report (porcupine's visualization).
type Link struct{ Text, Href string }

//go:embed page.html.tmpl
var pageTemplate string

//go:embed report.css
var css string

//go:embed report.js
var script string

var tmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	"svg":  func(tl *Timeline) template.HTML { return tl.svg() },
	"bars": func(c Chart) template.HTML { return c.svg() },
	"inc":  func(i int) int { return i + 1 },
	"join": strings.Join,
}).Parse(pageTemplate))

// Write renders the page as one self-contained HTML file: styles, script and drawings inline,
// nothing fetched, so that it opens from disk in any browser. It is also well-formed XML
// (XHTML-compatible: void elements closed, style and script in CDATA sections), which the
// tests check with encoding/xml.
func Write(w io.Writer, p *Page) error {
	ids := map[string]bool{}
	for _, tl := range p.Timelines {
		if ids[tl.ID] {
			return fmt.Errorf("htmlreport: two timelines with id %q", tl.ID)
		}
		ids[tl.ID] = true
	}
	heads := p.headings()
	// What fails the run is read first; the expected violations follow, in the run's order.
	order := slices.Clone(p.Timelines)
	slices.SortStableFunc(order, func(a, b *Timeline) int { return heads[a.ID].rank() - heads[b.ID].rank() })
	return tmpl.Execute(w, struct {
		*Page
		Timelines []*Timeline
		Headings  map[string]Heading
		CSS       template.CSS
		Script    template.JS
	}{p, order, heads, template.CSS(css), template.JS(script)})
}
