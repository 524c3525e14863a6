package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
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
	Walks      int             `json:"walks"`
	Steps      int             `json:"steps"`
	Deadlocks  int             `json:"deadlocks"`
	Seconds    float64         `json:"seconds"`
	Violations []simFinding    `json:"violations"`
	Note       string          `json:"note"`
	found      []*traces.Trace // per finding: its shrunk trace, in its walk's swarm config
}

type simFinding struct {
	Property string `json:"property"`
	Expected string `json:"expected,omitempty"`
	Walk     int    `json:"walk"`
	Count    int    `json:"count"`
	Steps    int    `json:"steps"` // of the shrunk trace
	Trace    string `json:"trace,omitempty"`
}

func simulateCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	preset := fs.String("preset", "", "a built-in world; default "+spec.DefaultPreset)
	config := fs.String("config", "", "a world in the config-file format")
	mutant := fs.String("mutant", "", "switch on a named fault")
	seed := fs.Uint64("seed", 0, "the seed (0 = pick one from the clock and print it)")
	walks := fs.Int("walks", 1000, "number of random walks")
	depth := fs.Int("depth", 200, "steps per walk at most")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	out := fs.String("out", "", "directory to write each property's first (shrunk) violation to")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *walks < 1 || *depth < 1 {
		fmt.Fprintln(stderr, "groupcheck simulate: want --walks ≥ 1, --depth ≥ 1 and no arguments")
		return 2
	}
	cfg, err := loadWorld(*preset, *config, *mutant)
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck simulate: %v\n", err)
		return 2
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	rep := runWalks(cfg, *seed, *walks, *depth)
	if *out != "" {
		if err := rep.writeFindings(*out, cfg); err != nil {
			fmt.Fprintf(stderr, "groupcheck simulate: %v\n", err)
			return 2
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		rep.writeText(stdout)
	}
	for _, v := range rep.Violations {
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

func runWalks(cfg spec.Config, seed uint64, walks, depth int) *simReport {
	start := time.Now()
	rep := &simReport{Config: cfg.Name, Seed: seed, Walks: walks,
		Note: "random walks sample the world: finding nothing is not a proof"}
	first := map[string]int{}
	liveness := invariants.LivenessUndefined(cfg) == ""
	for w := 0; w < walks; w++ {
		rng := simulate.Seeded(seed, uint64(w))
		c := swarm(cfg, rng)
		m := invariants.NewModel(c)
		r := simulate.Walk(m, m.Properties(), rng, depth)
		rep.Steps += len(r.Path.Steps)
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
	rep.Seconds = time.Since(start).Seconds()
	return rep
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

func (r *simReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "world %s: %d random walks (seed %d), %d steps, %d ended in a deadlock, %.1fs\n",
		r.Config, r.Walks, r.Seed, r.Steps, r.Deadlocks, r.Seconds)
	fmt.Fprintf(w, "reproduce: groupcheck simulate --seed %d --walks %d ... (same flags)\n", r.Seed, r.Walks)
	if len(r.Violations) == 0 {
		fmt.Fprintf(w, "no property violated in these walks (%s)\n", r.Note)
		return
	}
	for i, v := range r.Violations {
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
}

// writeFindings writes each property's first violation, shrunk, as a v1 trace.
func (r *simReport) writeFindings(dir string, cfg spec.Config) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, v := range r.Violations {
		t, err := traces.Rewrite(r.found[i])
		if err != nil {
			return err
		}
		name := filepath.Join(dir, cleanName(cfg.Name+"-"+v.Property)+".sim.trace")
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
