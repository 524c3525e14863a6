package explorer

import (
	"sync"
	"sync/atomic"
)

// parallelFor calls fn(w, i) for every i in [0, n), on up to workers
// goroutines; w identifies the goroutine (0 ≤ w < workers), so fn may
// use per-worker state without locks. fn returns false to stop its
// goroutine early. parallelFor returns when every goroutine has stopped,
// which orders their writes before whatever the caller does next.
//
// Each goroutine starts on its own contiguous share of [0, n), in
// increasing order, and then helps the others with theirs. Separate
// shares keep the workers on distant parts of a level, whose successors
// overlap less, so they contend less for the same claims slots than if
// they took neighbouring items.
func parallelFor(workers, n int, fn func(w, i int) bool) {
	if workers <= 1 || n <= 1 {
		for i := 0; i < n; i++ {
			if !fn(0, i) {
				return
			}
		}
		return
	}
	workers = min(workers, n)
	type share struct {
		next atomic.Int64
		end  int64
		_    [48]byte
	}
	shares := make([]share, workers)
	for w := range shares {
		shares[w].next.Store(int64(w * n / workers))
		shares[w].end = int64((w + 1) * n / workers)
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range workers {
				s := &shares[(w+k)%workers]
				for {
					i := s.next.Add(1) - 1
					if i >= s.end {
						break
					}
					if !fn(w, int(i)) {
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
