package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// bounds are the flags every exploring command shares.
type bounds struct {
	workers, maxDepth int
	maxStates         int64
	maxTime           time.Duration
	maxMemory         byteSize
	spillFrontier     byteSize
	json              bool
	cpuProfile        string
}

func (b *bounds) register(fs *flag.FlagSet) {
	fs.IntVar(&b.workers, "workers", 0, "worker goroutines (0 = all cores)")
	fs.IntVar(&b.maxDepth, "max-depth", 0, "stop after this depth (default: no bound)")
	fs.Int64Var(&b.maxStates, "max-states", 0, "stop after this many distinct states (default: no bound)")
	fs.DurationVar(&b.maxTime, "max-time", 0, "stop after this long, e.g. 30s (default: no bound)")
	fs.Var(&b.maxMemory, "max-memory", "stop cleanly, with a partial report, before the resident set passes this size, e.g. 2GB or 512MiB (0 = unbounded)")
	fs.Var(&b.spillFrontier, "spill-frontier", "spill a level to disk when its states would take more memory than this size (1B spills every level; 0 = only when --max-memory needs it)")
	fs.BoolVar(&b.json, "json", false, "print one JSON object on stdout")
	fs.StringVar(&b.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file")
}

// validate refuses a bound that cannot mean what was asked: a negative worker count, and a
// depth, state or time bound that is negative or explicitly 0 (leaving the flag out is how to
// ask for no bound, and 0 given would silently be none).
func (b bounds) validate(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case b.workers < 0:
		return fmt.Errorf("--workers %d: want 1 or more (0 or none: every core)", b.workers)
	case set["max-depth"] && b.maxDepth <= 0:
		return fmt.Errorf("--max-depth %d: want a positive depth (leave the flag out for no bound)", b.maxDepth)
	case set["max-states"] && b.maxStates <= 0:
		return fmt.Errorf("--max-states %d: want a positive number of states (leave the flag out for no bound)", b.maxStates)
	case set["max-time"] && b.maxTime <= 0:
		return fmt.Errorf("--max-time %v: want a positive duration such as 30s (leave the flag out for no bound)", b.maxTime)
	}
	return nil
}

// profile starts the CPU profile if asked; the returned function stops it.
func (b bounds) profile() (stop func(), err error) {
	if b.cpuProfile == "" {
		return func() {}, nil
	}
	f, err := os.Create(b.cpuProfile)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// options are the explorer's options; its progress lines go to the status line prog.
func (b bounds) options(prog *progress) explorer.Options {
	o := explorer.Options{Workers: b.workers, MaxDepth: b.maxDepth, MaxStates: b.maxStates, MaxTime: b.maxTime,
		MaxMemory: uint64(b.maxMemory), SpillFrontier: int64(min(uint64(b.spillFrontier), math.MaxInt64))}
	o.Progress = prog.Writer()
	return o
}

// liveBounds are the bounds of the liveness check of a run that started at start: the same
// state bound as the search (5,000,000 worlds if none), what is left of --max-time, and
// --max-memory, so that the bounds hold for the whole run.
func (b bounds) liveBounds(start time.Time) invariants.LiveBounds {
	lb := invariants.LiveBounds{MaxStates: int(b.maxStates), MaxMemory: uint64(b.maxMemory)}
	if lb.MaxStates <= 0 {
		lb.MaxStates = 5_000_000
	}
	if b.maxTime > 0 {
		lb.Deadline = start.Add(b.maxTime)
	}
	return lb
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func explore(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("explore", stderr)
	var b bounds
	b.register(fs.FlagSet)
	preset := fs.String("preset", "", "a built-in world (groupcheck presets); default "+spec.DefaultPreset)
	config := fs.String("config", "", "a world in the config-file format")
	out := fs.String("out", "", "directory to write counterexamples to")
	html := fs.String("html", "", "write the run's report as one self-contained HTML page to this file")
	mutant := fs.String("mutant", "", "switch on a named fault (groupcheck mutants); alone, explore its world")
	liveness := fs.Bool("liveness", false, "also check convergence under weak fairness and measure rebalance rounds (builds the state graph in memory)")
	maxRounds := fs.Int("max-rounds", 0, "fail when the worst-case rebalances after the environment events exceed N (implies --liveness)")
	maxUnavailable := fs.Int("max-unavailable", -1, "fail when the worst-case partition-steps without an owner after the environment events exceed N (implies --liveness)")
	maxTime := fs.String("max-converge-time", "", "fail when the worst-case time to converge after the environment events exceeds D (ms, or 90s, 5min; implies --liveness)")
	events := fs.Int("events", 1, "measure the rounds over behaviours of up to K environment events: a first one in a converged group, the others before it converges again (with --liveness)")
	symmetry := fs.Bool("symmetry", false, "keep one world per orbit under permutations of interchangeable members (exact; see spec.NewSymmetry)")
	showExpected := fs.Bool("show-expected", false, "also print the counterexample of each expected violation (by default: its reason, in one line)")
	var only propertyNames
	fs.Var(&only, "property", "check only this property (repeat the flag, or a comma list; groupcheck properties lists them)")
	checkEncoding := fs.Bool("check-encoding", false, "compare the world's encoders (the fast one, the reflection one and the symmetry reduction's identity image) on every state, and fail on the first disagreement (spec.EncodingCheck)")
	por := fs.Bool("por", false, "partial-order reduction of the safety search: explore only one member's local steps where they are independent of the rest and invisible to every property (see invariants.Reduced)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if err := positional(fs, 0); err != nil {
		fmt.Fprintf(stderr, "groupcheck explore: %v\n", err)
		return 2
	}
	if *maxRounds < 0 {
		fmt.Fprintf(stderr, "groupcheck explore: --max-rounds %d: want a positive bound\n", *maxRounds)
		return 2
	}
	if *maxUnavailable < -1 {
		fmt.Fprintf(stderr, "groupcheck explore: --max-unavailable %d: want a bound of 0 or more\n", *maxUnavailable)
		return 2
	}
	if *events < 1 {
		fmt.Fprintf(stderr, "groupcheck explore: --events %d: want at least 1\n", *events)
		return 2
	}
	maxMillis := 0
	if *maxTime != "" {
		ms, err := spec.ParseMillis(*maxTime)
		if err != nil || ms == 0 {
			fmt.Fprintf(stderr, "groupcheck explore: --max-converge-time %s: want a positive duration (ms, or with a unit: 90s, 5min)\n", *maxTime)
			return 2
		}
		maxMillis = ms
	}
	measure := *liveness || *maxRounds > 0 || *maxUnavailable >= 0 || maxMillis > 0
	if *events > 1 && !measure {
		fmt.Fprintf(stderr, "groupcheck explore: --events %d measures rounds: add --liveness (or a bound)\n", *events)
		return 2
	}
	if *symmetry && measure {
		fmt.Fprintf(stderr, "groupcheck explore: %s\n", errSymmetryLiveness)
		return 2
	}
	if err := b.validate(fs.FlagSet); err != nil {
		fmt.Fprintf(stderr, "groupcheck explore: %v\n", err)
		return 2
	}
	cfg, err := loadWorld(*preset, *config, *mutant)
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck explore: %v\n", err)
		return 2
	}
	if *preset == "" && *config == "" && !*symmetry {
		*liveness, *maxRounds = mutantChecks(*mutant, *liveness, *maxRounds, stderr)
		measure = measure || *liveness || *maxRounds > 0
	}
	props, err := only.chosen(cfg, measure)
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck explore: %v\n", err)
		return 2
	}
	if *checkEncoding && (*symmetry || *por) {
		fmt.Fprintf(stderr, "groupcheck explore: --check-encoding compares the plain search's encoders: run it without --symmetry and --por\n")
		return 2
	}
	if *por && (*symmetry || measure) {
		fmt.Fprintf(stderr, "groupcheck explore: %s\n", errReduction)
		return 2
	}
	if why := invariants.LivenessUndefined(cfg); why != "" && measure {
		fmt.Fprintf(stderr, "groupcheck explore: --liveness: %s\n", why)
		return 2
	}
	if m, ok := invariants.LookupMutant(*mutant); ok && *preset == "" && *config == "" && b.maxStates == 0 {
		b.maxStates = m.MaxStates // the fault grows the world without end: its registered bound
	}
	stop, err := b.profile()
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck explore: %v\n", err)
		return 2
	}
	start := time.Now()
	m := invariants.NewModelWith(cfg, props)
	prog := newProgress(stderr)
	var r explorer.Report[spec.World, spec.Action]
	var sym *symmetryReport
	var encoders invariants.EncodingChecked
	if *checkEncoding {
		encoders = invariants.NewEncodingChecked(m)
		r = invariants.Check(encoders, cfg, m.Properties(), b.options(prog))
	} else {
		r, sym = checkWorld(m, *symmetry, *por, b.options(prog))
	}
	stop()
	prog.Done()
	rep := newReport(m, r)
	if *checkEncoding {
		rep.checkEncoding(encoders)
	}
	if *por {
		rep.Reduction = "partial-order"
	}
	if measure {
		prog.Status("explore: liveness: building the state graph of %s and checking converges…", cfg.Name)
		lb := b.liveBounds(start)
		lb.Events = *events
		lr := livenessWithin(cfg, lb)
		prog.Done()
		rep.addLiveness(lr, only)
		// The graph outgrows the search: the run's peak is the process's, not the search's sample.
		rep.PeakMemory = max(rep.PeakMemory, explorer.PeakResidentBytes())
		rep.checkRounds(*maxRounds)
		rep.checkUnavailable(*maxUnavailable)
		rep.checkConvergeTime(maxMillis)
	}
	rep.byOrigin()
	if *out != "" {
		if err := rep.writeTraces(*out); err != nil {
			fmt.Fprintf(stderr, "groupcheck explore: %v\n", err)
			return 2
		}
	}
	if *html != "" {
		if err := writePage(*html, rep.page(commandLine("explore", args))); err != nil {
			fmt.Fprintf(stderr, "groupcheck explore: %v\n", err)
			return 2
		}
	}
	if b.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(withSymmetry(rep, sym)); err != nil {
			fmt.Fprintf(stderr, "groupcheck explore: %v\n", err)
			return 2
		}
	} else {
		rep.writeText(stdout, *showExpected)
		writeSymmetry(stdout, sym)
	}
	switch {
	case rep.failed() || rep.EncodingMismatch != "":
		return 1
	case rep.undecided():
		return exitUndecided
	}
	return 0
}

// mutantChecks switches on what catches a mutant in its own world when the command line did
// not: --liveness for a fault that converges catches, --max-rounds for one caught by its bound
// on rebalances (invariants.Mutant). Without them such a run would exit 0 and look like a miss.
func mutantChecks(name string, liveness bool, maxRounds int, stderr io.Writer) (bool, int) {
	m, ok := invariants.LookupMutant(name)
	if !ok {
		return liveness, maxRounds
	}
	if slices.Contains(m.Catches, invariants.ConvergesName) && !liveness && maxRounds == 0 {
		liveness = true
		fmt.Fprintf(stderr, "groupcheck explore: %s is caught by %s: checking it (--liveness)\n", name, invariants.ConvergesName)
	}
	if m.MaxRounds > 0 && maxRounds == 0 {
		maxRounds = m.MaxRounds
		fmt.Fprintf(stderr, "groupcheck explore: %s is caught by its rebalances: --max-rounds %d\n", name, maxRounds)
	}
	return liveness, maxRounds
}

// loadWorld is the config to explore: a preset, a file, or a mutant's own world; a mutant
// named beside a preset or file switches its fault on there.
func loadWorld(preset, file, mutant string) (spec.Config, error) {
	if mutant == "" {
		return loadConfig(preset, file)
	}
	m, ok := invariants.LookupMutant(mutant)
	if !ok {
		var names []string
		for _, m := range invariants.Mutants {
			names = append(names, m.Fault.String())
		}
		if near := nearest(mutant, names); near != "" {
			return spec.Config{}, fmt.Errorf("--mutant %s: unknown mutant (did you mean %s?); groupcheck mutants lists them", mutant, near)
		}
		return spec.Config{}, fmt.Errorf("--mutant %s: unknown mutant; groupcheck mutants lists them", mutant)
	}
	if preset == "" && file == "" {
		if m.World == "" {
			return spec.Config{}, fmt.Errorf("mutant %s has no world of its own (%s); name one with --preset or --config", mutant, m.Uncaught)
		}
		return m.Config()
	}
	c, err := loadConfig(preset, file)
	c.Faults = c.Faults.With(m.Fault)
	return c, err
}

func loadConfig(preset, file string) (spec.Config, error) {
	switch {
	case preset != "" && file != "":
		return spec.Config{}, fmt.Errorf("--preset and --config exclude each other")
	case file != "":
		f, err := os.Open(file)
		if err != nil {
			return spec.Config{}, err
		}
		defer f.Close()
		return spec.ParseConfig(filepath.Base(file), f)
	}
	if preset == "" {
		preset = spec.DefaultPreset
	}
	p, err := spec.LookupPreset(preset)
	if err != nil {
		return spec.Config{}, err
	}
	return p.Config()
}

// cleanName makes a property name safe as a file name.
func cleanName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ' ' {
			return '_'
		}
		return r
	}, s)
}

// livenessWithin is invariants.LivenessWithin under the collector's default goal. The search
// keeps little and allocates much, so main raises the heap goal to 5× what is live; the
// liveness graph is what is live, and at that goal the process would peak at five graphs
// (cooperative-kafka with --liveness: 389 MB at GOGC=400, 199 MB at 100, for 10% more CPU,
// docs/performance.md). GOGC in the environment still wins.
func livenessWithin(cfg spec.Config, lb invariants.LiveBounds) invariants.LivenessReport {
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(100))
	}
	return invariants.LivenessWithin(cfg, lb)
}
