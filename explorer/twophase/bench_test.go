package twophase

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
)

// BenchmarkTwoPhase explores TwoPhase exhaustively. Larger sizes:
//
//	go test ./explorer/twophase -run '^$' -bench 'TwoPhase/rm=9' -benchtime 1x
func BenchmarkTwoPhase(b *testing.B) {
	for _, rm := range []int{7, 8, 9, 10} {
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("rm=%d/workers=%d", rm, w), func(b *testing.B) {
				var r explorer.Report[State, Action]
				for b.Loop() {
					m, props := New(rm)
					r = explorer.Check(m, props, explorer.Options{Workers: w})
				}
				if !r.Exhaustive || r.Distinct != distinctStates[rm] {
					b.Fatalf("rm=%d: %s", rm, r.String())
				}
				secs := r.Duration.Seconds()
				b.ReportMetric(float64(r.Distinct)/secs, "states/s")
				b.ReportMetric(float64(r.PeakMemory)/float64(r.Distinct), "bytes/state")
			})
		}
	}
}

// TestMeasure runs one exhaustive check sized by the environment, for
// measuring under /usr/bin/time:
//
//	TWOPHASE_RM=9 TWOPHASE_WORKERS=2 go test ./explorer/twophase -run TestMeasure -v
func TestMeasure(t *testing.T) {
	rm, _ := strconv.Atoi(os.Getenv("TWOPHASE_RM"))
	if rm == 0 {
		t.Skip("set TWOPHASE_RM to run")
	}
	w, _ := strconv.Atoi(os.Getenv("TWOPHASE_WORKERS"))
	m, props := New(rm)
	o := explorer.Options{Workers: w}
	if os.Getenv("TWOPHASE_PROGRESS") != "" {
		o.Progress = os.Stderr
	}
	r := explorer.Check(m, props, o)
	t.Logf("rm=%d %s", rm, r.String())
	t.Logf("bytes/state (peak RSS / distinct): %.2f", float64(r.PeakMemory)/float64(r.Distinct))
	if want, ok := distinctStates[rm]; ok && r.Distinct != want {
		t.Errorf("distinct = %d, want %d", r.Distinct, want)
	}
}
