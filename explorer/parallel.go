package explorer

import (
	"sync"
	"sync/atomic"
)

// parallelFor calls fn(w, i) for every i in [0, n), on up to workers
// goroutines; w identifies the goroutine (0 ≤ w < workers), so fn may
// use per-worker state without locks. Items are taken in increasing
// order. fn returns false to stop its goroutine early. parallelFor
// returns when every goroutine has stopped, which orders their writes
// before whatever the caller does next.
func parallelFor(workers, n int, fn func(w, i int) bool) {
	if workers <= 1 || n <= 1 {
		for i := 0; i < n; i++ {
			if !fn(0, i) {
				return
			}
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || !fn(w, i) {
					return
				}
			}
		}()
	}
	wg.Wait()
}
