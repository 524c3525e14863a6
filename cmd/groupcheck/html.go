package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/htmlreport"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/traces"
)

// writePage writes a report page to a file (--html FILE).
func writePage(file string, p *htmlreport.Page) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := htmlreport.Write(w, p); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// commandLine is how the page says it was made: the command and its arguments.
func commandLine(cmd string, args []string) string {
	return strings.Join(append([]string{"groupcheck", cmd}, args...), " ")
}

// page is explore's report as a page: the header, a timeline per counterexample (its
// property's explanation first), the verdicts, and coverage, the states per depth and the
// rounds figures as charts.
func (r *report) page(cmd string) *htmlreport.Page {
	p := &htmlreport.Page{Title: "groupcheck explore: " + r.Config, Command: cmd, World: r.cfg.Format(),
		Verdict: "exhaustive: every reachable state was explored"}
	if !r.Exhaustive {
		p.Verdict, p.Bounded = "BOUNDED: stopped by "+r.StoppedBy+"; holds means held in the states explored", true
	}
	p.Facts = []htmlreport.Fact{
		{Name: "distinct states", Value: thousands(r.Distinct)},
		{Name: "generated", Value: thousands(r.Generated)},
		{Name: "depth", Value: fmt.Sprint(r.Depth)},
		{Name: "time", Value: fmt.Sprintf("%.1f s on %d workers", r.Seconds, r.Workers)},
		{Name: "fingerprint collision probability", Value: fmt.Sprintf("≤ %.2g", r.Collision)},
	}
	if r.PeakMemory > 0 {
		p.Facts = append(p.Facts, htmlreport.Fact{Name: "peak memory", Value: fmt.Sprintf("%.0f MiB", float64(r.PeakMemory)/(1<<20))})
	}
	if r.ExploreNote != "" {
		p.Notes = append(p.Notes, r.ExploreNote)
	}
	for i, pr := range r.Properties {
		v := htmlreport.Verdict{Name: pr.Name, Kind: pr.Kind, Status: pr.Status, Statement: pr.Statement, Source: pr.Source, Expected: pr.Expected}
		if tl := r.timeline(i, fmt.Sprintf("tl%d", i+1)); tl != nil {
			v.Timeline = tl.ID
			if pr.Why != "" {
				tl.About = append([]string{pr.Why}, tl.About...)
			}
			p.Timelines = append(p.Timelines, tl)
		}
		p.Props = append(p.Props, v)
	}
	p.Never = r.NeverTaken
	p.Charts = append(p.Charts, coverageChart("Coverage: transitions taken per action kind", r.Coverage))
	if len(r.levels) > 1 {
		p.Charts = append(p.Charts, levelsChart(r.levels))
	}
	if r.Rounds != nil {
		p.Charts = append(p.Charts, r.Rounds.charts()...)
	}
	return p
}

// timeline is the i'th property's counterexample (or lasso) replayed as a timeline; nil for
// none.
func (r *report) timeline(i int, id string) *htmlreport.Timeline {
	if r.paths[i] == nil {
		return nil
	}
	p := r.Properties[i]
	var t *traces.Trace
	if p.liveness && r.lasso != nil {
		t = traces.NewLasso(r.Config, traces.Header{}, r.cfg, r.lasso)
	} else {
		acts := make([]spec.Action, len(r.paths[i].Steps))
		for j, s := range r.paths[i].Steps {
			acts[j] = s.Action
		}
		t = traces.New(r.Config, traces.Header{Property: checkedName(p)}, r.cfg, acts)
	}
	tl := replayedTimeline(id, t)
	if tl == nil {
		return nil
	}
	tl.Found = fmt.Sprintf("shortest counterexample, %d steps", len(p.Trace))
	if p.liveness {
		tl.Found = fmt.Sprintf("lasso, %d steps", len(p.Trace))
	}
	return tl
}

// coverageChart is the transitions (or walk steps) taken per action kind, on a log scale; a
// kind never enabled is a marked empty bar.
func coverageChart[N int | int64](title string, cov map[string]N) htmlreport.Chart {
	c := htmlreport.Chart{Title: title, Log: true,
		Note: "log scale; a red, empty bar is an action never taken in this world (often by design: its budget is zero)"}
	for _, k := range spec.KindNames() {
		n, ok := cov[k]
		if !ok {
			continue
		}
		c.Rows = append(c.Rows, htmlreport.Bar{Label: k, Value: float64(n), Text: thousands(n), Zero: n == 0})
	}
	return c
}

// levelsChart is the distinct states found at each depth, the shape of the BFS.
func levelsChart(levels []int64) htmlreport.Chart {
	c := htmlreport.Chart{Title: "Distinct states per depth"}
	step := max(1, (len(levels)+29)/30)
	for d := 0; d < len(levels); d += step {
		var n int64
		for e := d; e < min(d+step, len(levels)); e++ {
			n += levels[e]
		}
		label := fmt.Sprint(d)
		if step > 1 {
			label = fmt.Sprintf("%d–%d", d, min(d+step, len(levels))-1)
		}
		c.Rows = append(c.Rows, htmlreport.Bar{Label: "depth " + label, Value: float64(n), Text: thousands(n)})
	}
	return c
}

// charts are the rounds figures: the worst case per environment event, one chart per figure.
func (r *roundsReport) charts() []htmlreport.Chart {
	kinds := sortedKeys(r.ByEvent)
	figs := []struct {
		title string
		get   func(figuresReport) int
	}{
		{"Worst-case rebalances after one event, until converged again", func(f figuresReport) int { return f.Rebalances }},
		{"Worst-case steps", func(f figuresReport) int { return f.Steps }},
		{"Worst-case partition-steps without an owner", func(f figuresReport) int { return f.Unavailability }},
		{"Worst-case time to converge (ms waited on timers)", func(f figuresReport) int { return f.Time }},
	}
	var out []htmlreport.Chart
	for i, fg := range figs {
		c := htmlreport.Chart{Title: fg.title}
		if i == 0 {
			c.Note = fmt.Sprintf("%d events measured; overall %s rebalances (%s)", r.Changes, figure(r.Rebalances), r.Witness)
			if r.MaxRounds > 0 {
				c.Note += fmt.Sprintf("; --max-rounds %d %s", r.MaxRounds, map[bool]string{true: "EXCEEDED", false: "met"}[r.Exceeded])
			}
		}
		for _, k := range kinds {
			v := fg.get(r.ByEvent[k])
			bar := htmlreport.Bar{Label: k, Value: float64(v), Text: figure(v)}
			if v == invariants.Unbounded {
				bar.Value, bar.Zero = 0, true
			}
			c.Rows = append(c.Rows, bar)
		}
		out = append(out, c)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// thousands prints n with thousands separators: 693375 → 693,375.
func thousands[N int | int64](n N) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// page is simulate's report as a page: the seed and counts, a row per property (violated in
// some walk, or not seen: a sample, not a proof), the walks per finding as a chart, and each
// finding's shrunk trace as a timeline.
func (r *simReport) page(cmd string, cfg spec.Config) *htmlreport.Page {
	p := &htmlreport.Page{Title: "groupcheck simulate: " + r.Config, Command: cmd, World: cfg.Format(), Bounded: true,
		Verdict: "random walks: " + r.Note}
	p.Facts = []htmlreport.Fact{
		{Name: "seed", Value: fmt.Sprint(r.Seed)},
		{Name: "walks", Value: thousands(r.Walks)},
		{Name: "steps", Value: thousands(r.Steps)},
		{Name: "walks ended in a deadlock", Value: thousands(r.Deadlocks)},
		{Name: "time", Value: fmt.Sprintf("%.1f s", r.Seconds)},
	}
	found := map[string]int{}
	for i, v := range r.Violations {
		found[v.Property] = i
	}
	chart := htmlreport.Chart{Title: "Walks that violated each property"}
	names := []string{}
	for _, pr := range invariants.NewModel(cfg).Props() {
		names = append(names, pr.Name)
	}
	if invariants.LivenessUndefined(cfg) == "" {
		names = append(names, invariants.ConvergesName)
	}
	for _, name := range names {
		i, ok := found[name]
		if !ok {
			p.Props = append(p.Props, htmlreport.PropertyVerdict(name, "not seen", cfg, ""))
			continue
		}
		v := r.Violations[i]
		id := fmt.Sprintf("tl%d", i+1)
		row := htmlreport.PropertyVerdict(name, "violated", cfg, "")
		if tl := replayedTimeline(id, r.found[i]); tl != nil {
			tl.Found = fmt.Sprintf("first in walk %d of %d (seed %d); %d walks in all; %d steps", v.Walk, r.Walks, r.Seed, v.Count, v.Steps)
			p.Timelines = append(p.Timelines, tl)
			row.Timeline = id
		}
		row.Expected = v.Expected
		p.Props = append(p.Props, row)
		chart.Rows = append(chart.Rows, htmlreport.Bar{Label: name, Value: float64(v.Count), Text: thousands(v.Count)})
	}
	if len(chart.Rows) > 0 {
		p.Charts = append(p.Charts, chart)
	}
	p.Never, p.NeverTitle = r.NeverTaken, "Actions no walk took"
	if len(r.Coverage) > 0 {
		p.Charts = append(p.Charts, coverageChart("Coverage: walk steps per action kind", r.Coverage))
	}
	return p
}

// porcupineFile is where check-history --html FILE puts porcupine's visualization: beside
// the report, which links it.
func porcupineFile(page string) string {
	return strings.TrimSuffix(page, ".html") + ".porcupine.html"
}

// writeHistoryPage writes check-history's page: the history is read again from its file
// (standard input was read once, by the check).
func writeHistoryPage(file, path string, r oracle.Report) error {
	if path == "-" {
		return fmt.Errorf("--html needs the history in a FILE: standard input can be read only once")
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var h history.History // only the events the page draws: a history may be far larger
	for rd := history.NewReader(f); len(h) < htmlreport.MaxHistoryEvents; {
		e, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		h = append(h, e)
	}
	lin := ""
	if r.Linearizable != oracle.LinYes && r.Linearizable != oracle.LinNotChecked && r.Linearizable != oracle.LinNothing {
		if _, err := os.Stat(porcupineFile(file)); err == nil {
			lin = filepath.Base(porcupineFile(file))
		}
	}
	return writePage(file, htmlreport.HistoryPage(filepath.Base(path), h, r, lin))
}

// replayedTimeline is the timeline of a trace built from a path: its expected blocks written
// first (traces.Rewrite), so that the replay compares like with like and checks a lasso's
// cycle; nil if it does not replay.
func replayedTimeline(id string, t *traces.Trace) *htmlreport.Timeline {
	t, err := traces.Rewrite(t)
	if err != nil {
		return nil
	}
	res, err := traces.Replay(t)
	if err != nil {
		return nil
	}
	return htmlreport.NewTimeline(id, t, res)
}
