package explorer

import (
	"math"
	"slices"
)

// commit turns the records of an expansion into the next level:
//
//  1. In parallel over segments: drop every record whose parent key
//     lost its claim (was displaced by a smaller key for the same
//     fingerprint, see claims), so each new state is kept exactly once,
//     by its smallest parent key; collect the fingerprints of the
//     survivors by visited shard.
//  2. In parallel over visited shards: add the level's fingerprints to
//     the shard (insertLevel).
//  3. Number the level (segment order is parent-key order) and apply
//     MaxStates.
//  4. In parallel over segments: check the undecided properties (a
//     rebuilt level first gets its states back from cur, see
//     rebuild.go); then resolve where each property was decided, and
//     append the parent keys to the trace.
//
// It returns the name of the bound that stops the run, if any.
func (c *checker[S, A]) commit(next, cur *level[S]) string {
	losers, nLosers := c.losers()
	records := c.reserveFps(next, nLosers)
	parallelFor(c.workers, len(next.segs), func(w, k int) bool {
		c.filterSegment(c.ws[w], &next.segs[k], losers)
		return true
	})
	c.endPass()
	for _, w := range c.ws {
		w.budget.losers = w.budget.losers[:0]
	}
	c.insertLevel()
	for _, w := range c.ws {
		c.generated += w.gen
		w.gen = 0
		for i, n := range w.cov {
			c.coverage[i] += n
		}
		clear(w.cov)
	}
	next.number()
	if next.n > 0 {
		c.recordRate = float64(records) / float64(next.n)
	}
	stop := ""
	if c.o.MaxStates > 0 && c.distinct+next.n > c.o.MaxStates {
		next.truncate(c.o.MaxStates - c.distinct)
		stop = StopMaxStates
	}
	depth := len(c.levels)
	if c.rebuild {
		c.rebuildLevel(next, cur)
	} else {
		parallelFor(c.workers, len(next.segs), func(w, k int) bool {
			c.checkSegment(c.ws[w], k, &next.segs[k])
			return true
		})
	}
	c.endPass()
	c.resolve(next, depth)
	next.compact()
	if next.n == 0 {
		return stop
	}
	c.levels = append(c.levels, next.n)
	c.distinct += next.n
	appendLevel(c.trace, next)
	c.pool.dropKeys(next)
	c.mon.commit(c.distinct)
	c.mon.tables.Store(int64(c.vis.bytes() + c.cl.bytes()))
	return stop
}

// losers returns the keys that lost their claims, as one sorted list
// per worker (sorted in parallel, and not merged: no copy), and their
// number.
func (c *checker[S, A]) losers() ([][]uint64, int) {
	parallelFor(c.workers, len(c.ws), func(_, i int) bool {
		slices.Sort(c.ws[i].budget.losers)
		return true
	})
	ls := make([][]uint64, len(c.ws))
	for i, w := range c.ws {
		ls[i] = w.budget.losers
	}
	return ls, c.loserCount()
}

// loserCount returns the number of keys that lost their claims.
func (c *checker[S, A]) loserCount() int {
	n := 0
	for _, w := range c.ws {
		n += len(w.budget.losers)
	}
	return n
}

// insertLevel adds the fingerprints the workers collected in filter to
// the visited set: each shard is handed to one worker, which merges the
// level's fingerprints for it (addBatch), so there is no lock and no
// shard grows twice in a level. The buffers are freed afterwards.
func (c *checker[S, A]) insertLevel() {
	parallelFor(c.workers, visitedShards, func(w, i int) bool {
		sc := &c.ws[w].scratch
		sc.n = 0
		for _, o := range c.ws {
			for _, fp := range o.shardFps[i].fps() {
				sc.add(fp)
			}
		}
		c.vis.shards[i].addBatch(sc.fps(), &c.ws[w].merge)
		return true
	})
	for _, w := range c.ws {
		for i := range w.shardFps {
			w.shardFps[i].free()
		}
		w.scratch.free()
	}
}

// reserveFps sizes the workers' fingerprint buffers for the level: the
// level keeps one state per record whose key did not lose, and the
// workers take about equal shares of the records; a buffer that gets
// more than its share plus a margin grows by doubling. It returns the
// number of records.
func (c *checker[S, A]) reserveFps(next *level[S], losers int) int {
	records := 0
	for _, s := range next.segs {
		records += len(s.states)
	}
	share := float64(records-losers) / float64(visitedShards*c.workers)
	per := int(share*1.05 + 4*math.Sqrt(share))
	for _, w := range c.ws {
		for i := range w.shardFps {
			w.shardFps[i].reserve(per)
		}
	}
	return records
}

// filterSegment keeps the records whose key did not lose its claim and
// collects their fingerprints, by visited shard, for insertLevel. Keys
// in a segment increase, so each sorted list of losers is merged in.
func (c *checker[S, A]) filterSegment(w *worker[S, A], seg *segment[S], lists [][]uint64) {
	w.visit(seg.blk, true)
	states, keys := seg.view()
	kept := 0
	ls := w.loserView[:0]
	if len(keys) > 0 {
		first := seg.keyBase + uint64(keys[0])
		for _, l := range lists {
			i, _ := slices.BinarySearch(l, first)
			ls = append(ls, l[i:])
		}
	}
	w.loserView = ls
	for j, t := range states {
		key := seg.keyBase + uint64(keys[j])
		lost := false
		for k := range ls {
			l := ls[k]
			for len(l) > 0 && l[0] < key {
				l = l[1:]
			}
			ls[k] = l
			lost = lost || len(l) > 0 && l[0] == key
		}
		if lost {
			continue
		}
		var fp uint64
		if seg.fps != nil { // a rebuilt level: no state yet
			fp = seg.fps[j]
			seg.fps[kept] = fp
		} else {
			w.enc = c.m.Encode(t, w.enc[:0])
			fp = fingerprint(w.enc)
		}
		w.shardFps[fp>>visitedShift].add(fp)
		states[kept] = t
		keys[kept] = keys[j]
		kept++
	}
	clear(states[kept:])
	seg.states = states[:kept]
	seg.keys = keys[:kept]
	if seg.fps != nil {
		seg.fps = seg.fps[:kept]
	}
}

// checkLevel checks the properties on a numbered level (level 0) in the
// calling goroutine.
func (c *checker[S, A]) checkLevel(lv *level[S], depth int) {
	for k := range lv.segs {
		c.checkSegment(c.ws[0], k, &lv.segs[k])
	}
	c.resolve(lv, depth)
	lv.compact()
	c.levels = append(c.levels, lv.n)
	c.distinct += lv.n
	appendLevel(c.trace, lv)
}

// checkSegment evaluates the undecided properties on the states of
// segment k and records, per property, the smallest (segment, index)
// deciding it. A property already decided at an earlier place is not
// evaluated again. States are the outer loop, so that each state is
// judged by every property in a row (a packed state is unpacked once,
// see Compact).
func (c *checker[S, A]) checkSegment(w *worker[S, A], k int, seg *segment[S]) {
	w.visit(seg.blk, false)
	states, _ := seg.view()
	first := uint64(k) << 32
	open := w.open[:0] // properties still undecided before this segment
	for p := range c.props {
		if !c.decided[p] && w.hits[p] >= first {
			open = append(open, p)
		}
	}
	for j := 0; j < len(states) && len(open) > 0; j++ {
		t := states[j]
		for i := 0; i < len(open); i++ {
			p := open[i]
			if prop := c.props[p]; c.check(w, prop, t) == (prop.Kind == Sometimes) {
				w.hits[p] = min(w.hits[p], first|uint64(j))
				open = append(open[:i], open[i+1:]...)
				i--
			}
		}
	}
	w.open = open
}

// check evaluates prop on s, on worker w: through the drafter when the property is one
// Compact made, so that a packed state is decoded once for all its properties.
func (c *checker[S, A]) check(w *worker[S, A], prop Property[S], s S) bool {
	if prop.inner > 0 && c.d != nil {
		return c.d.holds(w.id, s, prop.inner-1)
	}
	return prop.Check(s)
}

// resolve merges the workers' hits into decided properties.
func (c *checker[S, A]) resolve(lv *level[S], depth int) {
	for p := range c.props {
		best := uint64(math.MaxUint64)
		for _, w := range c.ws {
			best = min(best, w.hits[p])
			w.hits[p] = math.MaxUint64
		}
		if best == math.MaxUint64 || c.decided[p] {
			continue
		}
		seg := &lv.segs[best>>32]
		seg.blk.pin(false)
		states, _ := seg.view()
		j := best & math.MaxUint32
		c.decided[p] = true
		c.at[p] = found{level: depth, pos: seg.base + int64(j), fp: fingerprint(c.m.Encode(states[j], nil))}
		seg.blk.unpin()
	}
}
