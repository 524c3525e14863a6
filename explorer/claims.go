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
// on an empty slot and the key is lowered by a CAS-min loop (keys start
// at noKey). It never grows during a batch of expansion units: before
// each batch, ensure makes room for every successor the batch can
// produce (at most parents × the most actions seen), and a slot taken
// past the hard limit goes to a mutex-guarded overflow map instead, so
// a wrong estimate costs speed, never correctness. It holds one level.
type claims struct {
	tab   words // pairs: tab[2i] = fingerprint, tab[2i+1] = key
	n     int   // pair slots
	used  int64 // fingerprints in tab, as of the last batch boundary
	limit int64 // above this many fingerprints, new ones overflow

	mu       sync.Mutex
	overflow map[uint64]uint64
	spilled  atomic.Bool
}

const (
	claimMinSlots   = 1 << 10
	claimTargetLoad = 0.5
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
	for i := 1; i < len(c.tab.w); i += 2 {
		c.tab.w[i] = noKey
	}
}

// budget is one worker's share of the free slots for a batch, so that
// workers need not share a counter (a contended cache line).
type budget struct {
	left int64
	used int64
}

// share returns each of n workers' budget for the next batch.
func (c *claims) share(n int) int64 {
	return max(0, c.limit-c.used) / int64(n)
}

// claim records that key reaches fp, unless fp is a state of an earlier
// level (in vis), and reports whether key is now the smallest key for
// fp. Looking in the claims first spares the larger visited table the
// many successors that are duplicates within the level.
func (c *claims) claim(fp, key uint64, vis *visited, b *budget) bool {
	tab := c.tab.w
	i := slotOf(fp, 0, c.n)
	checked := false
	for {
		x := atomic.LoadUint64(&tab[2*i])
		if x == 0 {
			if !checked {
				if vis.contains(fp) {
					return false
				}
				checked = true
			}
			if b.left == 0 {
				return c.claimOverflow(fp, key)
			}
			if !atomic.CompareAndSwapUint64(&tab[2*i], 0, fp) {
				continue // taken meanwhile: look at it again
			}
			b.left--
			b.used++
			x = fp
		}
		if x == fp {
			return lowerKey(&tab[2*i+1], key)
		}
		if i++; i == c.n {
			i = 0
		}
	}
}

// touch loads the home slot of fp, to bring it into the cache early.
func (c *claims) touch(fp uint64) uint64 {
	return c.tab.w[2*slotOf(fp, 0, c.n)]
}

func lowerKey(p *uint64, key uint64) bool {
	for {
		old := atomic.LoadUint64(p)
		if key >= old {
			return false
		}
		if atomic.CompareAndSwapUint64(p, old, key) {
			return true
		}
	}
}

func (c *claims) claimOverflow(fp, key uint64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.overflow == nil {
		c.overflow = make(map[uint64]uint64)
	}
	c.spilled.Store(true)
	if old, ok := c.overflow[fp]; ok && old <= key {
		return false
	}
	c.overflow[fp] = key
	return true
}

// key returns the winning key of fp, or noKey. It must not run
// concurrently with claim.
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
	k := tab[2*i+1] // noKey if the slot is empty
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
		*b = budget{}
	}
}

// ensure makes room for more fingerprints before a batch of
// expansion; it must not run concurrently with claim.
func (c *claims) ensure(more int64) {
	need := c.used + more
	if need <= int64(float64(c.n)*claimHardLoad*0.9) && !c.spilled.Load() {
		return
	}
	old := c.tab
	c.tab = words{}
	c.alloc(max(claimMinSlots, int(float64(need+int64(len(c.overflow)))/claimTargetLoad)))
	c.used = 0
	for i := 0; i < len(old.w); i += 2 {
		if old.w[i] != 0 {
			c.put(old.w[i], old.w[i+1])
		}
	}
	old.free()
	for fp, k := range c.overflow {
		c.put(fp, k)
	}
	c.overflow = nil
	c.spilled.Store(false)
}

// put inserts during a rehash (single-threaded).
func (c *claims) put(fp, key uint64) {
	tab := c.tab.w
	i := slotOf(fp, 0, c.n)
	for tab[2*i] != 0 {
		if i++; i == c.n {
			i = 0
		}
	}
	tab[2*i], tab[2*i+1] = fp, key
	c.used++
}

// reset empties the table for the next level, resizing it to suit a
// level of about the size of the one just claimed.
func (c *claims) reset() {
	used := c.used
	want := max(claimMinSlots, int(float64(used)/claimTargetLoad))
	if c.n > 2*want {
		c.alloc(want)
	} else {
		clear(c.tab.w)
		for i := 1; i < len(c.tab.w); i += 2 {
			c.tab.w[i] = noKey
		}
	}
	c.used = 0
	c.overflow = nil
	c.spilled.Store(false)
}

func (c *claims) size() int64 { return c.used }

func (c *claims) bytes() uint64 { return uint64(len(c.tab.w)) * 8 }

func (c *claims) free() { c.tab.free() }
