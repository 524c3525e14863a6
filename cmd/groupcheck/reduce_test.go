package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReductionRefuses: --por is refused beside what it does not preserve or is not proved
// with (errReduction).
func TestReductionRefuses(t *testing.T) {
	for _, flag := range []string{"--liveness", "--max-rounds=2", "--max-unavailable=0", "--symmetry"} {
		code, _, errs := runCLI(t, "explore", "--preset", "kip848-static", "--por", flag)
		if code != 2 || !strings.Contains(errs, "--por cannot be combined") {
			t.Errorf("%s: exit %d, stderr %q", flag, code, errs)
		}
	}
}

// TestReductionExplore: explore --por reports the reduction, explores fewer states than the
// plain run to the same verdicts, and writes counterexamples that replay.
func TestReductionExplore(t *testing.T) {
	type run struct {
		Distinct   int64  `json:"distinct"`
		Exhaustive bool   `json:"exhaustive"`
		Reduction  string `json:"reduction"`
		Properties []struct {
			Name   string `json:"name"`
			Status string `json:"status"`
		} `json:"properties"`
	}
	var plain, red run
	cfg := writeConfig(t, zombieKIP848)
	for _, r := range []struct {
		v    *run
		args []string
	}{{&plain, nil}, {&red, []string{"--por"}}} {
		_, out, errs := runCLI(t, append([]string{"explore", "--config", cfg, "--json"}, r.args...)...)
		if err := json.Unmarshal([]byte(out), r.v); err != nil {
			t.Fatalf("%v\n%s%s", err, out, errs)
		}
	}
	if red.Reduction != "partial-order" || plain.Reduction != "" || !red.Exhaustive || red.Distinct >= plain.Distinct {
		t.Errorf("reduced run %+v, plain %+v", red, plain)
	}
	for i, p := range plain.Properties {
		if red.Properties[i].Status != p.Status {
			t.Errorf("%s: %s reduced, %s plain", p.Name, red.Properties[i].Status, p.Status)
		}
	}
	dir := t.TempDir()
	code, out, errs := runCLI(t, "explore", "--config", cfg, "--por", "--out", dir)
	if code != 0 || !strings.Contains(out, "partial-order reduction: the counts are of the reduced graph") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	traces, _ := filepath.Glob(filepath.Join(dir, "*.trace"))
	if len(traces) == 0 {
		t.Fatal("no counterexample written")
	}
	for _, f := range traces {
		b, _ := os.ReadFile(f)
		if !strings.Contains(string(b), "partial-order reduction") {
			t.Errorf("%s: the header does not say how it was found", f)
		}
		if code, out, errs := runCLI(t, "replay", f); code != 0 || !strings.Contains(out, "ok, ") {
			t.Errorf("replay %s: exit %d\n%s%s", f, code, out, errs)
		}
	}
}
