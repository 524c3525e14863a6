package invariants

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestMutantsAreCaught: every mutant with a world is caught there by each property it names
// (and by the bound on rounds, when it has one), and each of those holds in the same world
// without the fault — so it is the fault, not the world, that is caught. Every fault of impl
// is registered. The heavy mutants' worlds (50k to 170k states, explored two to four times)
// run whole under GROUPCHECK_LONG, heartbeat-fencing-as-rebalance's (4 s) under GROUPCHECK_CI;
// by default only their faulty world's first 40,000 states (biteBounds), in which each safety
// property they name must already be violated.
func TestMutantsAreCaught(t *testing.T) {
	t.Parallel()
	for _, f := range impl.AllFaults() {
		if _, ok := LookupMutant(f.String()); !ok {
			t.Errorf("fault %s has no mutant entry", f)
		}
	}
	for _, m := range Mutants {
		caught := len(m.Catches) > 0 || m.MaxRounds > 0
		if m.World == "" || !caught {
			if m.Uncaught == "" || caught {
				t.Errorf("%s: a mutant without a world must say why it is uncaught and catch nothing", m.Fault)
			}
			if m.World == "" {
				continue
			}
		}
		t.Run(m.Fault.String(), func(t *testing.T) {
			t.Parallel()
			heavy := slices.Contains([]string{"B7", "B8a", "B8b", "B9", "B10", "B18", "B27"}, m.Bug) ||
				m.Fault == impl.FaultCommitIgnoresFencing || m.Fault == impl.FaultKeepsEpochWhenFenced
			// Explored whole in 4 s, half the rest together: whole under GROUPCHECK_CI.
			ciWhole := m.Fault == impl.FaultHeartbeatFencingAsRebalance
			if testing.Short() && heavy {
				t.Skip("explores 50k to 170k states two to four times")
			}
			c, err := m.Config()
			if err != nil {
				t.Fatal(err)
			}
			if heavy && !long() || ciWhole && !ci() {
				bound, ok := biteBounds[m.Fault]
				if !ok {
					bound = 40_000
				}
				if bound == 0 {
					t.Skip("caught only deep in its world (GROUPCHECK_LONG)")
				}
				bitesWithin(t, m, c, bound)
				return
			}
			m2 := NewModel(c)
			faulty := explorer.Check[spec.World, spec.Action](m2, m2.Properties(), explorer.Options{MaxStates: m.MaxStates})
			withFault := c
			if c, err = m.BaseConfig(); err != nil {
				t.Fatal(err)
			}
			correct := check(t, c, 0)
			if !correct.Exhaustive {
				t.Fatalf("the correct world is not exhaustive: %s", correct.StoppedBy)
			}
			for _, name := range m.Catches {
				if name == ConvergesName {
					bad, good := Liveness(withFault, 1_000_000), Liveness(c, 1_000_000)
					if bad.Status != explorer.Violated || good.Status != explorer.Holds {
						t.Errorf("%s: %s with the fault, %s without; want violated and holds", name, bad.Status, good.Status)
					}
					continue
				}
				if s := status(faulty, name); s != explorer.Violated {
					t.Errorf("%s: %s with the fault, want violated", name, s)
				}
				if s := status(correct, name); s != explorer.Holds {
					t.Errorf("%s: %s without the fault, want holds", name, s)
				}
			}
			if m.MaxRounds > 0 {
				bad, good := Liveness(withFault, 1_000_000).Rounds, Liveness(c, 1_000_000).Rounds
				if good.Rebalances == Unbounded || good.Rebalances > m.MaxRounds {
					t.Errorf("rounds: %d without the fault, want at most %d", good.Rebalances, m.MaxRounds)
				}
				if bad.Rebalances != Unbounded && bad.Rebalances <= m.MaxRounds {
					t.Errorf("rounds: %d with the fault, want more than %d", bad.Rebalances, m.MaxRounds)
				}
			}
			for _, p := range faulty.Properties {
				expected := false
				if q, ok := Lookup(p.Name); ok {
					expected = q.ExpectedViolation(c) != ""
				}
				inBase := len(m.Base) > 0 && status(correct, p.Name) == explorer.Violated
				if p.Status == explorer.Violated && !slices.Contains(m.Catches, p.Name) && p.Name != "exclusive-ownership-strict" && !expected && !inBase {
					t.Errorf("%s is also violated: list it in Catches", p.Name)
				}
			}
		})
	}
}

// biteBounds is how many of a heavy mutant's faulty worlds the default run explores, where
// 40,000 is not enough for the shortest counterexample of each property it names (BFS finds
// them first); 0 leaves the mutant to GROUPCHECK_LONG. Measured 2026-12-03.
var biteBounds = map[impl.Fault]int64{
	impl.FaultBalanceMovesOwned:         80_000,
	impl.FaultDropLowerGenerationClaims: 0, // exclusive-ownership: not within 80,000
}

// bitesWithin is TestMutantsAreCaught's default form of a heavy mutant: each safety property
// m names is violated within the first bound states of its faulty world c. The search checks
// those properties only, so it ends with the level where the last of them fails. Whether they
// hold without the fault, and the liveness and round catches, are left to GROUPCHECK_LONG; a
// mutant that names no safety property is skipped.
func bitesWithin(t *testing.T, m Mutant, c spec.Config, bound int64) {
	t.Helper()
	if m.MaxStates > 0 && m.MaxStates < bound {
		bound = m.MaxStates
	}
	var props []Property
	for _, name := range m.Catches {
		if name == ConvergesName {
			continue
		}
		p, ok := Lookup(name)
		if !ok {
			t.Fatalf("%s: no such property", name)
		}
		props = append(props, p)
	}
	if len(props) == 0 {
		t.Skip("caught by liveness only (GROUPCHECK_LONG)")
	}
	mm := NewModelWith(c, props)
	faulty := explorer.Check[spec.World, spec.Action](mm, mm.Properties(), explorer.Options{MaxStates: bound})
	for _, p := range props {
		if s := status(faulty, p.Name); s != explorer.Violated {
			t.Errorf("%s: %s within %d states of the faulty world, want violated", p.Name, s, bound)
		}
	}
}

// TestB8aHasNoConsequence pins why only claims-truthful, a property of the message, catches
// B8a: on the reference its stale label changes no other verdict, no rebalance count and no
// unavailability in the world where labels are read (v1 subscriptions, a join that makes a
// member miss its SyncGroup), and under B10's arbitration, the code base where the label
// mattered, it removes the double ownership instead of causing one.
func TestB8aHasNoConsequence(t *testing.T) {
	if !long() {
		t.Skip("explores 140k states four times (GROUPCHECK_LONG)")
	}
	world, err := spec.ParseConfigString("b8a", threeCooperativeV1+"budget joins=1\n")
	if err != nil {
		t.Fatal(err)
	}
	faulty := world
	faulty.Faults = faulty.Faults.With(impl.FaultStaleClaimAfterSyncRebalance)
	verdicts := func(c spec.Config) map[string]explorer.Status {
		out := map[string]explorer.Status{}
		for _, p := range check(t, c, 0).Properties {
			if p.Name != "claims-truthful" {
				out[p.Name] = p.Status
			}
		}
		l := Liveness(c, 1_000_000)
		out[ConvergesName] = l.Status
		if l.Rounds.Rebalances != 2 || l.Rounds.Unavailability != 38 {
			t.Errorf("%v: rounds %d, unavailability %d; want 2 and 38", c.Faults, l.Rounds.Rebalances, l.Rounds.Unavailability)
		}
		return out
	}
	if d := cmp.Diff(verdicts(world), verdicts(faulty)); d != "" {
		t.Errorf("B8a changes a verdict on the reference (-correct +faulty):\n%s", d)
	}
	b10 := world
	b10.Faults = b10.Faults.With(impl.FaultDropLowerGenerationClaims)
	both := b10
	both.Faults = both.Faults.With(impl.FaultStaleClaimAfterSyncRebalance)
	if a, b := status(check(t, b10, 0), "exclusive-ownership"), status(check(t, both, 0), "exclusive-ownership"); a != explorer.Violated || b != explorer.Holds {
		t.Errorf("exclusive-ownership: %s under B10, %s under B10 and B8a; want violated and holds", a, b)
	}
}
