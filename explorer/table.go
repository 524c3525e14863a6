package explorer

import "sync"

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
// take no lock; during commit workers insert under the shard's mutex,
// and a shard that gets too full grows under that mutex. Growing one
// shard at a time bounds the transient memory of a resize to one shard.
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
)

type visitedShard struct {
	mu    sync.Mutex
	tab   words
	homes int // home slots; len(tab.w) - homes is slack
	n     int
	limit int
	_     [64]byte // keep neighbouring shards off one cache line
}

func newVisited() *visited {
	v := &visited{}
	for i := range v.shards {
		v.shards[i].resize(visitedMinSlots)
	}
	return v
}

// contains reports whether fp is in the set. It must not run
// concurrently with insert.
func (v *visited) contains(fp uint64) bool {
	sh := &v.shards[fp>>visitedShift]
	tab := sh.tab.w
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
	return sh.tab.w[slotOf(fp, visitedShardBits, sh.homes)]
}

// insert adds fp and reports whether it was absent. Safe for concurrent
// use with other inserts.
func (v *visited) insert(fp uint64) bool {
	sh := &v.shards[fp>>visitedShift]
	sh.mu.Lock()
	added, ok := sh.put(fp)
	for !ok { // no slack left: grow and retry
		sh.resize(2 * sh.homes)
		added, ok = sh.put(fp)
	}
	if added {
		sh.n++
		if sh.n > sh.limit {
			sh.resize(int(float64(sh.n)/visitedTargetLoad) + 1)
		}
	}
	sh.mu.Unlock()
	return added
}

// reserve grows the shard, if needed, to take more fingerprints
// without a resize. Not safe for concurrent use with insert.
func (sh *visitedShard) reserve(more int) {
	if sh.n+more > sh.limit {
		sh.resize(int(float64(sh.n+more)/visitedTargetLoad) + 1)
	}
}

// put inserts fp in order. ok is false if the cluster would run past
// the slack.
func (sh *visitedShard) put(fp uint64) (added, ok bool) {
	tab := sh.tab.w
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

// resize rebuilds the shard with about homes home slots. The old table
// is sorted, so this is a linear merge.
func (sh *visitedShard) resize(homes int) {
	for {
		old := sh.tab
		slack := 1024 + homes/64
		tab := allocWords(homes + slack)
		next := 0
		fits := true
		for _, fp := range old.w {
			if fp == 0 {
				continue
			}
			i := max(next, slotOf(fp, visitedShardBits, homes))
			if i >= len(tab.w) {
				fits = false
				break
			}
			tab.w[i] = fp
			next = i + 1
		}
		if !fits {
			tab.free()
			homes *= 2
			continue
		}
		sh.tab, sh.homes = tab, homes
		sh.limit = int(float64(homes) * visitedMaxLoad)
		old.free()
		return
	}
}

// bytes returns the memory held by the table.
func (v *visited) bytes() uint64 {
	var b uint64
	for i := range v.shards {
		b += uint64(len(v.shards[i].tab.w)) * 8
	}
	return b
}

func (v *visited) free() {
	for i := range v.shards {
		v.shards[i].tab.free()
	}
}
