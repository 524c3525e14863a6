package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// BenchmarkExplore explores the standard presets exhaustively on two workers and reports
// states per second and the peak resident set per distinct state. Run one at a time with
// -bench 'Explore/kip848-kafka' -benchmem (add -cpuprofile, -memprofile to profile); the
// README's "Speed and memory" figures come from the command line, measured side by side.
func BenchmarkExplore(b *testing.B) {
	for _, name := range []string{"kip848-kafka", "cooperative-kafka", "static-kafka"} {
		b.Run(name, func(b *testing.B) {
			p, err := spec.LookupPreset(name)
			if err != nil {
				b.Fatal(err)
			}
			c, err := p.Config()
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				m := NewModel(c)
				r := explorer.Check(m, m.Properties(), explorer.Options{Workers: 2})
				if !r.Exhaustive {
					b.Fatalf("not exhaustive: %s", r.StoppedBy)
				}
				b.ReportMetric(float64(r.Distinct)/r.Duration.Seconds(), "states/s")
				b.ReportMetric(float64(r.PeakMemory)/float64(r.Distinct), "peakB/state")
			}
		})
	}
}
