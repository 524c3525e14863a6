package explorer

import "sync/atomic"

// Expansion proceeds in batches of units; between batches the claims
// table is made large enough for the next batch (see claims).
const batchUnits = 128

// expand generates the successors of every state of cur. A successor is
// recorded when it is not a state of an earlier level and its parent key
// is, so far, the smallest that reached it in this level (claims.claim).
// Work units are cut from cur in order and handed out by an atomic
// counter; the records of unit u land in the segments of unit u, so
// gathering segments by unit restores parent-key order whatever worker
// ran them. It reports whether it was aborted by MaxTime or MaxMemory
// (the monitor's sample, or a rehash of the claims table that would not
// fit).
func (c *checker[S, A]) expand(cur *level[S]) (*level[S], bool) {
	us := cur.units()
	c.units = us
	c.cl.prepare()
	defer c.cl.release()
	var aborted atomic.Bool
	for b := 0; b < len(us) && !aborted.Load(); b += batchUnits {
		batch := us[b:min(b+batchUnits, len(us))]
		parents := 0
		for _, u := range batch {
			parents += u.hi - u.lo
		}
		before := c.cl.size()
		more := int64(float64(parents)*2*c.claimRate) + 1024
		if !c.claimsFit(more) {
			c.mon.why.CompareAndSwap(0, stopMemory)
			aborted.Store(true)
			break
		}
		c.cl.ensure(more, c.workers, &c.ws[0].budget)
		share := c.cl.share(c.workers)
		for _, w := range c.ws {
			w.budget.left = share
		}
		parallelFor(c.workers, len(batch), func(w, i int) bool {
			if c.mon.stopped() {
				aborted.Store(true)
				return false
			}
			c.expandUnit(c.ws[w], cur, batch[i], b+i)
			return true
		})
		for _, w := range c.ws {
			c.cl.settle([]*budget{&w.budget})
		}
		c.claimRate = max(1, float64(c.cl.size()-before)/float64(parents))
	}
	if !aborted.Load() { // else the level is discarded: no need to grow the table
		c.cl.ensure(0, c.workers, &c.ws[0].budget) // fold any overflow: every loser known
	}
	outs := make([]*writer[S], len(c.ws))
	for i, w := range c.ws {
		outs[i] = &w.out
	}
	next := gather(outs)
	c.endPass()
	for i := range next.segs {
		u := us[next.segs[i].unit]
		next.segs[i].keyBase = parentKey(cur.segs[u.seg].base+int64(u.lo), 0)
	}
	return next, aborted.Load()
}

// claimsFit reports whether the claims table may grow to make room for
// more fingerprints within MaxMemory.
func (c *checker[S, A]) claimsFit(more int64) bool {
	if c.o.MaxMemory == 0 {
		return true
	}
	g := c.cl.growth(more)
	return g == 0 || residentBytes()+g <= memoryTrip(c.o.MaxMemory)
}

// stopCheckEvery is how many successors a worker generates between
// looks at whether the run is stopped, besides one per unit; under
// MaxMemory it also samples the resident set then, besides the
// monitor's samples: a few microseconds per sample, against a
// millisecond or so of work.
const stopCheckEvery = 4096

func (c *checker[S, A]) expandUnit(w *worker[S, A], cur *level[S], u unit, id int) {
	seg := &cur.segs[u.seg]
	w.visit(seg.blk, false)
	states, _ := seg.view()
	w.out.begin(id)
	keyBase := parentKey(seg.base+int64(u.lo), 0)
	gen := w.gen
	added := 0
	nextCheck := gen + stopCheckEvery
	for j := u.lo; j < u.hi; j++ {
		if gen >= nextCheck {
			if c.o.MaxMemory > 0 {
				c.mon.check() // do not wait for the monitor's next sample
			}
			if c.mon.stopped() {
				break // the level is discarded: stop now, not at the end of the unit
			}
			nextCheck = gen + stopCheckEvery
		}
		s := states[j]
		pos := seg.base + int64(j)
		w.acts = c.m.Actions(s, w.acts[:0])
		// The parent is a state of an earlier level, so a self-loop
		// needs no lookup.
		w.enc = c.m.Encode(s, w.enc[:0])
		self := fingerprint(w.enc)
		// Pass 1: successors and fingerprints; of an ample set only,
		// when the model offers one and the cycle proviso holds
		// (reduce.go).
		w.succ, w.fps, w.idx = w.succ[:0], w.fps[:0], w.idx[:0]
		if c.d != nil {
			c.d.parent(w.id, s)
		}
		w.amp = w.amp[:0]
		if c.red != nil {
			w.amp = c.red.Ample(s, w.acts, w.amp)
			if !c.expandAmple(w, s, self, &gen) {
				w.succ, w.fps, w.idx = w.succ[:0], w.fps[:0], w.idx[:0]
				w.amp = w.amp[:0]
				if c.d != nil {
					c.d.parent(w.id, s) // forgets the drafts taken back
				}
			}
		}
		if len(w.amp) == 0 {
			for i := range w.acts {
				if c.successor(w, s, i, self) {
					gen++
				}
			}
		}
		// Touch the claims and visited slots in a tight loop, so that
		// the cache misses overlap instead of queueing in pass 2.
		// (Touching the visited slots only for the successors not in
		// the claims table, as a third pass, measured no faster.)
		var sink uint64
		for _, fp := range w.fps {
			sink += c.cl.touch(fp) + c.vis.touch(fp)
		}
		w.sink += sink
		// Pass 2: claim them.
		for k, fp := range w.fps {
			key := parentKey(pos, w.idx[k])
			if c.cl.claim(fp, key, c.vis, &w.budget) {
				switch {
				case c.rebuild:
					w.out.addFP(fp, uint32(key-keyBase))
				case c.d != nil:
					w.out.add(c.d.keep(w.id, k), uint32(key-keyBase))
				default:
					w.out.add(w.succ[k], uint32(key-keyBase))
				}
				added++
			}
		}
	}
	clear(w.succ) // drop references held by S, if any
	w.out.end()
	c.mon.progress(int64(u.hi-u.lo), gen-w.gen, int64(added))
	w.gen = gen
}

// successor appends the successor of s by action i (of w.acts), its
// fingerprint and i to w's buffers, unless it is s itself; it reports
// whether the action is enabled.
func (c *checker[S, A]) successor(w *worker[S, A], s S, i int, self uint64) bool {
	a := w.acts[i]
	var fp uint64
	if c.d != nil {
		var ok bool
		if fp, ok = c.d.draft(w.id, a, self); !ok {
			return false
		}
	} else {
		t, ok := c.m.Next(s, a)
		if !ok {
			return false
		}
		w.enc = c.m.Encode(t, w.enc[:0])
		if fp = fingerprint(w.enc); fp != self {
			w.succ = append(w.succ, t)
		}
	}
	w.cov[c.m.ActionKind(a)]++
	if fp == self {
		w.loop = true
		return true
	}
	w.fps = append(w.fps, fp)
	w.idx = append(w.idx, i)
	return true
}

// expandAmple generates the successors of s by its ample set w.amp and
// reports whether they may stand for all of s's: the set is a proper,
// enabled subset and the cycle proviso holds (every successor new: not
// s, not of this or an earlier level). Otherwise the caller expands s
// fully, and what was generated here is taken back.
func (c *checker[S, A]) expandAmple(w *worker[S, A], s S, self uint64, gen *int64) bool {
	if len(w.amp) == 0 || len(w.amp) >= len(w.acts) {
		return false
	}
	w.loop = false
	ok := true
	for k, i := range w.amp {
		if !c.successor(w, s, i, self) {
			ok = false // a broken contract: expand fully
			w.amp = w.amp[:k]
			break
		}
	}
	ok = ok && !w.loop
	if !c.acyclic {
		for _, fp := range w.fps {
			ok = ok && !c.vis.contains(fp)
		}
	}
	if !ok {
		for _, i := range w.amp {
			w.cov[c.m.ActionKind(w.acts[i])]--
		}
		return false
	}
	*gen += int64(len(w.amp))
	return true
}
