package explorer

import (
	"fmt"
	"math"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// monitor samples memory, enforces MaxTime and MaxMemory and writes
// progress lines. It runs on its own goroutine and shares only atomics
// with the search.
type monitor struct {
	o     Options
	start time.Time
	every time.Duration // sampling interval

	// heapStates: the states hold pointers, so their memory is on the Go
	// heap, and the monitor estimates it per state of the frontier
	// (perState, float64 bits) from the live heap the collector marks,
	// beyond the live heap at the start (baseLive).
	heapStates bool
	perState   atomic.Uint64
	baseLive   uint64
	lightBytes uint64 // of a record without its state (rebuilt level)
	gcCycles   uint64
	samples    []metrics.Sample

	why  atomic.Int32 // 0, stopTime or stopMemory
	peak atomic.Uint64

	distinct  atomic.Int64 // committed
	found     atomic.Int64 // candidate records in the level being expanded
	generated atomic.Int64
	depth     atomic.Int64
	width     atomic.Int64 // states of the current level
	light     atomic.Bool  // the next level's records hold no states (rebuilt level)
	queue     atomic.Int64 // parents of the current level not yet expanded
	tables    atomic.Int64 // bytes in the visited and claims tables
	frontier  func() int64 // bytes in frontier blocks

	done chan struct{}
	wg   sync.WaitGroup
}

const (
	stopTime = 1 + iota
	stopMemory

	sampleEvery = 50 * time.Millisecond
	// Under MaxMemory the resident set is sampled more often: the
	// overshoot past the limit is what the run allocates between two
	// samples.
	sampleEveryMemory = 10 * time.Millisecond
	progressEvery     = time.Second
)

func startMonitor(o Options, start time.Time, heapStates bool, lightBytes uintptr, frontier func() int64) *monitor {
	mon := &monitor{o: o, start: start, done: make(chan struct{}), frontier: frontier, every: sampleEvery,
		heapStates: heapStates, lightBytes: uint64(lightBytes)}
	if o.MaxMemory > 0 {
		mon.every = sampleEveryMemory
	}
	if heapStates {
		mon.samples = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}
		if mon.readHeap() {
			mon.gcCycles = mon.samples[0].Value.Uint64()
			mon.baseLive = mon.samples[1].Value.Uint64()
		}
	}
	mon.check()
	mon.wg.Add(1)
	go mon.loop()
	return mon
}

func (mon *monitor) loop() {
	defer mon.wg.Done()
	t := time.NewTicker(mon.every)
	defer t.Stop()
	var lastGen, lastFound int64
	last := mon.start
	perProgress := int(progressEvery / mon.every)
	for n := 1; ; n++ {
		select {
		case <-mon.done:
			return
		case now := <-t.C:
			mon.check()
			mon.sampleHeap()
			if mon.o.Progress == nil || n%perProgress != 0 {
				continue
			}
			gen, found := mon.generated.Load(), mon.distinct.Load()+mon.found.Load()
			dt := now.Sub(last).Seconds()
			fmt.Fprintf(mon.o.Progress,
				"explorer: %.1fs depth %d: %d states (%.0f/s), %d generated (%.0f/s), queue %d, "+
					"rss %d MiB (tables %d, frontier %d)\n",
				now.Sub(mon.start).Seconds(), mon.depth.Load(), found, float64(found-lastFound)/dt,
				gen, float64(gen-lastGen)/dt, mon.queue.Load(), residentBytes()>>20,
				mon.tables.Load()>>20, mon.frontier()>>20)
			last, lastGen, lastFound = now, gen, found
		}
	}
}

// check samples memory and the clock now, and returns the name of the
// bound exceeded, if any. The memory bound trips half a guard below
// MaxMemory (memoryTrip), so that the growth between two samples stays
// under the limit.
func (mon *monitor) check() string {
	rss := residentBytes()
	atomicMax(&mon.peak, rss)
	if m := mon.o.MaxMemory; m > 0 && rss > memoryTrip(m) {
		mon.why.CompareAndSwap(0, stopMemory)
	}
	if mon.o.MaxTime > 0 && time.Since(mon.start) > mon.o.MaxTime {
		mon.why.CompareAndSwap(0, stopTime)
	}
	return mon.reason()
}

// readHeap reads the collector's cycle count and live heap.
func (mon *monitor) readHeap() bool {
	metrics.Read(mon.samples)
	return mon.samples[0].Value.Kind() == metrics.KindUint64 && mon.samples[1].Value.Kind() == metrics.KindUint64
}

// sampleHeap updates the estimate of Go heap bytes per frontier state
// after each garbage collection: the live heap it marked beyond the one
// at the start, over the states of the frontier then (the current level
// and the records found so far of the next; if these hold no states,
// their known size is taken off instead). The scratch memory of the run
// is counted in too, which errs on the safe side.
func (mon *monitor) sampleHeap() {
	if !mon.heapStates || !mon.readHeap() {
		return
	}
	cycles, live := mon.samples[0].Value.Uint64(), mon.samples[1].Value.Uint64()
	if cycles == mon.gcCycles {
		return
	}
	mon.gcCycles = cycles
	states, base := mon.width.Load(), mon.baseLive
	if found := mon.found.Load(); mon.light.Load() {
		base += uint64(found) * mon.lightBytes
	} else {
		states += found
	}
	if states > 0 && live > base {
		mon.perState.Store(math.Float64bits(float64(live-base) / float64(states)))
	}
}

// heapPerState returns the last estimate of sampleHeap, or 0.
func (mon *monitor) heapPerState() float64 { return math.Float64frombits(mon.perState.Load()) }

func (mon *monitor) stopped() bool { return mon.why.Load() != 0 }

func (mon *monitor) reason() string {
	switch mon.why.Load() {
	case stopTime:
		return StopMaxTime
	case stopMemory:
		return StopMaxMemory
	}
	return ""
}

func (mon *monitor) beginLevel(depth int, n int64, light bool) {
	mon.depth.Store(int64(depth))
	mon.width.Store(n)
	mon.light.Store(light)
	mon.queue.Store(n)
	mon.found.Store(0)
}

func (mon *monitor) progress(parents, generated, found int64) {
	mon.queue.Add(-parents)
	mon.generated.Add(generated)
	mon.found.Add(found)
}

func (mon *monitor) commit(distinct int64) {
	mon.distinct.Store(distinct)
	mon.found.Store(0)
}

func (mon *monitor) stop() {
	close(mon.done)
	mon.wg.Wait()
	atomicMax(&mon.peak, residentBytes())
}
