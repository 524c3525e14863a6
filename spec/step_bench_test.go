package spec

import "testing"

// BenchmarkSuccessors is the explorer's inner loop on sampled reachable worlds of the default
// preset: list a world's candidate actions and take each (most are not enabled).
func BenchmarkSuccessors(b *testing.B) {
	ws := benchWorlds(b)
	var buf []Action
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := ws[i%len(ws)]
		buf = Actions(w, buf[:0])
		for _, a := range buf {
			Step(w, a)
		}
	}
}
