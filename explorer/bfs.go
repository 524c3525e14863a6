package explorer

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Check explores the states of m reachable from m.Init breadth-first,
// within the bounds of o, judging props on every distinct state. See the
// package documentation for the semantics and guarantees.
func Check[S, A any](m Model[S, A], props []Property[S], o Options) Report[S, A] {
	c := newChecker(m, props, o)
	defer c.close()
	return c.run()
}

// checker is the state of one run.
type checker[S, A any] struct {
	m       Model[S, A]
	red     Reducer[S, A] // nil: no partial-order reduction
	acyclic bool          // red's ample steps form no cycle: no proviso
	d       drafter[S, A] // m's two-step successors, if it makes them so (Compact)
	props   []Property[S]
	o       Options
	kinds   []string

	workers int
	ws      []*worker[S, A]
	vis     *visited
	cl      *claims
	pool    *pool[S]
	trace   *traceStore
	inits   []S

	distinct  int64
	generated int64
	coverage  []int64
	levels    []int64
	decided   []bool
	at        []found // where each decided property was decided

	claimRate  float64 // new fingerprints per parent in the last batch
	recordRate float64 // records per new state in the last level

	// Memory (memory.go): the level being expanded is rebuilt (states
	// with pointers, spilled), the units it was cut into, the number of
	// levels spilled, and the Go soft memory limit to restore.
	rebuild bool
	units   []unit
	spilled int
	goLimit int64

	errOnce sync.Once
	err     error // a broken contract found while rebuilding a level

	start time.Time
	mon   *monitor
}

// worker is the per-goroutine scratch state; only goroutine w touches
// ws[w] during a parallel phase.
type worker[S, A any] struct {
	id     int
	acts   []A
	enc    []byte
	out    writer[S]
	gen    int64
	cov    []int64
	hits   []uint64 // per property: smallest (segment<<32 | index) deciding it
	open   []int    // checkSegment's undecided properties
	budget budget   // claims this worker may still insert in the batch
	succ   []S      // successors of the parent being expanded
	fps    []uint64 // their fingerprints
	idx    []int    // their action indices
	amp    []int    // the ample set of the parent (reduce.go)
	loop   bool     // a successor was the parent itself
	sink   uint64   // keeps the prefetching loads alive

	shardFps  [visitedShards]fpBuf // fingerprints of the level being committed
	scratch   fpBuf                // one shard's worth of them, in insertLevel
	merge     mergeScratch
	loserView [][]uint64 // filterSegment's cursors into the losers
	blk       *block[S]  // the block a pass is on (see visit)
	writing   bool       // and may change
	_         [64]byte
}

// visit notes that the worker's pass moves to block b, which it may
// change if write: a spilled block is pinned (brought into memory) until
// the worker moves on. A pass goes through a level in order, so it
// keeps a block or so per worker in memory.
func (w *worker[S, A]) visit(b *block[S], write bool) {
	if b != w.blk || write && !w.writing {
		w.blk.unpin()
		b.pin(write)
		w.blk, w.writing = b, write
	}
}

// endPass unpins the blocks the workers were on at the end of a pass.
func (c *checker[S, A]) endPass() {
	for _, w := range c.ws {
		w.blk.unpin()
		w.blk, w.writing = nil, false
	}
}

func newChecker[S, A any](m Model[S, A], props []Property[S], o Options) *checker[S, A] {
	for _, p := range props {
		if p.Kind != Always && p.Kind != Sometimes {
			panic(fmt.Sprintf("explorer: property %q: unsupported kind %d", p.Name, p.Kind))
		}
		if p.Check == nil {
			panic(fmt.Sprintf("explorer: property %q has no Check", p.Name))
		}
	}
	c := &checker[S, A]{m: m, red: reducerOf(m), props: props, o: o, kinds: m.ActionKinds(), pool: newPool[S](o.TraceDir)}
	c.acyclic = c.red != nil && c.red.Acyclic()
	c.workers = o.Workers
	if c.workers <= 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	c.coverage = make([]int64, len(c.kinds))
	c.decided = make([]bool, len(props))
	c.at = make([]found, len(props))
	if d, ok := m.(drafter[S, A]); ok {
		c.d = d
		d.pads(c.workers)
	}
	for id := range c.workers {
		w := &worker[S, A]{id: id, cov: make([]int64, len(c.kinds)), hits: make([]uint64, len(props))}
		for i := range w.hits {
			w.hits[i] = math.MaxUint64
		}
		w.out.pool = c.pool
		c.ws = append(c.ws, w)
	}
	c.vis = newVisited()
	c.cl = newClaims()
	c.trace = newTraceStore(o.TraceDir)
	c.claimRate = 4
	c.recordRate = 1
	return c
}

func (c *checker[S, A]) close() {
	c.pool.put(nil, 0) // unmaps the free lists
	if c.pool.disk != nil {
		c.pool.disk.close()
	}
	c.vis.free()
	c.cl.free()
	c.trace.close()
}

// fail records the first broken contract found while rebuilding a level.
func (c *checker[S, A]) fail(err error) {
	c.errOnce.Do(func() { c.err = err })
}

// run is the level-synchronous search. Each iteration expands the
// current level into candidate records (expand.go), then commits them:
// keeps one record per new state, numbers the level, checks properties
// and stores parent keys (commit.go).
func (c *checker[S, A]) run() Report[S, A] {
	c.start = time.Now()
	if c.o.MaxMemory > 0 {
		c.goLimit = debug.SetMemoryLimit(-1)
		defer debug.SetMemoryLimit(c.goLimit)
	}
	blockBytes := int64(blockLen) * (int64(unsafe.Sizeof(*new(S))) + 4)
	c.mon = startMonitor(c.o, c.start, !c.pool.offHeap, unsafe.Sizeof(*new(S))+12,
		func() int64 { return c.pool.count.Load() * blockBytes })
	cur, stop := c.initLevel()
	for stop == "" {
		if cur.n == 0 {
			break // exhausted
		}
		if stop = c.boundReached(len(c.levels) - 1); stop != "" {
			break
		}
		if stop = c.planLevel(cur); stop != "" {
			break
		}
		c.mon.beginLevel(len(c.levels), cur.n, c.rebuild)
		next, aborted := c.expand(cur)
		if !c.rebuild { // a rebuilt level needs its parents until commit
			c.pool.put(cur.blocks, next.inMemory())
		}
		if !aborted && c.o.MaxMemory > 0 && !c.commitFits(next, cur) {
			aborted = true
			c.mon.why.CompareAndSwap(0, stopMemory)
		}
		if aborted {
			if c.rebuild {
				c.pool.put(cur.blocks, 0)
			}
			c.pool.put(next.blocks, 0)
			cur = &level[S]{} // both levels are back in the pool
			c.discardLevel()
			stop = c.mon.reason()
			break
		}
		stop = c.commit(next, cur)
		if c.rebuild {
			c.pool.put(cur.blocks, next.inMemory())
		}
		cur = next
	}
	c.pool.put(cur.blocks, 0)
	c.mon.stop()
	return c.report(stop)
}

// commitFits reports whether committing next stays within MaxMemory.
func (c *checker[S, A]) commitFits(next, cur *level[S]) bool {
	var records int64
	for _, s := range next.segs {
		records += int64(len(s.states))
	}
	return c.commitForecast(next, cur, records-int64(c.loserCount())) <= memoryRoom(c.o.MaxMemory)
}

// boundReached checks the bounds at a level boundary, depth being the
// depth of the current (not yet expanded) level.
func (c *checker[S, A]) boundReached(depth int) string {
	if c.violationStop() {
		return StopViolation
	}
	if c.o.MaxDepth > 0 && depth >= c.o.MaxDepth {
		return StopMaxDepth
	}
	return c.mon.check()
}

// violationStop reports whether the run should stop because of the
// Always properties already violated.
func (c *checker[S, A]) violationStop() bool {
	always, violated := 0, 0
	for i, p := range c.props {
		if p.Kind == Always {
			always++
			if c.decided[i] {
				violated++
			}
		}
	}
	if violated > 0 && c.o.StopOnViolation {
		return true
	}
	return always > 0 && violated == always
}

// initLevel builds level 0 from m.Init.
func (c *checker[S, A]) initLevel() (*level[S], string) {
	c.inits = c.m.Init()
	c.generated = int64(len(c.inits))
	w := c.ws[0]
	w.out.begin(0)
	for i, s := range c.inits {
		w.enc = c.m.Encode(s, w.enc[:0])
		if c.vis.insert(fingerprint(w.enc)) {
			w.out.add(s, uint32(i))
		}
	}
	lv := gather([]*writer[S]{&w.out})
	lv.number()
	stop := ""
	if c.o.MaxStates > 0 && lv.n > c.o.MaxStates {
		lv.truncate(c.o.MaxStates)
		stop = StopMaxStates
	}
	c.checkLevel(lv, 0)
	return lv, stop
}

// discardLevel forgets the counters of an expansion that was aborted.
func (c *checker[S, A]) discardLevel() {
	for _, w := range c.ws {
		w.gen = 0
		clear(w.cov)
	}
}

func (c *checker[S, A]) report(stop string) Report[S, A] {
	r := Report[S, A]{
		Exhaustive: stop == "",
		StoppedBy:  stop,
		Distinct:   c.distinct,
		Generated:  c.generated,
		Depth:      len(c.levels) - 1,
		Levels:     c.levels,
		Duration:   time.Since(c.start),
		Workers:    c.workers,
		PeakMemory: c.mon.peak.Load(),
		Spilled:    c.spilled,
		Err:        c.err,
	}
	if r.Err == nil {
		r.Err = c.pool.spillErr()
	}
	n := float64(c.distinct)
	r.Collision = n * n / (1 << 65)
	for i, k := range c.kinds {
		r.Coverage = append(r.Coverage, KindCount{Kind: k, Count: c.coverage[i]})
		if c.coverage[i] == 0 {
			r.NeverTaken = append(r.NeverTaken, k)
		}
	}
	for i, p := range c.props {
		pr := PropertyResult[S, A]{Name: p.Name, Kind: p.Kind}
		switch {
		case c.decided[i] && p.Kind == Always:
			pr.Status = Violated
		case c.decided[i]:
			pr.Status = Holds
		case stop != "":
			pr.Status = Unknown
		case p.Kind == Always:
			pr.Status = Holds
		default:
			pr.Status = Unreached
		}
		if c.decided[i] {
			path, err := rebuild(c.m, c.inits, c.trace, c.at[i])
			pr.Path = path
			if err != nil && r.Err == nil {
				r.Err = fmt.Errorf("property %q: %w", p.Name, err)
			}
		}
		r.Properties = append(r.Properties, pr)
	}
	return r
}

// atomicMax raises a to at least v.
func atomicMax(a *atomic.Uint64, v uint64) {
	for {
		old := a.Load()
		if v <= old || a.CompareAndSwap(old, v) {
			return
		}
	}
}
