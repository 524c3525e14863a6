package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLivenessHonoursBounds: --max-time and --max-states bound the liveness check as they
// bound the search, and a bounded check says so and has no verdict (before, --max-time left
// the liveness graph unbounded: static-kafka --liveness --max-time 20s ran 173 s and reported
// converges). A 1ns max-time has passed before the first look at the clock: no sleep needed.
// That run decides nothing, so it exits exitUndecided; 500 states reach converged-reachable.
func TestLivenessHonoursBounds(t *testing.T) {
	for _, tc := range []struct {
		flag, stoppedBy string
		code            int
	}{
		{"--max-time=1ns", "max-time", exitUndecided},
		{"--max-states=500", "more than the bound's 500 worlds", 0},
	} {
		code, out, errs := runCLI(t, "explore", "--preset", "cooperative-kafka", "--liveness", tc.flag, "--json")
		if code != tc.code {
			t.Fatalf("%s: exit %d, want %d: %s", tc.flag, code, tc.code, errs)
		}
		var rep struct {
			Exhaustive bool `json:"exhaustive"`
			Properties []struct{ Name, Status, Why string }
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, p := range rep.Properties {
			if p.Name != "converges" {
				continue
			}
			found = true
			if p.Status != "unknown" || !strings.Contains(p.Why, "BOUNDED") || !strings.Contains(p.Why, tc.stoppedBy) {
				t.Errorf("%s: converges %s (%s), want unknown and bounded by %s", tc.flag, p.Status, p.Why, tc.stoppedBy)
			}
		}
		if !found || rep.Exhaustive {
			t.Errorf("%s: converges reported %v, exhaustive %v", tc.flag, found, rep.Exhaustive)
		}
	}
	_, out, _ := runCLI(t, "explore", "--preset", "cooperative-kafka", "--liveness", "--max-time=1ns")
	if !strings.Contains(out, "converges: BOUNDED") {
		t.Errorf("the text report does not say the liveness check is bounded:\n%s", out)
	}
}
