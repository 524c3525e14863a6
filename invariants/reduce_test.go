package invariants

import (
	"slices"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// checkBoth explores c fully and with partial-order reduction (through the packed frontier,
// as explore does), within maxStates (0: exhaustive).
func checkBoth(t *testing.T, c spec.Config, maxStates int64) (full, red explorer.Report[spec.World, spec.Action]) {
	t.Helper()
	m := NewModel(c)
	o := explorer.Options{MaxStates: maxStates}
	full = Check(m, c, m.Properties(), o)
	red = Check(NewReduced(m), c, m.Properties(), o)
	if red.Err != nil {
		t.Fatalf("reduced run: %v", red.Err)
	}
	return full, red
}

// sameReducedVerdicts compares the verdicts of a full and a reduced run. Both exhaustive: every
// status is the same. The full run bounded: every property it decided is decided the same
// way by the reduced run within the same bound (the reduced run reaches at least as deep).
// Every counterexample of the reduced run ends where its property fails.
func sameReducedVerdicts(t *testing.T, m *Model, full, red explorer.Report[spec.World, spec.Action]) {
	t.Helper()
	for k, f := range full.Properties {
		r := red.Properties[k]
		switch {
		case full.Exhaustive && red.Exhaustive && f.Status != r.Status:
			t.Errorf("%s: %s in the full graph, %s in the reduced one", f.Name, f.Status, r.Status)
		case !full.Exhaustive && (f.Status == explorer.Violated || f.Status == explorer.Holds && f.Kind == explorer.Sometimes) && f.Status != r.Status:
			t.Errorf("%s: %s in the bounded full graph, %s in the reduced one", f.Name, f.Status, r.Status)
		}
		if r.Path == nil {
			continue
		}
		last := r.Path.Last()
		check := m.Properties()[k].Check
		if (r.Status == explorer.Violated) == check(last) {
			t.Errorf("%s: the reduced run's path does not end where the property is decided", f.Name)
		}
	}
	if full.Exhaustive != red.Exhaustive && red.Distinct > full.Distinct {
		t.Errorf("the reduced run explored more (%d states) than the full one (%d)", red.Distinct, full.Distinct)
	}
}

// TestReducedSameVerdicts: partial-order reduction changes no verdict on any preset that
// can be exhausted here (the two three-member presets cannot: see README Reductions): two
// small ones by default and under -short, kip848-kafka too under GROUPCHECK_CI (4 s of CPU,
// as much as the other two), all under GROUPCHECK_LONG.
func TestReducedSameVerdicts(t *testing.T) {
	t.Parallel()
	small := []string{"kip848-static", "upgrade-v0-leader"}
	for _, p := range spec.Presets {
		switch {
		case p.Name == "cooperative-three" || p.Name == "kip848-three":
			continue
		case slices.Contains(small, p.Name):
		case p.Name == "kip848-kafka" && ci():
		case !long():
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			c, err := p.Config()
			if err != nil {
				t.Fatal(err)
			}
			full, red := checkBoth(t, c, 0)
			if !full.Exhaustive || !red.Exhaustive {
				t.Fatalf("not exhaustive: %s / %s", full.StoppedBy, red.StoppedBy)
			}
			sameReducedVerdicts(t, NewModel(c), full, red)
			t.Logf("%d states, %d with reduction", full.Distinct, red.Distinct)
		})
	}
}

// TestReducedSameVerdictsOnMutants: nor on any mutant's world, within the mutant's own
// state bound where it has one: the light ones by default, join-timer-zero's (30,000 states,
// half the light ones' cost) too under GROUPCHECK_CI, all under GROUPCHECK_LONG (all pass:
// 333 s on the shared machine, 2026-12-01).
func TestReducedSameVerdictsOnMutants(t *testing.T) {
	t.Parallel()
	for _, mu := range Mutants {
		if mu.World == "" {
			continue
		}
		t.Run(mu.Fault.String(), func(t *testing.T) {
			t.Parallel()
			heavy := slices.Contains([]string{"B7", "B8a", "B8b", "B9", "B10", "B18", "B27", "sarama", "invert"}, mu.Bug)
			if testing.Short() || heavy && !long() {
				t.Skip("explores the mutant's world twice (GROUPCHECK_LONG)")
			}
			if mu.Fault == impl.FaultJoinTimerZero && !ci() {
				t.Skip("explores 30,000 states twice (GROUPCHECK_CI)")
			}
			c, err := mu.Config()
			if err != nil {
				t.Fatal(err)
			}
			full, red := checkBoth(t, c, mu.MaxStates)
			sameReducedVerdicts(t, NewModel(c), full, red)
		})
	}
}

// TestReductionReduces pins the reduced count of kip848-kafka (57,869 states in full), so
// that a change that makes the reduction vacuous, or larger, shows.
func TestReductionReduces(t *testing.T) {
	t.Parallel()
	p, _ := spec.LookupPreset("kip848-kafka")
	c, _ := p.Config()
	m := NewReduced(NewModel(c))
	r := Check(m, c, m.Properties(), explorer.Options{})
	if !r.Exhaustive || r.Distinct != 52_525 {
		t.Errorf("kip848-kafka with reduction: %d states (exhaustive %v), want 52,525", r.Distinct, r.Exhaustive)
	}
}
