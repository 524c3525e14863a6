package traces

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// lassos regenerates the golden traces of the liveness and rounds catches: the lasso
// invariants.Liveness finds for a mutant that converges catches, and the shortest excess of
// rounds (roundsPath) for a mutant with MaxRounds: go test ./traces -run
// TestGoldenMutantTraces -lassos. (The safety goldens come from `groupcheck explore --mutant
// NAME --out DIR`.)
var lassos = flag.Bool("lassos", false, "regenerate traces/golden/*-converges.trace and *-rounds.trace")

// TestGoldenMutantTraces: every mutant that a property catches keeps, per catching property,
// the explorer's shortest counterexample in golden/<fault>-<property>.trace, written by
// `groupcheck explore --mutant NAME --out DIR` (never by hand); for converges, the lasso
// Liveness reports (-lassos). The trace names the property, carries the fault in its config,
// and (with the rest of the corpus, TestScenarios) replays; a lasso's cycle closes or its
// dead end is one (checkLasso).
func TestGoldenMutantTraces(t *testing.T) {
	for _, m := range invariants.Mutants {
		for _, prop := range m.Catches {
			path := filepath.Join("golden", m.Fault.String()+"-"+prop+".trace")
			if prop == invariants.ConvergesName && *lassos {
				if err := writeGoldenLasso(m, path); err != nil {
					t.Fatal(err)
				}
			}
			f, err := os.Open(path)
			if err != nil {
				t.Errorf("mutant %s (%s): no golden trace for %s: %v", m.Fault, m.Bug, prop, err)
				continue
			}
			tr, err := Parse(path, f)
			f.Close()
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			if tr.Header.Property != prop || !tr.Config.Faults.Has(m.Fault) {
				t.Errorf("%s: property %q, faults %v; want %s with %s", path, tr.Header.Property, tr.Config.Faults, prop, m.Fault)
			}
			if prop == invariants.ConvergesName && tr.Header.cycleLine() == "" {
				t.Errorf("%s: a converges trace without `# cycle:`", path)
			}
			res, err := Replay(tr)
			if err != nil || res.Divergence != nil {
				t.Errorf("%s does not replay: %v %+v", path, err, res.Divergence)
			}
		}
		if m.MaxRounds > 0 {
			goldenRounds(t, m)
		}
	}
}

// goldenRounds checks a rounds golden: it replays, and after its last environment event in a
// converged group it passes more rebalances than the mutant's bound before converging again.
func goldenRounds(t *testing.T, m invariants.Mutant) {
	path := filepath.Join("golden", m.Fault.String()+"-rounds.trace")
	if *lassos {
		if err := writeGoldenRounds(m, path); err != nil {
			t.Fatal(err)
		}
	}
	tr := parseFile(t, path)
	if !tr.Config.Faults.Has(m.Fault) {
		t.Errorf("%s: faults %v, want %s", path, tr.Config.Faults, m.Fault)
	}
	res, err := Replay(tr)
	if err != nil || res.Divergence != nil {
		t.Fatalf("%s does not replay: %v %+v", path, err, res.Divergence)
	}
	if n, ok := roundsAfterEvent(tr.Config, res); !ok || n <= m.MaxRounds {
		t.Errorf("%s: %d rebalances after the event (converged again: %v), want more than %d", path, n, ok, m.MaxRounds)
	}
}

// roundsAfterEvent counts the rebalances a replay passes after its last environment event
// taken in a converged world, and reports whether it ends converged with no event since.
func roundsAfterEvent(c spec.Config, res *Result) (int, bool) {
	goal := invariants.Goal(c)
	event := -1
	for i, s := range res.Steps {
		if !s.Step.Check && s.Enabled && !invariants.Fair(s.Step.Action, s.Pre, s.Post) {
			if !goal(s.Pre) {
				return 0, false
			}
			event = i
		}
	}
	if event < 0 || !goal(res.Steps[len(res.Steps)-1].Post) {
		return 0, false
	}
	return rebalances(res.Steps[len(res.Steps)-1].Post) - rebalances(res.Steps[event].Pre), true
}

// writeGoldenRounds writes the shortest trace that converges, takes one environment event,
// then passes m.MaxRounds+1 rebalances by protocol actions alone and converges again.
func writeGoldenRounds(m invariants.Mutant, path string) error {
	c, err := m.Config()
	if err != nil {
		return err
	}
	acts, distinct, ok := roundsPath(c, m.MaxRounds+1)
	if !ok {
		return fmt.Errorf("%s: no behaviour passes %d rebalances after one event", m.Fault, m.MaxRounds+1)
	}
	h := Header{
		About: []string{fmt.Sprintf("mutant %s (%s, %s): %s", m.Fault, m.Bug, m.Source, m.Summary),
			fmt.Sprintf("caught by the bound on rounds: after one environment event in a converged group the correct model converges within %d rebalances (explore --max-rounds %d); here %d pass", m.MaxRounds, m.MaxRounds, m.MaxRounds+1)},
		Found: fmt.Sprintf("bfs shortest, %d steps, %d distinct (world, rounds) pairs", len(acts), distinct),
	}
	tr, err := Rewrite(New(c.Name, h, c, acts))
	if err != nil {
		return err
	}
	var b strings.Builder
	if err := Format(&b, tr); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// roundsPath is a shortest path through a converged world, one environment event there, then
// protocol actions only (as Liveness's Rounds measures) until a converged world want
// rebalances after the event. It searches (world, rebalances since the event) pairs, -1
// before the event.
func roundsPath(c spec.Config, want int) ([]spec.Action, int, bool) {
	type node struct {
		w      spec.World
		since  int
		parent int
		act    spec.Action
	}
	goal := invariants.Goal(c)
	key := func(w spec.World, since int) string { return string(append(w.Encode(nil), byte(since+1))) }
	nodes := []node{{w: spec.Init(c), since: -1, parent: -1}}
	seen := map[string]bool{key(nodes[0].w, -1): true}
	for i := 0; i < len(nodes); i++ {
		cur := nodes[i]
		for _, a := range spec.Actions(cur.w, nil) {
			n, _, ok := spec.Step(cur.w, a)
			if !ok {
				continue
			}
			since := cur.since
			switch env := !invariants.Fair(a, cur.w, n); {
			case since < 0 && env && goal(cur.w):
				since = rebalances(n) - rebalances(cur.w)
			case since < 0:
			case env:
				continue // after the event the environment acts no more
			default:
				since += rebalances(n) - rebalances(cur.w)
			}
			if since > want || seen[key(n, since)] {
				continue
			}
			seen[key(n, since)] = true
			nodes = append(nodes, node{w: n, since: since, parent: i, act: a})
			if since == want && goal(n) {
				var acts []spec.Action
				for j := len(nodes) - 1; j > 0; j = nodes[j].parent {
					acts = append(acts, nodes[j].act)
				}
				slices.Reverse(acts)
				return acts, len(nodes), true
			}
		}
	}
	return nil, len(nodes), false
}

// rebalances is a world's count of completed rebalances: the classic generation, or the
// KIP-848 group epoch.
func rebalances(w spec.World) int {
	if w.Config().ConsumerProtocol {
		return int(w.Group.GroupEpoch())
	}
	return int(w.Coord.Generation())
}

// writeGoldenLasso writes the lasso Liveness finds for the mutant in its world.
func writeGoldenLasso(m invariants.Mutant, path string) error {
	c, err := m.Config()
	if err != nil {
		return err
	}
	lr := invariants.Liveness(c, 1_000_000)
	if lr.Status != explorer.Violated {
		return fmt.Errorf("%s: converges %s, want violated", m.Fault, lr.Status)
	}
	l := lr.Lasso
	shape := fmt.Sprintf("then the last %d repeat forever", len(l.Cycle))
	if len(l.Cycle) == 0 {
		shape = "ending in a dead end"
	}
	h := Header{
		About: []string{fmt.Sprintf("%s violated: %s", invariants.ConvergesName, invariants.ConvergesStatement),
			fmt.Sprintf("mutant %s (%s, %s): %s", m.Fault, m.Bug, m.Source, m.Summary)},
		Found: fmt.Sprintf("bfs liveness lasso, %d steps %s, %d distinct states, %d stuck",
			len(l.Prefix.Steps)+len(l.Cycle), shape, lr.Distinct, lr.Stuck),
	}
	var b strings.Builder
	if err := WriteLasso(&b, h, c, l); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
