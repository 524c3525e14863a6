package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// symmetryReport is the "symmetry" object of explore's JSON report, present when --symmetry
// was given: the interchangeable members, the size of the group, and why members with equal
// roles were not reduced, if they were not.
type symmetryReport struct {
	Classes      [][]string `json:"classes"`
	Permutations int        `json:"permutations"`
	Blocked      string     `json:"blocked,omitempty"`

	text string
}

// checkWorld explores m's world, under the symmetry of interchangeable members when asked
// (then the report says so; nil otherwise).
func checkWorld(m *invariants.Model, symmetry, por bool, o explorer.Options) (explorer.Report[spec.World, spec.Action], *symmetryReport) {
	if os.Getenv("GOGC") == "" {
		// The frontier is packed off the Go heap (invariants.Check) and a step copies only the
		// slot it changes, so the live heap is small (cooperative-kafka: about 15 MB at the
		// end) and little garbage is made: a lower goal than main's 400 costs little time.
		// Measured on cooperative-kafka, shared machine, two interleaved rounds: peak RSS
		// 48.2 MB at 100, 44.1–44.5 MB at 75, 42.1 MB at 50; the collector's share of the
		// CPU (gctrace) 8% at 100, 11% at 75 — the run's CPU time varied more than that
		// between rounds (17.9–24.5 s).
		defer debug.SetGCPercent(debug.SetGCPercent(75))
	}
	if por {
		return invariants.Check(invariants.NewReduced(m), m.Config(), m.Properties(), o), nil
	}
	if !symmetry {
		return invariants.Check(m, m.Config(), m.Properties(), o), nil
	}
	sm := invariants.NewSymmetric(m)
	s := sm.Symmetry()
	return invariants.Check(sm, m.Config(), m.Properties(), o),
		&symmetryReport{Classes: s.Classes(), Permutations: s.Order(), Blocked: s.Blocked(), text: s.String()}
}

// errSymmetryLiveness refuses --symmetry with --liveness: the liveness check builds its own
// graph of real worlds and judges fairness per slot, which a graph of orbits cannot tell
// (invariants.Symmetric).
const errSymmetryLiveness = "--symmetry cannot be combined with --liveness or --max-rounds: the liveness check judges fairness per member along cycles of real worlds, and a cycle of orbits may end in a permuted copy of its start; run the liveness check without --symmetry"

// withSymmetry is the JSON form of the report, with the symmetry object when there is one.
func withSymmetry(rep *report, sym *symmetryReport) any {
	if sym == nil {
		return rep
	}
	return struct {
		*report
		Symmetry *symmetryReport `json:"symmetry"`
	}{rep, sym}
}

// writeSymmetry ends the text report with the group used.
func writeSymmetry(w io.Writer, sym *symmetryReport) {
	if sym != nil {
		fmt.Fprintf(w, "\nsymmetry: %s\n", sym.text)
	}
}
