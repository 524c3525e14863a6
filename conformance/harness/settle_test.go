package harness

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// TestStallMaxOnFixtures: judged with DefaultTiming's StallMax (the smallest any suite runs
// with), a kept run's history is flagged rebalance-completes exactly when its settle timed out
// (the harness marked it "not settled"): no false alarm on the others, and the settle timeout
// named by the oracle.
func TestStallMaxOnFixtures(t *testing.T) {
	files := fixtureFiles(t)
	bound, timedOut := DefaultTiming.StallMax(), 0
	for _, f := range files {
		hist := readHistory(t, f)
		unsettled := false
		for _, e := range hist {
			unsettled = unsettled || e.Kind == history.Mark && strings.HasPrefix(e.Note, "not settled")
		}
		var stalls []string
		for _, v := range oracle.Check(hist, oracle.Options{Settle: bound}).Violations {
			if v.Property == oracle.RebalanceCompletes {
				stalls = append(stalls, v.Message)
			}
		}
		if unsettled {
			timedOut++
		}
		if unsettled != (len(stalls) > 0) {
			t.Errorf("%s: settle timed out %v, but rebalance-completes at %v found %q", f, unsettled, bound, stalls)
		}
	}
	if timedOut == 0 {
		t.Error("no fixture of a settle that timed out: the test no longer bites")
	}
}

// fixtureFiles lists every module's kept histories (../*/testdata/*.jsonl).
func fixtureFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "*", "testdata", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d fixtures", len(files))
	}
	return files
}
