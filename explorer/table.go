package explorer

import (
	"math"
	"sync"
)

// visited is the set of fingerprints of every state of the levels
// committed so far: a sharded open-addressing table of uint64 slots (0
// means empty) with ordered linear probing. The home slot of a
// fingerprint is a monotone function of it (slotOf), and each shard is
// kept sorted: an insert shifts the rest of its cluster right by one.
// A lookup can then stop at the first larger fingerprint, so a miss
// costs about as little as a hit even at 90% load (plain linear probing
// would scan the whole cluster). Probes never wrap around: each shard
// has slack slots past its last home slot.
//
// Concurrency follows the level structure of the search: during
// expansion every worker calls contains and nobody inserts, so lookups
// take no lock; during commit each shard is handed to one worker, which
// adds the level's fingerprints for it in one batch (addBatch, batch.go)
// without a lock. insert, under the shard's mutex, serves level 0.
//
// A shard grows in place (merge): it is a prefix of a large reserved
// range of address space, of which only the slots in use are resident,
// so growing needs no second table and no copy.
type visited struct {
	shards [visitedShards]visitedShard
}

const (
	visitedShardBits = 4
	visitedShards    = 1 << visitedShardBits
	visitedShift     = 64 - visitedShardBits
	visitedMinSlots  = 4096
	// A shard grows when more than maxLoad of its home slots are
	// full, to targetLoad.
	visitedMaxLoad    = 0.93
	visitedTargetLoad = 0.75
	// Each shard reserves address space for this many slots (1 GiB),
	// so that it grows in place; only the slots used are resident.
	visitedReserve = 1 << 27
)

type visitedShard struct {
	mu    sync.Mutex
	res   words    // reserved address space; the table is a prefix
	tab   []uint64 // res.w[:homes+slack]
	homes int      // home slots; len(tab) - homes is slack
	n     int
	limit int
	_     [64]byte // keep neighbouring shards off one cache line
}

func newVisited() *visited {
	v := &visited{}
	for i := range v.shards {
		sh := &v.shards[i]
		sh.homes = visitedMinSlots
		sh.limit = visitedMinSlots * 93 / 100 // visitedMaxLoad
		sh.setLen(visitedMinSlots + 1024 + visitedMinSlots/64)
	}
	return v
}

// contains reports whether fp is in the set. It must not run
// concurrently with insert.
func (v *visited) contains(fp uint64) bool {
	sh := &v.shards[fp>>visitedShift]
	tab := sh.tab
	for i := slotOf(fp, visitedShardBits, sh.homes); i < len(tab); i++ {
		x := tab[i]
		if x >= fp || x == 0 {
			return x == fp
		}
	}
	return false
}

// touch loads the home slot of fp, to bring it into the cache early.
func (v *visited) touch(fp uint64) uint64 {
	sh := &v.shards[fp>>visitedShift]
	return sh.tab[slotOf(fp, visitedShardBits, sh.homes)]
}

// insert adds fp and reports whether it was absent. Safe for concurrent
// use with other inserts.
func (v *visited) insert(fp uint64) bool {
	sh := &v.shards[fp>>visitedShift]
	sh.mu.Lock()
	added, ok := sh.put(fp)
	for !ok { // no slack left: grow and retry
		sh.merge(2*sh.homes, nil, nil)
		added, ok = sh.put(fp)
	}
	if added {
		sh.n++
		if sh.n > sh.limit {
			sh.merge(int(float64(sh.n)/visitedTargetLoad)+1, nil, nil)
		}
	}
	sh.mu.Unlock()
	return added
}

// put inserts fp in order. ok is false if the cluster would run past
// the slack.
func (sh *visitedShard) put(fp uint64) (added, ok bool) {
	tab := sh.tab
	i := slotOf(fp, visitedShardBits, sh.homes)
	for ; i < len(tab); i++ {
		x := tab[i]
		if x == fp {
			return false, true
		}
		if x == 0 || x > fp {
			break
		}
	}
	j := i
	for j < len(tab) && tab[j] != 0 {
		j++
	}
	if j == len(tab) {
		return false, false
	}
	copy(tab[i+1:j+1], tab[i:j])
	tab[i] = fp
	return true, true
}

// setLen makes the table n slots long (n only grows), within the
// reservation if it is large enough, else by moving to a larger one.
// Slots past the old length are zero.
func (sh *visitedShard) setLen(n int) {
	if n > len(sh.res.w) {
		res := reserveWords(n, max(n, visitedReserve))
		copy(res.w, sh.tab)
		sh.res.free()
		sh.res = res
	}
	sh.tab = sh.res.w[:n]
	hugePages(sh.res, n)
}

// growth returns the memory the set would grow by if n new fingerprints
// were added in one level: the shards they would push past the maximum
// load grow to the target load (addBatch). The fingerprints are assumed
// spread evenly, with a margin of four standard deviations.
func (v *visited) growth(n int64) uint64 {
	per := float64(n) / visitedShards
	per += 4 * math.Sqrt(per)
	var g uint64
	for i := range v.shards {
		sh := &v.shards[i]
		after := sh.n + int(per)
		if after <= sh.limit {
			continue
		}
		homes := int(float64(after)/visitedTargetLoad) + 1
		if size := homes + 1024 + homes/64; size > len(sh.tab) {
			g += uint64(size-len(sh.tab)) * 8
		}
	}
	return g
}

// bytes returns the memory held by the table.
func (v *visited) bytes() uint64 {
	var b uint64
	for i := range v.shards {
		b += uint64(len(v.shards[i].tab)) * 8
	}
	return b
}

func (v *visited) free() {
	for i := range v.shards {
		v.shards[i].res.free()
	}
}
