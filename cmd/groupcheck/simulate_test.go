package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
