package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/traces"
)

// report is what explore prints: the JSON fields are the documented --json output.
type report struct {
	Config      string           `json:"config"`
	Exhaustive  bool             `json:"exhaustive"`
	StoppedBy   string           `json:"stopped_by"`
	Distinct    int64            `json:"distinct"`
	Generated   int64            `json:"generated"`
	Depth       int              `json:"depth"`
	Seconds     float64          `json:"seconds"`
	Workers     int              `json:"workers"`
	Collision   float64          `json:"collision_probability"`
	PeakMemory  uint64           `json:"peak_memory_bytes"`
	Properties  []propertyReport `json:"properties"`
	NeverTaken  []string         `json:"actions_never_enabled"`
	Coverage    map[string]int64 `json:"coverage"`
	ExploreNote string           `json:"note,omitempty"`
	Rounds      *roundsReport    `json:"rounds,omitempty"`
	// Reduction says how the safety search was reduced ("partial-order"), or "".
	Reduction string `json:"reduction,omitempty"`
	// EncodingCheck is what --check-encoding found: the encoders agreed on every state, or
	// EncodingMismatch says where they did not.
	EncodingCheck    string `json:"encoding_check,omitempty"`
	EncodingMismatch string `json:"encoding_mismatch,omitempty"`

	paths  []*explorer.Path[spec.World, spec.Action]
	lasso  *invariants.Lasso // the converges counterexample, written with its cycle marked
	cfg    spec.Config
	levels []int64 // distinct states per depth, for the page's chart
}

type propertyReport struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Status    string   `json:"status"`
	Statement string   `json:"statement"`
	Source    string   `json:"source"`
	Why       string   `json:"why,omitempty"`
	Expected  string   `json:"expected,omitempty"`
	Trace     []string `json:"trace"`
	// Origin is why the property is checked (invariants.Origin): promise, conformance: IMPL,
	// or vacuity guard.
	Origin string `json:"origin"`

	origin invariants.Origin

	liveness bool // a lasso, not a safety counterexample: no trace file
	// unchecked: a path whose end the replay cannot check (orphans-expire's): its trace
	// names no property.
	unchecked bool
}

func newReport(m *invariants.Model, r explorer.Report[spec.World, spec.Action]) *report {
	cfg := m.Config()
	rep := &report{
		Config: cfg.Name, Exhaustive: r.Exhaustive, StoppedBy: r.StoppedBy, Distinct: r.Distinct,
		Generated: r.Generated, Depth: r.Depth, Seconds: r.Duration.Seconds(), Workers: r.Workers,
		Collision: r.Collision, PeakMemory: r.PeakMemory, NeverTaken: r.NeverTaken,
		Coverage: map[string]int64{}, cfg: cfg, levels: r.Levels,
	}
	for _, c := range r.Coverage {
		rep.Coverage[c.Kind] = c.Count
	}
	if r.Err != nil {
		rep.ExploreNote = r.Err.Error()
	}
	for i, pr := range r.Properties {
		p := m.Props()[i]
		out := propertyReport{Name: pr.Name, Kind: pr.Kind.String(), Status: pr.Status.String(), Statement: p.Statement, Source: p.Source, Trace: []string{}}
		out.setOrigin()
		var path *explorer.Path[spec.World, spec.Action]
		if pr.Status == explorer.Violated && pr.Path != nil {
			path = pr.Path
			out.Why = m.Explain(pr.Name, pr.Path)
			out.Expected = p.ExpectedViolation(cfg)
			for _, s := range pr.Path.Steps {
				out.Trace = append(out.Trace, s.Action.Text(&cfg))
			}
		}
		rep.paths = append(rep.paths, path)
		rep.Properties = append(rep.Properties, out)
	}
	return rep
}

func (p *propertyReport) setOrigin() {
	p.origin, _ = invariants.OriginOf(p.Name)
	p.Origin = p.origin.String()
}

// failed: a violation, or a sometimes-property never reached in an exhaustive run.
func (r *report) failed() bool {
	for _, p := range r.Properties {
		if p.Status == "violated" && p.Expected == "" || p.Status == "unreached" {
			return true
		}
	}
	return r.Rounds != nil && r.Rounds.exceeded()
}

// checkedName is the property a trace of p names, which its replay checks at the end.
func checkedName(p propertyReport) string {
	if p.unchecked {
		return ""
	}
	return p.Name
}

// writePath prints a path step by step as a replayed trace renders it: the action, the
// step's events, and the lines of the world that changed.
func writePath(w io.Writer, cfg *spec.Config, p *explorer.Path[spec.World, spec.Action]) {
	acts := make([]spec.Action, len(p.Steps))
	for i, s := range p.Steps {
		acts[i] = s.Action
	}
	t := traces.New(cfg.Name, traces.Header{}, *cfg, acts)
	res, err := traces.Replay(t)
	if err != nil {
		fmt.Fprintf(w, "  (cannot replay: %v)\n", err)
		return
	}
	fmt.Fprintf(w, "  initial world:\n%s", indent(p.Init.String(), "    "))
	for i, s := range res.Steps {
		if s.Step.Check {
			continue
		}
		fmt.Fprintf(w, "  %d. %s\n", i+1, s.Step.Text)
		for _, l := range s.Got {
			fmt.Fprintf(w, "       %s\n", l)
		}
	}
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return pre + strings.Join(lines, "\n"+pre) + "\n"
}

// writeTraces writes each counterexample to DIR/<config>-<property>.trace as a v1 trace
// (package traces), which `groupcheck replay` replays.
func (r *report) writeTraces(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := r.writeConvergeTraces(dir); err != nil {
		return err
	}
	for i, p := range r.Properties {
		if r.paths[i] == nil || p.liveness && r.lasso == nil {
			continue
		}
		if p.liveness {
			h := traces.Header{
				About: []string{fmt.Sprintf("%s violated: %s", p.Name, p.Statement), "source: " + p.Source, p.Why},
				Found: fmt.Sprintf("bfs shortest prefix in the liveness graph, %d steps, then a cycle of %d", len(r.lasso.Prefix.Steps), len(r.lasso.Cycle)),
			}
			var b strings.Builder
			if err := traces.WriteLasso(&b, h, r.cfg, r.lasso); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, cleanName(r.Config+"-"+p.Name)+".trace"), []byte(b.String()), 0o644); err != nil {
				return err
			}
			continue
		}
		h := traces.Header{
			About:    []string{fmt.Sprintf("%s violated: %s", p.Name, p.Statement), "source: " + p.Source},
			Property: checkedName(p),
			Found:    fmt.Sprintf("bfs %s, %d steps, %d distinct states", r.foundBy(), len(r.paths[i].Steps), r.Distinct),
		}
		var b strings.Builder
		if err := traces.Write(&b, h, r.cfg, r.paths[i]); err != nil {
			return err
		}
		name := filepath.Join(dir, cleanName(r.Config+"-"+p.Name)+".trace")
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeConvergeTraces writes, per kind of environment event, the path of its worst time to
// converge (CONFIG-time-KIND.trace), when the rounds were measured and the time is bounded.
func (r *report) writeConvergeTraces(dir string) error {
	if r.Rounds == nil {
		return nil
	}
	for _, kind := range sortedKeys(r.Rounds.times) {
		ct := r.Rounds.times[kind]
		if ct.Path == nil {
			continue
		}
		h := traces.Header{
			About: []string{fmt.Sprintf("the worst time to converge after a %s: %d ms waited on timers (%s)", kind, ct.Millis, ct.Event),
				"each step after the event waits for the shortest timer a protocol action enabled before it waits for (invariants.ConvergeTime)"},
			Found: fmt.Sprintf("bfs slowest path in the liveness graph, %d steps after the event", len(ct.Waits)),
		}
		var b strings.Builder
		if err := traces.WriteConvergeTime(&b, h, r.cfg, ct); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, cleanName(r.Config+"-time-"+kind)+".trace"), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// checkEncoding records what --check-encoding found.
func (r *report) checkEncoding(e invariants.EncodingChecked) {
	why, world := e.Mismatch()
	if why == "" {
		r.EncodingCheck = fmt.Sprintf("World.Encode, the reflection encoder and the identity image agreed on all %s states", thousands(r.Distinct))
		return
	}
	r.EncodingMismatch = why + " in the world\n" + world
}
