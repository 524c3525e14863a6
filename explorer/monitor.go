package explorer

import (
	"fmt"
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

	why  atomic.Int32 // 0, stopTime or stopMemory
	peak atomic.Uint64

	distinct  atomic.Int64 // committed
	found     atomic.Int64 // candidate records in the level being expanded
	generated atomic.Int64
	depth     atomic.Int64
	queue     atomic.Int64 // parents of the current level not yet expanded
	tables    atomic.Int64 // bytes in the visited and claims tables
	frontier  func() int64 // bytes in frontier blocks

	done chan struct{}
	wg   sync.WaitGroup
}

const (
	stopTime = 1 + iota
	stopMemory

	sampleEvery   = 50 * time.Millisecond
	progressEvery = 20 // samples
)

func startMonitor(o Options, start time.Time, frontier func() int64) *monitor {
	mon := &monitor{o: o, start: start, done: make(chan struct{}), frontier: frontier}
	mon.check()
	mon.wg.Add(1)
	go mon.loop()
	return mon
}

func (mon *monitor) loop() {
	defer mon.wg.Done()
	t := time.NewTicker(sampleEvery)
	defer t.Stop()
	var lastGen, lastFound int64
	last := mon.start
	for n := 1; ; n++ {
		select {
		case <-mon.done:
			return
		case now := <-t.C:
			mon.check()
			if mon.o.Progress == nil || n%progressEvery != 0 {
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
// bound exceeded, if any.
func (mon *monitor) check() string {
	rss := residentBytes()
	atomicMax(&mon.peak, rss)
	if mon.o.MaxMemory > 0 && rss > mon.o.MaxMemory {
		mon.why.CompareAndSwap(0, stopMemory)
	}
	if mon.o.MaxTime > 0 && time.Since(mon.start) > mon.o.MaxTime {
		mon.why.CompareAndSwap(0, stopTime)
	}
	return mon.reason()
}

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

func (mon *monitor) beginLevel(depth int, n int64) {
	mon.depth.Store(int64(depth))
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
