package explorer

import (
	"sync"
	"sync/atomic"
)

// claims maps the fingerprint of every state first found in the level
// being expanded to the smallest parent key that reached it (a parent
// key packs the parent's position in its level with the action index;
// see parentKey). Taking the minimum makes the chosen predecessor, and
// hence the order of the next level and every counterexample,
// independent of which worker got there first.
//
// It is one open-addressing table of (fingerprint, key) pairs with
// linear probing, updated lock-free: a fingerprint is placed by a CAS
// on an empty slot and the key is lowered by a CAS-min loop (a slot
// stores key+1, so 0 means none yet and a fresh table needs no
// initialisation). A claimer that displaces a key records it as a
// loser; commit drops the records of losers, so it needs no lookup per
// record.
//
// It never grows during a batch of expansion units: before each batch,
// ensure makes room for the new fingerprints the batch is expected to
// produce (twice the rate of the last batch), and a slot taken past a
// worker's share goes to a mutex-guarded overflow map instead, so a
// wrong estimate costs speed, never correctness. It holds one level.
type claims struct {
	tab   words // pairs: tab[2i] = fingerprint, tab[2i+1] = key+1
	n     int   // pair slots
	used  int64 // fingerprints in tab, as of the last batch boundary
	last  int64 // fingerprints claimed in the last level
	prev  int64 // and in the level before
	limit int64 // above this many fingerprints, new ones overflow

	mu       sync.Mutex
	overflow map[uint64]uint64
	spilled  atomic.Bool
}

const (
	claimMinSlots   = 1 << 10
	claimTargetLoad = 0.7
	claimHardLoad   = 0.9
)

func newClaims() *claims {
	c := &claims{}
	c.alloc(claimMinSlots)
	return c
}

func (c *claims) alloc(n int) {
	c.tab.free()
	c.tab = allocWords(2 * n)
	c.n = n
	c.limit = int64(float64(n) * claimHardLoad)
}

// budget is one worker's share of the free slots for a batch, so that
// workers need not share a counter (a contended cache line), and the
// keys it has displaced: a record whose key is displaced lost its claim,
// and commit drops it.
type budget struct {
	left   int64
	used   int64
	losers []uint64
}

// share returns each of n workers' budget for the next batch.
func (c *claims) share(n int) int64 {
	return max(0, c.limit-c.used) / int64(n)
}

// lookup lowers the key of fp to key if fp is already claimed in this
// level. found is false if fp is not in the table: the caller must then
// check the visited set and call insert.
func (c *claims) lookup(fp, key uint64, b *budget) (found, won bool) {
	tab := c.tab.w
	for i := slotOf(fp, 0, c.n); ; {
		x := atomic.LoadUint64(&tab[2*i])
		if x == fp {
			return true, lowerKey(&tab[2*i+1], key, b)
		}
		if x == 0 {
			return false, false
		}
		if i++; i == c.n {
			i = 0
		}
	}
}

// insert claims fp, which is not a state of an earlier level, for key
// and reports whether key is now the smallest key for fp (another
// worker may have inserted fp since lookup).
func (c *claims) insert(fp, key uint64, b *budget) bool {
	tab := c.tab.w
	for i := slotOf(fp, 0, c.n); ; {
		x := atomic.LoadUint64(&tab[2*i])
		if x == 0 {
			if b.left == 0 {
				return c.claimOverflow(fp, key, b)
			}
			if !atomic.CompareAndSwapUint64(&tab[2*i], 0, fp) {
				continue // taken meanwhile: look at it again
			}
			b.left--
			b.used++
			x = fp
		}
		if x == fp {
			return lowerKey(&tab[2*i+1], key, b)
		}
		if i++; i == c.n {
			i = 0
		}
	}
}

// claim records that key reaches fp, unless fp is a state of an earlier
// level (in vis), and reports whether key is now the smallest key for
// fp. Looking in the claims first spares the larger visited table the
// many successors that are duplicates within the level.
func (c *claims) claim(fp, key uint64, vis *visited, b *budget) bool {
	if found, won := c.lookup(fp, key, b); found {
		return won
	}
	if vis.contains(fp) {
		return false
	}
	return c.insert(fp, key, b)
}

// touch loads the home slot of fp, to bring it into the cache early.
func (c *claims) touch(fp uint64) uint64 {
	return atomic.LoadUint64(&c.tab.w[2*slotOf(fp, 0, c.n)]) // a plain load on amd64
}

// lowerKey lowers the key stored at p to key if key is smaller,
// recording the displaced key as a loser. A slot stores key+1, so that
// a zeroed table needs no initialisation: 0 means no key yet.
func lowerKey(p *uint64, key uint64, b *budget) bool {
	stored := key + 1
	for {
		old := atomic.LoadUint64(p)
		if old != 0 && stored >= old {
			return false
		}
		if atomic.CompareAndSwapUint64(p, old, stored) {
			if old != 0 {
				b.losers = append(b.losers, old-1)
			}
			return true
		}
	}
}

func (c *claims) claimOverflow(fp, key uint64, b *budget) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.overflow == nil {
		c.overflow = make(map[uint64]uint64)
	}
	c.spilled.Store(true)
	old, ok := c.overflow[fp]
	if ok && old <= key {
		return false
	}
	if ok {
		b.losers = append(b.losers, old)
	}
	c.overflow[fp] = key
	return true
}

// key returns the winning key of fp, or noKey (for tests: commit
// goes by the losers instead). It must not run concurrently with claim.
func (c *claims) key(fp uint64) uint64 {
	tab := c.tab.w
	i := slotOf(fp, 0, c.n)
	for {
		x := tab[2*i]
		if x == fp || x == 0 {
			break
		}
		if i++; i == c.n {
			i = 0
		}
	}
	k := tab[2*i+1] - 1 // noKey if the slot is empty
	if c.spilled.Load() {
		// A racing claimer may have gone to the overflow while the
		// fingerprint entered the table: the smaller key wins.
		if o, ok := c.overflow[fp]; ok {
			k = min(k, o)
		}
	}
	return k
}

// settle adds the workers' insertions after a batch.
func (c *claims) settle(bs []*budget) {
	for _, b := range bs {
		c.used += b.used
		b.used, b.left = 0, 0
	}
}

// ensure makes room for more fingerprints before a batch of
// expansion; it must not run concurrently with claim. The old table is
// rehashed by up to workers goroutines. Losers found while folding the
// overflow go to b.
func (c *claims) ensure(more int64, workers int, b *budget) {
	slots, ok := c.rehashTo(more)
	if !ok {
		return
	}
	old := c.tab
	c.tab = words{}
	c.alloc(slots)
	const chunk = 1 << 14 // pairs
	pairs := len(old.w) / 2
	parallelFor(workers, (pairs+chunk-1)/chunk, func(_, k int) bool {
		for i := k * chunk; i < min(pairs, (k+1)*chunk); i++ {
			if fp := old.w[2*i]; fp != 0 {
				c.place(fp, old.w[2*i+1])
			}
		}
		return true
	})
	old.free()
	c.fold(b)
}

// place inserts a fingerprint known to be absent, with its stored key
// (key+1), during a rehash; safe for concurrent use with itself.
func (c *claims) place(fp, stored uint64) {
	tab := c.tab.w
	for i := slotOf(fp, 0, c.n); ; {
		if atomic.LoadUint64(&tab[2*i]) == 0 && atomic.CompareAndSwapUint64(&tab[2*i], 0, fp) {
			tab[2*i+1] = stored
			return
		}
		if i++; i == c.n {
			i = 0
		}
	}
}

// fold moves the overflow into the table. A fingerprint that raced into
// both keeps the smaller key; the other is a loser.
func (c *claims) fold(b *budget) {
	for fp, k := range c.overflow {
		c.put(fp, k, b)
	}
	c.overflow = nil
	c.spilled.Store(false)
}

// put inserts single-threaded (rehash, fold), keeping the smaller key.
func (c *claims) put(fp, key uint64, b *budget) {
	tab := c.tab.w
	i := slotOf(fp, 0, c.n)
	for tab[2*i] != 0 {
		if tab[2*i] == fp {
			cur := tab[2*i+1] - 1
			tab[2*i+1] = min(key, cur) + 1
			b.losers = append(b.losers, max(key, cur))
			return
		}
		if i++; i == c.n {
			i = 0
		}
	}
	tab[2*i], tab[2*i+1] = fp, key+1
	c.used++
}

// release frees the table once a level is expanded (commit does not
// need it), so that its memory and the visited set's growth in commit do
// not add up. It remembers the size of the level.
func (c *claims) release() {
	c.prev, c.last = c.last, c.used
	c.tab.free()
	c.n, c.used, c.limit = 0, 0, 0
	c.overflow = nil
	c.spilled.Store(false)
}

// prepare allocates an empty table for the next level, sized for the
// last level times the growth from the level before (at most doubling):
// a table that has to grow in the middle of a level holds the old and
// the new table at once, and at the widest levels that transient, not
// the table, makes the peak. Fresh mappings are zero, so there is
// nothing to clear.
func (c *claims) prepare() { c.alloc(c.prepared()) }

// prepared is the number of slots prepare allocates.
func (c *claims) prepared() int {
	est := float64(c.last)
	if c.prev > 0 {
		est *= min(2, max(1, float64(c.last)/float64(c.prev)))
	}
	return max(claimMinSlots, int(est/claimTargetLoad))
}

// forecast returns the memory the table takes while a level that
// claims about n fingerprints is expanded: the table prepare allocates,
// plus, if n outgrows it, the table ensure rehashes it into, as both are
// held during the rehash.
func (c *claims) forecast(n int64) uint64 {
	slots := c.prepared()
	b := 16 * uint64(slots)
	if float64(n) > float64(slots)*claimHardLoad*0.9 {
		b += 16 * uint64(float64(n)/claimTargetLoad)
	}
	return b
}

// growth returns the memory ensure would allocate to make room for more
// fingerprints, or 0 if it would not rehash.
func (c *claims) growth(more int64) uint64 {
	if slots, ok := c.rehashTo(more); ok {
		return 16 * uint64(slots)
	}
	return 0
}

// rehashTo returns the size of the table ensure rehashes into to make
// room for more fingerprints, and false if the table is large enough.
func (c *claims) rehashTo(more int64) (int, bool) {
	need := c.used + more
	if need <= int64(float64(c.n)*claimHardLoad*0.9) && !c.spilled.Load() {
		return 0, false
	}
	return max(claimMinSlots, int(float64(need+int64(len(c.overflow)))/claimTargetLoad)), true
}

func (c *claims) size() int64 { return c.used }

func (c *claims) bytes() uint64 { return uint64(len(c.tab.w)) * 8 }

func (c *claims) free() { c.tab.free() }
