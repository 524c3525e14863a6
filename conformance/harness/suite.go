package harness

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// The flags every conformance module's tests share (registered in any test binary that
// imports the harness).
var (
	soakRuns = flag.Int("soak", 0, "long form: run every scenario this many times (0: once; -short skips some only when 0)")
	seedFlag = flag.Uint64("seed", 0, "jitter seed of the first run (run i uses seed+i); 0 takes one from the clock")
	keepAll  = flag.Bool("keep", false, "save every run's artifacts, not only failing ones")
	bootFlag = flag.String("bootstrap", os.Getenv("KAFKA_BOOTSTRAP"),
		"run against the broker at host:port (default $KAFKA_BOOTSTRAP) instead of an in-process kfake cluster")
)

// Bootstrap is the -bootstrap flag: the broker the suites run against ("" for kfake).
func Bootstrap() string { return *bootFlag }

// Soak is the -soak flag: how many times the long form runs each scenario (0: the short or
// default form, once).
func Soak() int { return *soakRuns }

// Runs is how many times to run each scenario: -soak, at least once.
func Runs() int { return max(*soakRuns, 1) }

// SuiteJitter is the longest pause added to each callback and before each step: enough to
// move interleavings around, small against the 150 ms heartbeat.
const SuiteJitter = 20 * time.Millisecond

// BaseSeed is the seed of the first run, logged so that a soak can be told apart from
// another; a run is reproduced from its saved history, not from the seed (docs/clients.md §6.5).
var BaseSeed = sync.OnceValue(func() uint64 {
	if *seedFlag != 0 {
		return *seedFlag
	}
	return uint64(time.Now().UnixNano())
})

// RunOnce executes one scenario under p on a fresh cluster and judges it.
func RunOnce(t *testing.T, p Protocol, sc Scenario, seed uint64) Verdict {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute+2*sc.For)
	defer cancel()
	h, err := New(ctx, Config{Protocol: p, Bootstrap: Bootstrap(), Seed: seed, Jitter: SuiteJitter, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	runErr := h.Run(ctx, sc)
	h.Close()
	return Judge(h, runErr)
}

// SaveArtifacts writes a run's artifacts and logs where: under go test's -outputdir with
// -artifacts (testing.T.ArtifactDir), else in a new temporary directory that outlives the
// test.
func SaveArtifacts(t *testing.T, v Verdict) {
	t.Helper()
	var dir string
	if f := flag.Lookup("test.artifacts"); f != nil && f.Value.String() == "true" {
		dir = t.ArtifactDir()
	} else {
		var err error
		if dir, err = os.MkdirTemp("", "conformance-"); err != nil {
			t.Errorf("artifacts: %v", err)
			return
		}
	}
	path, err := v.Save(dir, strings.ReplaceAll(t.Name(), "/", "_"))
	if err != nil {
		t.Errorf("artifacts: %v", err)
		return
	}
	t.Logf("history: %s (report and logs beside it)", path)
}

// tally is what the clean runs of one (protocol, scenario) came to.
type tally struct {
	runs, failed, violations, zombieRuns, zombies, known int
	wall                                                 []time.Duration
	spans                                                []time.Duration
}

// Conformance runs every scenario under every protocol and checks each history with the
// oracle: a violation, a failed step or a kfake ERROR fails the run; zombies and known kfake
// deviations are logged, zombies with how long the overlap lasted (docs/clients.md §6.5). Under
// -short (and no -soak) only the pairs keep(p, sc) accepts run; keep nil runs all.
func Conformance(t *testing.T, protocols []Protocol, scenarios []Scenario, keep func(Protocol, Scenario) bool) {
	n := Runs()
	seed := BaseSeed()
	t.Logf("seed %d, %d run(s) per scenario", seed, n)
	tallies := map[string]*tally{}
	var order []string
	for _, p := range protocols {
		t.Run(p.Name, func(t *testing.T) {
			for _, sc := range scenarios {
				t.Run(sc.Name, func(t *testing.T) {
					if testing.Short() && *soakRuns == 0 && (sc.Long || keep != nil && !keep(p, sc)) {
						t.Skip("long form only")
					}
					if Bootstrap() != "" && sc.NeedsKfake() {
						t.Skip(ErrNeedsKfake.Error())
					}
					if p.Mixed == nil && sc.NeedsMixed() {
						t.Skip("the protocol has no mixed eager and cooperative form (Protocol.Mixed)")
					}
					key := p.Name + "/" + sc.Name
					tl := &tally{}
					tallies[key], order = tl, append(order, key)
					for i := range n {
						s := seed + uint64(len(order)*1000+i)
						if n == 1 {
							conform(t, p, sc, s, tl)
							continue
						}
						t.Run(fmt.Sprintf("run%d", i), func(t *testing.T) { conform(t, p, sc, s, tl) })
					}
				})
			}
		})
	}
	for _, k := range order {
		tl := tallies[k]
		t.Logf("%-28s runs %d failed %d violations %d zombie-runs %d zombies %d known %d wall %s overlap %s",
			k, tl.runs, tl.failed, tl.violations, tl.zombieRuns, tl.zombies, tl.known, spread(tl.wall), spread(tl.spans))
	}
}

func conform(t *testing.T, p Protocol, sc Scenario, seed uint64, tl *tally) {
	start := time.Now()
	v := RunOnce(t, p, sc, seed)
	wall := time.Since(start)
	tl.runs++
	tl.wall = append(tl.wall, wall)
	tl.violations += len(v.Report.Violations)
	if len(v.Known) > 0 {
		tl.known++
	}
	if len(v.Report.Zombies) > 0 {
		tl.zombieRuns++
		tl.zombies += len(v.Report.Zombies)
		tl.spans = append(tl.spans, v.ZombieSpans()...)
	}
	t.Logf("seed %d, %v: %s", seed, wall.Round(time.Millisecond), v.Summary())
	for _, k := range v.Known {
		t.Logf("known deviation: %s", k)
	}
	for _, k := range v.Notes {
		t.Logf("check: %s", k)
	}
	for _, z := range v.Report.Zombies {
		t.Logf("zombie %s: %s", z.Property, z.Message)
	}
	for _, e := range v.History {
		if e.Kind == history.Heal {
			t.Logf("heal %s: %s", e.Node, e.Note) // a cut member that kept fetching polled records
		}
	}
	if !v.OK() {
		tl.failed++
		t.Errorf("%s", v.Report)
		SaveArtifacts(t, v)
	} else if *keepAll {
		SaveArtifacts(t, v)
	}
}

// spread renders durations as min/median/max.
func spread(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	r := func(d time.Duration) time.Duration { return d.Round(10 * time.Millisecond) }
	return fmt.Sprintf("%v/%v/%v", r(s[0]), r(s[len(s)/2]), r(s[len(s)-1]))
}
