package explorer

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"unsafe"
)

// Memory planning (Options.MaxMemory, Options.SpillFrontier).
//
// Memory grows in steps the monitor's sampling cannot stop in time: the
// claims table is allocated whole before a level is expanded, and commit
// grows a visited shard in one piece (by a quarter or more of its size)
// and fills fingerprint buffers for the whole level. So before each level
// the checker forecasts the resident peak of expanding it and of
// committing the next level, and decides to go on as is, to spill the
// next level, or to stop there; after the expansion, when the size of the
// next level is known, it checks the commit again. The forecast starts
// from the resident set now and adds each step:
//
//   - the next level: about as wide as this one times the growth of the
//     last level (clamped to [1, 4]), with as many extra records per
//     state as the last level had (claims later displaced);
//   - expansion: the claims table prepare will allocate, and the
//     transient of a rehash if the level outgrows it; the next level's
//     records (nothing for a spilled pointer-free level but the blocks
//     the workers write; fingerprint and key for a rebuilt one);
//   - commit: the fingerprint buffers and per-worker scratch, and the
//     growth of every visited shard that passes its maximum load; the
//     current level's off-heap blocks are freed by then.
//
// States with pointers live on the Go heap, where the resident set also
// holds garbage up to the collector's goal; there the forecast counts the
// live frontier instead (states times the live heap per state the
// monitor measures after each collection, plus a third for the
// collector), and the Go runtime's soft memory limit is set to what the
// off-heap forecast leaves, so that the collector keeps garbage from
// filling the rest.

// memoryGuard is the margin kept below MaxMemory: 1/32 of it, at least
// 1 MiB. A forecast must stay under the limit minus the guard
// (memoryRoom); a sample of the resident set past the limit minus half
// the guard (memoryTrip) stops the level.
func memoryGuard(limit uint64) uint64 { return max(limit/32, 1<<20) }

func memoryRoom(limit uint64) uint64 { return limit - min(limit, memoryGuard(limit)) }

func memoryTrip(limit uint64) uint64 { return limit - min(limit, memoryGuard(limit)/2) }

// forecast is the predicted resident peak of expanding a level and
// committing the next, the largest part of either outside the Go heap,
// and the memory the next level's states would take without spilling
// (for SpillFrontier).
type forecast struct {
	expand, commit uint64
	offHeap        uint64
	frontier       uint64
}

func (f forecast) peak() uint64 { return max(f.expand, f.commit) }

// goMemory reads the Go runtime's resident memory (mapped and not
// released).
func goMemory() uint64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// memNow splits the resident set into the Go runtime's part and the rest
// (the off-heap tables and blocks, the program).
func memNow() (goRes, other float64) {
	rss, g := residentBytes(), goMemory()
	return float64(g), float64(rss - min(rss, g))
}

// growth is the expected ratio of the next level's width to the current
// one's.
func (c *checker[S, A]) growth() float64 {
	d := len(c.levels) - 1
	if d < 1 || c.levels[d-1] == 0 {
		return 4
	}
	return min(4, max(1, float64(c.levels[d])/float64(c.levels[d-1])))
}

// heapPerState is the Go heap a state of the frontier takes: what the
// monitor measured, and at least the state's own size and key.
func (c *checker[S, A]) heapPerState() float64 {
	return max(c.mon.heapPerState(), float64(unsafe.Sizeof(*new(S)))+4)
}

// heapFor is the Go heap needed with a frontier of n states: the live
// heap at the start, 2 MiB of scratch, the frontier, and a third more for
// the collector to work in.
func (c *checker[S, A]) heapFor(n float64) float64 {
	return (float64(c.mon.baseLive) + 2<<20 + n*c.heapPerState()) * 4 / 3
}

// forecast predicts the peaks of expanding cur with the next level kept
// in memory or spilled.
func (c *checker[S, A]) forecast(cur *level[S], spill bool) forecast {
	goRes, other := memNow()
	stateSize := float64(unsafe.Sizeof(*new(S)))
	n := float64(cur.n)
	newStates := n * c.growth()
	records := newStates * c.recordRate
	// expand asks for room for twice the last rate of new states per
	// parent of a batch beyond those claimed so far.
	slack := 2 * c.claimRate * min(n, batchUnits*unitLen)
	claims := float64(c.cl.forecast(int64(newStates + slack)))
	commit := c.commitBuffers(newStates) + float64(c.vis.growth(int64(newStates)))

	var offE, offC, goE, goC float64
	f := forecast{}
	if c.pool.offHeap {
		f.frontier = uint64(records * (stateSize + 4))
		next := float64(2*c.workers*blockLen) * (stateSize + 4) // the blocks being written
		if !spill {
			next += records * (stateSize + 4)
		}
		offE = other + claims + next
		offC = other - float64(cur.memBytes()) + next + commit
		goE, goC = goRes, goRes
	} else {
		// States on the Go heap: count the live frontier, not the
		// heap's garbage (see above).
		f.frontier = uint64(records * c.heapPerState())
		offE, offC = other+claims, other+commit
		if !spill {
			goE, goC = c.heapFor(n+records), c.heapFor(records)
		} else {
			// Rebuilt: records hold a fingerprint and a key beside an
			// empty state; at commit the states are rebuilt while their
			// parents are let go, unit by unit.
			light := records * (stateSize + 12)
			goE, goC = light+c.heapFor(n), light+c.heapFor(max(n, newStates))
		}
	}
	f.expand, f.commit = uint64(offE+goE), uint64(offC+goC)
	f.offHeap = uint64(max(offE, offC))
	return f
}

// commitBuffers is the memory commit takes besides the visited set for a
// level of n states: the workers' fingerprint buffers (reserveFps) and
// the per-shard scratch insertLevel copies them to. The buffers are
// mapped at 64 KiB at least, but only the pages written become resident:
// at least one each.
func (c *checker[S, A]) commitBuffers(n float64) float64 {
	const page = 512 // words
	bufs := float64(visitedShards * c.workers)
	share := n / bufs
	per := max(page, share*1.05+4*math.Sqrt(share))
	return 8 * (bufs*per + float64(c.workers)*max(page, 1.1*n/visitedShards))
}

// commitForecast predicts the peak of committing next, a level of n new
// states among its records, now that it has been expanded (the claims
// table is freed by then, and so is cur unless next is rebuilt from it).
func (c *checker[S, A]) commitForecast(next, cur *level[S], n int64) uint64 {
	goRes, other := memNow()
	extra := c.commitBuffers(float64(n)) + float64(c.vis.growth(n))
	if c.pool.offHeap {
		return uint64(goRes + other + extra)
	}
	var records int64
	for _, s := range next.segs {
		records += int64(len(s.states))
	}
	if c.rebuild {
		light := float64(records) * (float64(unsafe.Sizeof(*new(S))) + 12)
		return uint64(other + extra + light + c.heapFor(float64(max(cur.n, n))))
	}
	return uint64(other + extra + c.heapFor(float64(records)))
}

// planLevel decides how the level after cur is kept, before cur is
// expanded: in memory, spilled (SpillFrontier, or MaxMemory when it
// would not fit otherwise), or not at all: then it returns StopMaxMemory
// and cur is the last level.
func (c *checker[S, A]) planLevel(cur *level[S]) string {
	c.setSpill(false)
	if c.o.MaxMemory == 0 && c.o.SpillFrontier <= 0 {
		return ""
	}
	f := c.forecast(cur, false)
	spill := c.o.SpillFrontier > 0 && f.frontier > uint64(c.o.SpillFrontier)
	if spill {
		f = c.forecast(cur, true)
	}
	if limit := c.o.MaxMemory; limit > 0 {
		room := memoryRoom(limit)
		if f.peak() > room && !spill {
			spill, f = true, c.forecast(cur, true)
		}
		if f.peak() > room {
			return StopMaxMemory
		}
		c.limitHeap(room, f)
	}
	if spill {
		c.setSpill(true)
		c.spilled++
	}
	return ""
}

// setSpill sets how the next level is kept.
func (c *checker[S, A]) setSpill(on bool) {
	c.pool.toDisk = on && c.pool.offHeap
	c.rebuild = on && !c.pool.offHeap
	c.pool.fps = c.rebuild
}

// limitHeap sets the Go runtime's soft memory limit to the room the
// forecast f leaves outside the Go heap, never above the limit the run
// started with.
func (c *checker[S, A]) limitHeap(room uint64, f forecast) {
	budget := int64(room) - int64(min(room, f.offHeap))
	debug.SetMemoryLimit(min(max(budget, 8<<20), c.goLimit))
}
