package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/simulate"
	"github.com/groupcheck/groupcheck/spec"
)

func TestSimulateSameSeedSameResult(t *testing.T) {
	cfg := writeConfig(t, buggy)
	var runs []string
	for i := 0; i < 2; i++ {
		code, out, errs := runCLI(t, "simulate", "--config", cfg, "--seed", "42", "--walks", "50", "--depth", "60", "--json")
		if code != 1 {
			t.Fatalf("exit %d on a buggy world, want 1\n%s%s", code, out, errs)
		}
		var rep struct {
			Seed       uint64
			Steps      int
			Violations []struct {
				Property string
				Walk     int
				Steps    int
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Seed != 42 || len(rep.Violations) == 0 {
			t.Fatalf("seed %d, violations %v", rep.Seed, rep.Violations)
		}
		runs = append(runs, strings.Join(strings.Fields(out), " "))
	}
	strip := func(s string) string {
		i := strings.Index(s, `"seconds"`)
		j := strings.Index(s, `"violations"`)
		return s[:i] + s[j:]
	}
	if strip(runs[0]) != strip(runs[1]) {
		t.Errorf("the same seed gave different results:\n%s\n%s", runs[0], runs[1])
	}
}

func TestSimulateWritesReplayableTraces(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := runCLI(t, "simulate", "--config", writeConfig(t, buggy), "--seed", "7", "--walks", "50", "--depth", "60", "--out", dir)
	if code != 1 || !strings.Contains(out, "reproduce: groupcheck simulate --seed 7") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.sim.trace"))
	if len(files) == 0 {
		t.Fatalf("no trace written")
	}
	for _, f := range files {
		if code, out, errs := runCLI(t, "replay", f); code != 0 {
			b, _ := os.ReadFile(f)
			t.Errorf("%s does not replay: exit %d %s%s\n%s", f, code, out, errs, b)
		}
	}
}

func TestSimulateCorrectWorldFindsNothing(t *testing.T) {
	code, out, _ := runCLI(t, "simulate", "--config", writeConfig(t, tiny), "--seed", "3", "--walks", "30")
	if code != 0 || !strings.Contains(out, "not a proof") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// TestSimulationWalkV0NeedsRejoin replays the walk (seed 7, walk 2113, depth 120) in which
// simulation found the KIP-429 consumer's NEEDS_REJOIN bug: a v0 eager member rejoined still
// owning t-0, which its subscription cannot claim, and the v1 leader handed t-0 away
// (no-handover-while-owned). Fixed in consumer.ApplySyncGroupKIP; see
// traces/scenarios/needs-rejoin-v0-kip.trace.
func TestSimulationWalkV0NeedsRejoin(t *testing.T) {
	data, err := os.ReadFile("../../simulate/testdata/v0-needs-rejoin.conf")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := spec.ParseConfigString("v0-needs-rejoin", string(data))
	if err != nil {
		t.Fatal(err)
	}
	rng := simulate.Seeded(7, 2113)
	c := swarm(cfg, rng)
	m := invariants.NewModel(c)
	if r := simulate.Walk(m, m.Properties(), rng, 120); r.Violated != "" {
		t.Errorf("walk 2113 of seed 7 violates %s after %d steps", r.Violated, len(r.Path.Steps))
	}
}

// TestSimulationWorlds: the worlds of the README's simulation table parse, and a few walks of
// each find nothing unexpected (the table's runs are the long form).
func TestSimulationWorlds(t *testing.T) {
	files, err := filepath.Glob("../../simulate/testdata/*.conf")
	if err != nil || len(files) < 5 {
		t.Fatalf("simulation worlds: %v %v", files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := spec.ParseConfigString(filepath.Base(f), string(data))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range runWalks(cfg, 1, 20, 80, whole, nil).Violations {
			if v.Expected == "" {
				t.Errorf("%s: %s violated in walk %d", f, v.Property, v.Walk)
			}
		}
	}
}

// TestSimulateFindsDeadEnd: a walk that ends where no protocol action is enabled, short of a
// converged group, is a converges violation; its trace replays as a dead-end lasso. B3's
// mutant (a hung leader and no sync timer) ends so within 13 steps.
func TestSimulateFindsDeadEnd(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI(t, "simulate", "--mutant", "no-sync-timer", "--walks", "300", "--depth", "100", "--seed", "1", "--json", "--out", dir)
	if code != 1 || !strings.Contains(out, `"property": "converges"`) {
		t.Fatalf("exit %d, want 1 with a converges finding\n%s%s", code, out, errs)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*converges*.trace"))
	if len(files) != 1 {
		t.Fatalf("traces written: %v", files)
	}
	if code, out, errs := runCLI(t, "replay", files[0]); code != 0 {
		t.Errorf("the dead end does not replay: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := runCLI(t, "simulate", "--preset", "cooperative-kafka", "--walks", "300", "--depth", "200", "--seed", "1", "--json"); code != 0 || strings.Contains(out, "converges") {
		t.Errorf("a correct world reports a dead end: exit %d\n%s", code, out)
	}
}

// TestLivenessRefusesAny: convergence is no question under assignor any, which may leave a
// partition with nobody; explore --liveness says so instead of reporting the assignor's choice
// as a protocol livelock, and simulate does not look for dead ends there.
func TestLivenessRefusesAny(t *testing.T) {
	cfg := writeConfig(t, "protocol cooperative\nconsumer kafka\ncoordinator kafka\nassignor any\ntopic t 2\nmember a topics=t\nmember b topics=t\n")
	code, _, errs := runCLI(t, "explore", "--config", cfg, "--liveness")
	if code != 2 || !strings.Contains(errs, "assignor any") {
		t.Errorf("explore --liveness on an any world: exit %d, %q", code, errs)
	}
	if code, out, _ := runCLI(t, "simulate", "--config", cfg, "--walks", "200", "--depth", "80", "--seed", "1", "--json"); strings.Contains(out, "converges") {
		t.Errorf("simulate looked for dead ends under any: exit %d\n%s", code, out)
	}
}
