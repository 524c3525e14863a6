package oracle

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// bigHistory is a generated history of about n events (FuzzCheckHistory's generator on
// seeded random bytes).
func bigHistory(n int) history.History {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 3*n)
	for i := range data {
		data[i] = byte(r.UintN(256))
	}
	return generate(data)
}

// BenchmarkCheck measures Check on 10k and 100k events: the time per event should stay flat.
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		h := bigHistory(n)
		b.Run(fmt.Sprintf("events=%d", len(h)), func(b *testing.B) {
			for b.Loop() {
				Check(h, Options{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(h)), "ns/event")
		})
	}
}
