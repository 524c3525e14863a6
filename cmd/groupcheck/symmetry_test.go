package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// zombieKIP848 is the smallest KIP-848 world with interchangeable members and a violation:
// one session timeout opens the zombie window (docs/protocol.md §1.12), so the strict ownership
// property fails (expected).
const zombieKIP848 = `protocol consumer
consumer kafka
coordinator kafka
assignor any
topic t 1
member a topics=t
member b topics=t
budget session-timeouts=1
`

type symmetryJSON struct {
	Distinct   int64 `json:"distinct"`
	Properties []struct {
		Name   string   `json:"name"`
		Status string   `json:"status"`
		Trace  []string `json:"trace"`
	} `json:"properties"`
	Symmetry *symmetryReport `json:"symmetry"`
}

func exploreJSON(t *testing.T, args ...string) symmetryJSON {
	t.Helper()
	code, out, errs := runCLI(t, append([]string{"explore", "--json", "--workers", "1"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var r symmetryJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return r
}

// TestExploreSymmetry: --symmetry halves this world (one swap of a and b; 1,363 orbits of
// 2,725 worlds, spec.TestExactOrbits' method), says so in the JSON report, and finds the same
// verdicts with a counterexample as long.
func TestExploreSymmetry(t *testing.T) {
	f := writeConfig(t, zombieKIP848)
	plain, sym := exploreJSON(t, "--config", f), exploreJSON(t, "--config", f, "--symmetry")
	if plain.Symmetry != nil {
		t.Errorf("symmetry reported without --symmetry: %+v", plain.Symmetry)
	}
	if sym.Symmetry == nil || sym.Symmetry.Permutations != 2 || len(sym.Symmetry.Classes) != 1 || strings.Join(sym.Symmetry.Classes[0], ",") != "a,b" {
		t.Fatalf("symmetry object %+v, want classes [[a b]] and 2 permutations", sym.Symmetry)
	}
	if plain.Distinct != 2725 || sym.Distinct != 1363 {
		t.Errorf("distinct %d plain, %d under symmetry; want 2725 and 1363", plain.Distinct, sym.Distinct)
	}
	for i, p := range plain.Properties {
		s := sym.Properties[i]
		if p.Status != s.Status || len(p.Trace) != len(s.Trace) {
			t.Errorf("%s: %s (%d steps) plain, %s (%d steps) under symmetry", p.Name, p.Status, len(p.Trace), s.Status, len(s.Trace))
		}
	}
	code, out, _ := runCLI(t, "explore", "--config", f, "--symmetry", "--workers", "1")
	if code != 0 || !strings.Contains(out, "symmetry: interchangeable {a b}, 2 permutations") {
		t.Errorf("exit %d, text report without the group:\n%s", code, out)
	}
}

// TestExploreSymmetryTrivial: a preset whose assignor breaks ties by member id is explored
// without reduction, and the report says why.
func TestExploreSymmetryTrivial(t *testing.T) {
	r := exploreJSON(t, "--config", writeConfig(t, tiny), "--symmetry")
	if r.Distinct != 476 || r.Symmetry == nil || r.Symmetry.Permutations != 1 || !strings.Contains(r.Symmetry.Blocked, "cooperative-sticky") {
		t.Errorf("distinct %d, symmetry %+v; want 476 states, no reduction, and why", r.Distinct, r.Symmetry)
	}
}

// TestSymmetryCounterexamplesReplay: the traces --symmetry writes replay, for a world the
// group reduces and for a mutant's.
func TestSymmetryCounterexamplesReplay(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		code  int
		trace string
	}{
		{[]string{"--config", writeConfig(t, zombieKIP848)}, 0, "world.conf-kip848-exclusive-ownership-strict.trace"},
		{[]string{"--config", writeConfig(t, buggy)}, 1, "world.conf-exclusive-ownership.trace"},
	} {
		dir := t.TempDir()
		if code, out, errs := runCLI(t, append([]string{"explore", "--symmetry", "--out", dir, "--workers", "1"}, tc.args...)...); code != tc.code {
			t.Fatalf("explore exit %d, want %d\n%s%s", code, tc.code, out, errs)
		}
		f := filepath.Join(dir, tc.trace)
		if _, err := os.Stat(f); err != nil {
			t.Fatal(err)
		}
		if code, out, errs := runCLI(t, "replay", f); code != 0 || !strings.Contains(out, "ok, ") {
			t.Errorf("replay %s: exit %d\n%s%s", tc.trace, code, out, errs)
		}
	}
}

// TestSymmetryRefusesLiveness: liveness is not checked on orbits (invariants.Symmetric).
func TestSymmetryRefusesLiveness(t *testing.T) {
	for _, flag := range []string{"--liveness", "--max-rounds=2"} {
		code, _, errs := runCLI(t, "explore", "--config", writeConfig(t, zombieKIP848), "--symmetry", flag)
		if code != 2 || !strings.Contains(errs, "--symmetry cannot be combined with --liveness") {
			t.Errorf("%s: exit %d, stderr %q", flag, code, errs)
		}
	}
}
