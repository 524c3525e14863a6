package htmlreport

import (
	"fmt"
	"io"

	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/traces"
)

// TracePage is the page of one replayed trace: its world, the properties its checks find
// violated (and the lasso's converges), and its timeline.
func TracePage(t *traces.Trace, res *traces.Result) *Page {
	p := &Page{Title: fmt.Sprintf("trace %s (%s)", t.Name, t.Config.Name), World: t.Config.Format(),
		Verdict: "replays: the model does what the file says"}
	if d := res.Divergence; d != nil {
		p.Verdict, p.Bounded = "DIVERGES at "+d.Label+": "+d.Reason, true
	}
	if res.Note != "" {
		p.Notes = append(p.Notes, res.Note)
	}
	p.Facts = append(p.Facts, Fact{"steps", fmt.Sprint(len(t.Actions()))})
	if t.Header.Property != "" {
		p.Facts = append(p.Facts, Fact{"property", t.Header.Property})
	}
	if t.Header.Found != "" {
		p.Facts = append(p.Facts, Fact{"found", t.Header.Found})
	}
	tl := NewTimeline("tl1", t, res)
	seen := map[string]bool{}
	for _, s := range res.Steps {
		for _, v := range s.Violations {
			if !seen[v.Property] {
				seen[v.Property] = true
				p.Props = append(p.Props, PropertyVerdict(v.Property, "violated", t.Config, tl.ID))
			}
		}
	}
	if t.Header.Property == invariants.ConvergesName && res.Divergence == nil {
		p.Props = append(p.Props, PropertyVerdict(invariants.ConvergesName, "violated", t.Config, tl.ID))
	}
	p.Timelines = []*Timeline{tl}
	return p
}

// WriteTrace writes a replayed trace's page (groupcheck show --format html).
func WriteTrace(w io.Writer, t *traces.Trace, res *traces.Result) error {
	return Write(w, TracePage(t, res))
}

// PropertyVerdict is a property's row: its statement and source from the registry, and
// whether its violation is the expected one in cfg.
func PropertyVerdict(name, status string, cfg spec.Config, timeline string) Verdict {
	v := Verdict{Name: name, Status: status, Timeline: timeline}
	if name == invariants.ConvergesName {
		v.Kind, v.Statement, v.Source = "eventually", invariants.ConvergesStatement, invariants.ConvergesSource
		return v
	}
	if prop, ok := invariants.Lookup(name); ok {
		v.Kind, v.Statement, v.Source = prop.Kind.String(), prop.Statement, prop.Source
		if status == "violated" {
			v.Expected = prop.ExpectedViolation(cfg)
		}
	}
	return v
}
