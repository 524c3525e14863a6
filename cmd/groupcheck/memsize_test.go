package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestParseSize: the units of --max-memory and --spill-frontier, exact (powers of 1000 for
// KB…TB, of 1024 for KiB…TiB) and strict: what is not a number and a listed unit is refused.
func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
	}{
		{"0", 0},
		{"1073741824", 1 << 30},
		{"1B", 1},
		{"2GB", 2_000_000_000},
		{"512MiB", 512 << 20},
		{"1.5GiB", 3 << 29},
		{"64KiB", 64 << 10},
		{"0.5KB", 500},
		{"1TB", 1e12},
		{"2TiB", 2 << 40},
		{"18446744073709551615", 1<<64 - 1},
	} {
		got, err := parseSize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "2G", "2gb", "2 GB", "-1", "1e9", "1.2.3MB", "MB", "0x10", "1.5", "1.5B", "18446744073709551616", "20000000TiB", "+5MB"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}

// TestExploreMaxMemoryFlag: a bad size is a usage error that names the flag and the units; a
// limit the world cannot be explored in gives a clean partial report (stopped_by max-memory,
// complete levels, properties unknown) and no OS kill.
func TestExploreMaxMemoryFlag(t *testing.T) {
	code, _, errs := runCLI(t, "explore", "--config", writeConfig(t, tiny), "--max-memory", "2G")
	if code != 2 || !strings.Contains(errs, `invalid value "2G" for flag --max-memory`) || !strings.Contains(errs, "MiB") {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	// Stopped at the initial world, the run decides nothing: exit 3 (exitUndecided).
	code, out, errs := runCLI(t, "explore", "--config", writeConfig(t, tiny), "--max-memory", "1MiB", "--json")
	if code != exitUndecided {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	var r struct {
		Exhaustive bool
		StoppedBy  string `json:"stopped_by"`
		Distinct   int64
		Properties []struct{ Status string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if r.Exhaustive || r.StoppedBy != "max-memory" || r.Distinct != 1 {
		t.Fatalf("exhaustive %v, stopped by %q, %d states; want the initial world only, stopped by max-memory", r.Exhaustive, r.StoppedBy, r.Distinct)
	}
	for _, p := range r.Properties {
		if p.Status != "unknown" && p.Status != "holds" {
			t.Errorf("status %q on a run stopped at the initial world", p.Status)
		}
	}
}
