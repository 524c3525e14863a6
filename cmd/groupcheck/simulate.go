package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/simulate"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/traces"
)

// simReport is simulate's result; the JSON fields are its --json output.
type simReport struct {
	Config     string          `json:"config"`
	Seed       uint64          `json:"seed"`
	Depth      int             `json:"depth"`
	Walks      int             `json:"walks"`                 // walks taken (this shard's)
	Shard      string          `json:"shard,omitempty"`       // "I/N" when sharded
	TotalWalks int             `json:"total_walks,omitempty"` // walks of the whole run when sharded
	Steps      int             `json:"steps"`
	Deadlocks  int             `json:"deadlocks"`
	Seconds    float64         `json:"seconds"`             // merged: the sum over shards
	Coverage   map[string]int  `json:"coverage"`            // steps taken per action kind
	NeverTaken []string        `json:"actions_never_taken"` // kinds no walk took
	Violations []simFinding    `json:"violations"`
	Note       string          `json:"note"`
	found      []*traces.Trace // per finding: its shrunk trace, in its walk's swarm config
}

type simFinding struct {
	Property string `json:"property"`
	Expected string `json:"expected,omitempty"`
	Walk     int    `json:"walk"`
	Count    int    `json:"count"`
	Steps    int    `json:"steps"`                // of the shrunk trace
	Trace    string `json:"trace,omitempty"`      // the file --out wrote
	Text     string `json:"trace_text,omitempty"` // the trace itself, for merge and readers of --json
}

func simulateCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("simulate", stderr)
	preset := fs.String("preset", "", "a built-in world; default "+spec.DefaultPreset)
	config := fs.String("config", "", "a world in the config-file format")
	mutant := fs.String("mutant", "", "switch on a named fault")
	seed := fs.Uint64("seed", 0, "the seed (0 = pick one from the clock and print it)")
	walks := fs.Int("walks", 1000, "number of random walks")
	depth := fs.Int("depth", 200, "steps per walk at most")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	out := fs.String("out", "", "directory to write each property's first (shrunk) violation to")
	shardFlag := fs.String("shard", "", "take only shard I/N of the walks (N alone: I from "+jobIndexVar+")")
	html := fs.String("html", "", "write the run's report as one self-contained HTML page to this file")
	showExpected := fs.Bool("show-expected", false, "also print the trace of each expected violation (by default: its reason, in one line)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	sh, err := parseShard(*shardFlag, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck simulate: %v\n", err)
		return 2
	}
	if err := positional(fs, 0); err != nil {
		fmt.Fprintf(stderr, "groupcheck simulate: %v\n", err)
		return 2
	}
	if *walks < 1 || *depth < 1 {
		fmt.Fprintf(stderr, "groupcheck simulate: --walks %d --depth %d: want each 1 or more\n", *walks, *depth)
		return 2
	}
	cfg, err := loadWorld(*preset, *config, *mutant)
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck simulate: %v\n", err)
		return 2
	}
	if *seed == 0 {
		if sh != whole {
			fmt.Fprintln(stderr, "groupcheck simulate: --shard needs --seed: every shard must take the walks of one seed")
			return 2
		}
		*seed = uint64(time.Now().UnixNano())
	}
	prog := newProgress(stderr)
	rep := runWalks(cfg, *seed, *walks, *depth, sh, prog)
	prog.Done()
	if *html != "" {
		if err := writePage(*html, rep.page(commandLine("simulate", args), cfg)); err != nil {
			fmt.Fprintf(stderr, "groupcheck simulate: %v\n", err)
			return 2
		}
	}
	return rep.emit("simulate", *out, *asJSON, *showExpected, stdout, stderr)
}

// emit writes the findings to dir (if set) and prints the report; it returns the exit status.
func (r *simReport) emit(cmd, dir string, asJSON, showExpected bool, stdout, stderr io.Writer) int {
	if dir != "" {
		if err := r.writeFindings(dir, r.Config); err != nil {
			fmt.Fprintf(stderr, "groupcheck %s: %v\n", cmd, err)
			return 2
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(r)
	} else {
		r.writeText(stdout, showExpected)
	}
	return r.exit()
}

// exit is the status for the report: 1 when a violation is not the expected kind.
func (r *simReport) exit() int {
	for _, v := range r.Violations {
		if v.Expected == "" {
			return 1
		}
	}
	return 0
}

// swarm draws the walk's budgets: each one uniformly between 0 and the configured value, so
// that walks differ in which faults they may meet (swarm testing).
func swarm(c spec.Config, rng *rand.Rand) spec.Config {
	b := &c.Budget
	for _, v := range []*int{&b.Joins, &b.Leaves, &b.Crashes, &b.Restarts, &b.SubscriptionChanges,
		&b.PartitionAdditions, &b.TopicDeletions, &b.LostResponses, &b.SessionTimeouts,
		&b.JoinTimeouts, &b.SyncTimeouts, &b.PollTimeouts} {
		*v = rng.IntN(*v + 1)
	}
	// Budgets added since draw only when configured, so that a seed given before them still
	// replays the same walks.
	for _, v := range []*int{&b.RebalanceTimeouts, &b.Hangs} {
		if *v > 0 {
			*v = rng.IntN(*v + 1)
		}
	}
	return c
}

// runWalks takes the walks of shard sh (whole: all of them) and reports what they found.
func runWalks(cfg spec.Config, seed uint64, walks, depth int, sh shard, prog *progress) *simReport {
	start := time.Now()
	rep := &simReport{Config: cfg.Name, Seed: seed, Depth: depth, Walks: sh.walks(walks),
		Note: sampleNote, Violations: []simFinding{}}
	if sh != whole {
		rep.Shard, rep.TotalWalks = sh.String(), walks
	}
	taken := make([]int, len(spec.KindNames()))
	first := map[string]int{}
	liveness := invariants.LivenessUndefined(cfg) == ""
	for w := sh.Index; w < walks; w += sh.Count {
		rng := simulate.Seeded(seed, uint64(w))
		c := swarm(cfg, rng)
		m := invariants.NewModel(c)
		r := simulate.Walk(m, m.Properties(), rng, depth)
		rep.Steps += len(r.Path.Steps)
		prog.Printf("simulate %s: walk %d of %d (seed %d), %d steps, %d findings, %.0fs",
			cfg.Name, w+1, walks, seed, rep.Steps, len(rep.Violations), time.Since(start).Seconds())
		for _, st := range r.Path.Steps {
			taken[st.Action.Kind]++
		}
		if r.Deadlock {
			rep.Deadlocks++
		}
		if end := last(r.Path); r.Violated == "" && liveness && !invariants.Goal(c)(end) && !fairEnabled(end) {
			rep.deadEnd(first, cfg, c, seed, w, r.Path)
		}
		if r.Violated == "" {
			continue
		}
		if i, seen := first[r.Violated]; seen {
			rep.Violations[i].Count++
			continue
		}
		p, _ := invariants.Lookup(r.Violated)
		first[r.Violated] = len(rep.Violations)
		t := traces.New(cfg.Name, traces.Header{Property: r.Violated,
			Found: fmt.Sprintf("simulation seed=%d walk=%d", seed, w)}, c, actionsOf(r.Path.Steps))
		if shrunk := traces.Shrink(t, r.Violated); shrunk != nil {
			t = shrunk
		}
		rep.Violations = append(rep.Violations, simFinding{Property: r.Violated, Expected: p.ExpectedViolation(c),
			Walk: w, Count: 1, Steps: len(t.Actions())})
		rep.found = append(rep.found, t)
	}
	rep.setCoverage(taken)
	for i, t := range rep.found {
		rep.Violations[i].Text = traceText(t)
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep
}

const sampleNote = "random walks sample the world: finding nothing is not a proof"

// setCoverage records the steps taken per action kind and the kinds never taken.
func (r *simReport) setCoverage(taken []int) {
	r.Coverage, r.NeverTaken = map[string]int{}, []string{}
	for k, name := range spec.KindNames() {
		if taken[k] == 0 {
			r.NeverTaken = append(r.NeverTaken, name)
			continue
		}
		r.Coverage[name] = taken[k]
	}
}

// traceText is t with its expected blocks filled in, as --out writes it ("" if it no longer
// replays, which a shrunk trace always does).
func traceText(t *traces.Trace) string {
	full, err := traces.Rewrite(t)
	if err != nil {
		return ""
	}
	var b strings.Builder
	if traces.Format(&b, full) != nil {
		return ""
	}
	return b.String()
}

// deadEnd records a walk that ended where no protocol action is enabled, short of a converged
// group: once the environment stops acting nothing happens there, so converges is violated
// (the explorer's dead end, invariants.Fair). Only a walk's last world is judged, and only
// where convergence is a question (invariants.LivenessUndefined). Its trace is
// the walk, not shrunk, marked `# cycle: dead-end`, which replay checks.
func (rep *simReport) deadEnd(first map[string]int, cfg, c spec.Config, seed uint64, w int, p explorer.Path[spec.World, spec.Action]) {
	if i, seen := first[invariants.ConvergesName]; seen {
		rep.Violations[i].Count++
		return
	}
	first[invariants.ConvergesName] = len(rep.Violations)
	t := traces.New(cfg.Name, traces.Header{Property: invariants.ConvergesName, DeadEnd: true,
		Found: fmt.Sprintf("simulation seed=%d walk=%d, a dead end short of a converged group", seed, w)}, c, actionsOf(p.Steps))
	rep.Violations = append(rep.Violations, simFinding{Property: invariants.ConvergesName, Walk: w, Count: 1, Steps: len(p.Steps)})
	rep.found = append(rep.found, t)
}

// fairEnabled reports whether some action that weak fairness forces is enabled in w.
func fairEnabled(w spec.World) bool {
	for _, a := range spec.Actions(w, nil) {
		if n, ok := spec.Next(w, a); ok && invariants.Fair(a, w, n) {
			return true
		}
	}
	return false
}

// last is the path's final state.
func last(p explorer.Path[spec.World, spec.Action]) spec.World {
	if len(p.Steps) == 0 {
		return p.Init
	}
	return p.Steps[len(p.Steps)-1].State
}

func actionsOf(steps []explorer.Step[spec.World, spec.Action]) []spec.Action {
	out := make([]spec.Action, len(steps))
	for i, s := range steps {
		out[i] = s.Action
	}
	return out
}

// writeText prints the answer first: the violations counted in one line, then each
// unexpected one with its shrunk trace, each expected one's reason in one line (its trace with
// showExpected), then the walks' figures.
func (r *simReport) writeText(w io.Writer, showExpected bool) {
	walks := r.Walks
	if r.Shard != "" {
		walks = r.TotalWalks
	}
	expected := 0
	for _, v := range r.Violations {
		if v.Expected != "" {
			expected++
		}
	}
	of := ""
	if r.Shard != "" {
		of = fmt.Sprintf(" (shard %s of %d)", r.Shard, r.TotalWalks)
	}
	fmt.Fprintf(w, "%s: %d violated, %d expected in %d random walks%s of seed %d; a sample: what no walk violated is not proven\n",
		r.Config, len(r.Violations)-expected, expected, r.Walks, of, r.Seed)
	for i, v := range r.Violations {
		if v.Expected == "" || showExpected {
			r.writeFinding(w, i)
		}
	}
	if expected > 0 && !showExpected {
		fmt.Fprintln(w)
		for _, v := range r.Violations {
			if v.Expected != "" {
				fmt.Fprintf(w, "expected %s (in %d walk(s)): %s\n", v.Property, v.Count, v.Expected)
			}
		}
		fmt.Fprintln(w, "  (expected violations do not fail the run; --show-expected prints their traces, --out DIR writes them)")
	}
	if len(r.Violations) == 0 {
		fmt.Fprintf(w, "\nno property violated in these walks (%s)\n", r.Note)
	}
	if len(r.NeverTaken) > 0 {
		fmt.Fprintf(w, "\nactions never taken: %s\n  (no walk took them, so nothing they would do was checked)\n", strings.Join(r.NeverTaken, ", "))
	}
	fmt.Fprintf(w, "\nworld %s: %d random walks%s (seed %d), %d steps, %d ended in a deadlock, %.1fs\n",
		r.Config, r.Walks, of, r.Seed, r.Steps, r.Deadlocks, r.Seconds)
	fmt.Fprintf(w, "reproduce: groupcheck simulate --seed %d --walks %d --depth %d ... (same flags)\n", r.Seed, walks, r.Depth)
}

// writeFinding prints finding i: the property, how often and first where, and its trace.
func (r *simReport) writeFinding(w io.Writer, i int) {
	v := r.Violations[i]
	mark := ""
	if v.Expected != "" {
		mark = " (expected: " + v.Expected + ")"
	}
	how := fmt.Sprintf("shrunk to %d steps", v.Steps)
	if v.Property == invariants.ConvergesName {
		how = fmt.Sprintf("a dead end after %d steps (not shrunk)", v.Steps)
	}
	fmt.Fprintf(w, "\n%s violated in %d walk(s), first in walk %d; %s%s:\n", v.Property, v.Count, v.Walk, how, mark)
	if res, err := traces.Replay(r.found[i]); err == nil {
		traces.Text(w, r.found[i], res)
	}
}

// writeFindings writes each property's first violation, shrunk, as a v1 trace.
func (r *simReport) writeFindings(dir, world string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, v := range r.Violations {
		t, err := traces.Rewrite(r.found[i])
		if err != nil {
			return err
		}
		name := filepath.Join(dir, cleanName(world+"-"+v.Property)+".sim.trace")
		f, err := os.Create(name)
		if err != nil {
			return err
		}
		if err := traces.Format(f, t); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		r.Violations[i].Trace = name
	}
	return nil
}
