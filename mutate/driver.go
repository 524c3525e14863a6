package mutate

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configure a mutation run.
type Options struct {
	Root     string   // the module
	Packages []string // module directories to mutate
	Exclude  []string // base names of files left unmutated
	Jobs     int      // mutants run at once (each single-threaded)
	Work     string   // where the mutated copy goes ("": a temporary directory, removed after)
	// Select, when set, picks the mutants to run (the rest are listed, not run).
	Select func(Mutant) bool
	// Equivalents maps a mutant's Key to why it is equivalent (see ReadEquivalents).
	Equivalents map[string]string
	// Previous are verdicts of an earlier run, by Key: a mutant Select leaves out keeps its
	// verdict from there (how --rerun re-runs only the survivors and still reports them all).
	Previous map[string]Verdict
	// Sample, when > 0, runs only the first Sample mutants of each package in the order of a
	// hash of their keys (interleave): a deterministic sample, the same on every run.
	Sample int
	// Suite, when set, replaces the suite (tests use one tiny world).
	Suite []World
	Log   io.Writer // progress lines
	_     struct{}
}

// Result is one mutant and its verdict.
type Result struct {
	Mutant
	Verdict
	Equivalent string `json:"equivalent,omitempty"` // why, when listed as equivalent
}

// Report is a whole run.
type Report struct {
	Date     string      `json:"date"`
	Jobs     int         `json:"jobs"`
	Seconds  float64     `json:"seconds"`
	Suite    []WorldCost `json:"suite"`
	Scores   []Score     `json:"scores"`
	Killers  []Count     `json:"killers"` // per property: the mutants it caught (first catching world)
	Results  []Result    `json:"mutants"`
	NotBuilt int         `json:"not_built"`
}

// WorldCost is a suite world as the reference explores it.
type WorldCost struct {
	Name         string  `json:"name"`
	Distinct     int64   `json:"distinct"`
	LiveDistinct int     `json:"live_distinct"`
	Rounds       int     `json:"rounds"`
	Seconds      float64 `json:"seconds"`
	Reached      int     `json:"reached"` // mutation points it reaches
}

// Count is a name and a number.
type Count struct {
	Name string `json:"name"`
	N    int    `json:"n"`
}

// Run builds the schemata, explores the suite with the reference once (coverage and baseline
// verdicts), then runs every selected mutant in its own process, Jobs at a time. Verdicts do
// not depend on Jobs or on the order processes finish: each is decided by state caps inside
// its process. Only a mutant that loops inside the reference (never returning to the
// explorer) is stopped by the clock, after timeout(its worlds' reference seconds).
func Run(o Options) (*Report, error) {
	start := time.Now()
	work := o.Work
	if work == "" {
		d, err := os.MkdirTemp("", "groupcheck-mutate-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(d)
		work = d
	}
	fmt.Fprintf(o.Log, "mutate: writing the schemata of %s into %s\n", strings.Join(o.Packages, ", "), work)
	b, err := NewBuild(o.Root, work, o.Packages, o.Exclude, o.Log)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Log, "mutate: %d mutants (%d do not compile); exploring the suite with the reference\n", len(b.Mutants), len(b.Dropped))
	base, err := b.baseline(o)
	if err != nil {
		return nil, err
	}
	basePath := filepath.Join(work, "baseline.json")
	if err := writeJSON(basePath, base); err != nil {
		return nil, err
	}
	var built, todo, kept []Mutant
	for _, m := range b.Mutants {
		if _, dropped := b.Dropped[m.ID]; !dropped {
			built = append(built, m)
		}
	}
	built = interleave(built)
	if o.Sample > 0 { // the sample is drawn from every mutant, so that reruns keep it
		built = sample(built, o.Sample)
	}
	for _, m := range built {
		if o.Select == nil || o.Select(m) {
			todo = append(todo, m)
		} else if _, ok := o.Previous[m.Key]; ok {
			kept = append(kept, m)
		}
	}
	var states int64
	var refCPU, mutCPU float64
	for _, w := range base {
		states, refCPU = states+w.Distinct, refCPU+w.CPU
	}
	for _, m := range todo {
		c, _ := infectedCost(base, m.ID)
		mutCPU += c
	}
	fmt.Fprintf(o.Log, "mutate: the reference: %d worlds, %d states, %.1f CPU-s; a mutant that survives costs at most %.1f CPU-s on average (its worlds' reference CPU), %.0f CPU-s for the %d selected\n",
		len(base), states, refCPU, mutCPU/float64(max(1, len(todo))), mutCPU, len(todo))
	fmt.Fprintf(o.Log, "mutate: running %d mutants, %d at a time\n", len(todo), o.Jobs)
	verdicts := make([]Verdict, len(todo))
	var done int
	var mu sync.Mutex
	// Each verdict is also appended to verdicts.jsonl as it comes, to triage a long run early.
	progress, err := os.Create(filepath.Join(work, "verdicts.jsonl"))
	if err != nil {
		return nil, err
	}
	defer progress.Close()
	enc := json.NewEncoder(progress)
	parallel(len(todo), o.Jobs, func(i int) {
		verdicts[i] = b.runOne(basePath, base, todo[i])
		mu.Lock()
		enc.Encode(Result{Mutant: todo[i], Verdict: verdicts[i], Equivalent: o.Equivalents[todo[i].Key]})
		done++
		if done%50 == 0 || done == len(todo) {
			fmt.Fprintf(o.Log, "mutate: %d/%d mutants (%s)\n", done, len(todo), time.Since(start).Round(time.Second))
		}
		mu.Unlock()
	})
	rep := &Report{Date: time.Now().UTC().Format("2006-01-02"), Jobs: o.Jobs, NotBuilt: len(b.Dropped)}
	for i, m := range todo {
		rep.Results = append(rep.Results, Result{Mutant: m, Verdict: verdicts[i], Equivalent: o.Equivalents[m.Key]})
	}
	for _, m := range kept {
		rep.Results = append(rep.Results, Result{Mutant: m, Verdict: o.Previous[m.Key], Equivalent: o.Equivalents[m.Key]})
	}
	slices.SortFunc(rep.Results, func(a, b Result) int { return int(a.Mutant.ID - b.Mutant.ID) })
	for _, w := range base {
		rep.Suite = append(rep.Suite, WorldCost{Name: w.Name, Distinct: w.Distinct, LiveDistinct: w.LiveDistinct, Rounds: w.Rounds, Seconds: w.Seconds, Reached: len(w.Hits)})
	}
	rep.tally(o.Packages)
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// interleave orders the mutants round-robin across packages, each package's in the order of
// a hash of their keys: a run stopped early is then a like-sized, unbiased sample of every
// package (not its first files), and the same on every run.
func interleave(ms []Mutant) []Mutant {
	ms = slices.Clone(ms)
	slices.SortStableFunc(ms, func(a, b Mutant) int { return cmp.Compare(keyHash(a.Key), keyHash(b.Key)) })
	var pkgs []string
	by := map[string][]Mutant{}
	for _, m := range ms {
		if by[m.Pkg] == nil {
			pkgs = append(pkgs, m.Pkg)
		}
		by[m.Pkg] = append(by[m.Pkg], m)
	}
	out := make([]Mutant, 0, len(ms))
	for i := 0; len(out) < len(ms); i++ {
		for _, p := range pkgs {
			if i < len(by[p]) {
				out = append(out, by[p][i])
			}
		}
	}
	return out
}

// sample keeps the first n mutants of each package of an interleaved list.
func sample(ms []Mutant, n int) []Mutant {
	seen := map[string]int{}
	var out []Mutant
	for _, m := range ms {
		if seen[m.Pkg] < n {
			seen[m.Pkg]++
			out = append(out, m)
		}
	}
	return out
}

func keyHash(k string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(k))
	return h.Sum64()
}

// parallel runs f(0..n-1) on jobs goroutines.
func parallel(n, jobs int, f func(int)) {
	if jobs < 1 {
		jobs = 1
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// baseline explores each suite world with the reference, in coverage mode, one process per
// world.
func (b *Build) baseline(o Options) ([]Baseline, error) {
	suite := o.Suite
	if suite == nil {
		suite = Suite()
	}
	suitePath := filepath.Join(b.Dir, "suite.json")
	if err := writeJSON(suitePath, suite); err != nil {
		return nil, err
	}
	out := make([]Baseline, len(suite))
	errs := make([]error, len(suite))
	parallel(len(suite), o.Jobs, func(i int) {
		cmd := exec.Command(b.Binary, "mutate-worker", "--suite", suitePath, "--world", strconv.Itoa(i))
		cmd.Env = append(os.Environ(), "GROUPCHECK_MUTANT=", "GROUPCHECK_MUTANT_COVER="+strconv.Itoa(len(b.Mutants)))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.Output()
		if err == nil {
			err = json.Unmarshal(stdout, &out[i])
		}
		if err != nil {
			errs[i] = fmt.Errorf("mutate: the reference in world %s: %v\n%s", suite[i].Name, err, stderr.String())
			return
		}
		fmt.Fprintf(o.Log, "mutate: reference %-40s %8d states %8d in the liveness graph, %6.1fs, reaches %d points, infects %d\n",
			suite[i].Name, out[i].Distinct, out[i].LiveDistinct, out[i].Seconds, len(out[i].Hits), len(out[i].Infected))
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, w := range out {
		for _, st := range w.Props {
			if st == "unknown" {
				return nil, fmt.Errorf("mutate: the reference left a property undecided in %s", w.Name)
			}
		}
	}
	return out, nil
}

// limits are the bounds of one mutant's process, from what the reference takes in the worlds
// the mutant explores (those that infect it): CPU time (10 s plus four times the reference's,
// since a mutant may explore up to three times its states) for a loop inside impl/, which the
// state caps cannot stop, and the wall clock as a last resort.
func limits(base []Baseline, id int32) (cpu uint64, wall time.Duration) {
	c, s := infectedCost(base, id)
	return 10 + uint64(4*c), 5*time.Minute + time.Duration(20*s*float64(time.Second))
}

// infectedCost is the reference's CPU and wall seconds in the worlds that infect point id:
// the worlds its mutant explores.
func infectedCost(base []Baseline, id int32) (cpu, seconds float64) {
	for _, w := range base {
		if _, ok := slices.BinarySearch(w.Infected, id); ok {
			cpu += w.CPU
			seconds += w.Seconds
		}
	}
	return cpu, seconds
}

// runOne runs one mutant in its own process.
func (b *Build) runOne(basePath string, base []Baseline, m Mutant) Verdict {
	cpu, wall := limits(base, m.ID)
	ctx, cancel := context.WithTimeout(context.Background(), wall)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.Binary, "mutate-worker", "--baseline", basePath, "--mutant", strconv.Itoa(int(m.ID)),
		"--cpu", strconv.FormatUint(cpu, 10))
	cmd.Env = append(os.Environ(), "GROUPCHECK_MUTANT="+strconv.Itoa(int(m.ID)), "GROUPCHECK_MUTANT_COVER=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	var v Verdict
	if err == nil && json.Unmarshal(stdout, &v) == nil {
		return v
	}
	if outOfCPU(cmd, cpu) {
		return Verdict{ID: m.ID, Status: TimedOut, Capped: []string{fmt.Sprintf("CPU time (%d s)", cpu)}}
	}
	if ctx.Err() != nil {
		return Verdict{ID: m.ID, Status: TimedOut, Capped: []string{"wall clock"}}
	}
	return Verdict{ID: m.ID, Status: Killed, Killers: []string{"crash"}, World: crashLine(stderr.String())}
}

// crashLine names how a mutant's process died: its panic or fatal error.
func crashLine(stderr string) string {
	sc := bufio.NewScanner(strings.NewReader(stderr))
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			return oneLine(l)
		}
	}
	return "exit without a verdict"
}

func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
