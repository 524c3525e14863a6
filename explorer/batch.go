package explorer

import "slices"

// fpBuf is a growable buffer of fingerprints outside the Go heap, so
// that its memory is returned as soon as commit is done with it.
type fpBuf struct {
	mem words
	n   int
}

func (b *fpBuf) add(fp uint64) {
	if b.n == len(b.mem.w) {
		b.reserve(2*b.n + 1)
	}
	b.mem.w[b.n] = fp
	b.n++
}

// reserve makes room for n fingerprints in all.
func (b *fpBuf) reserve(n int) {
	if n <= len(b.mem.w) {
		return
	}
	m := allocWords(max(8192, n)) // ≥ 64 KiB: off the heap
	copy(m.w, b.mem.w[:b.n])
	b.mem.free()
	b.mem = m
}

func (b *fpBuf) fps() []uint64 { return b.mem.w[:b.n] }

func (b *fpBuf) free() {
	b.mem.free()
	b.n = 0
}

// addBatch inserts the new fingerprints fps of one level into the
// shard, sorting fps in place; they must be absent from the set. The
// caller owns the shard (commit hands each shard to one worker), so
// there is no lock. A small batch is put in ascending order, so that
// the probes sweep the shard once; a larger one, or one that needs more
// home slots, is merged in place (merge).
func (sh *visitedShard) addBatch(fps []uint64, sc *mergeScratch) {
	if len(fps) == 0 {
		return
	}
	slices.Sort(fps)
	fps = slices.Compact(fps)
	homes := sh.homes
	if sh.n+len(fps) > sh.limit {
		homes = int(float64(sh.n+len(fps))/visitedTargetLoad) + 1
	} else if len(fps) < sh.homes/mergeDensity {
		for _, fp := range fps {
			added, ok := sh.put(fp)
			for !ok { // no slack left: grow and retry
				sh.merge(2*sh.homes, nil, sc)
				added, ok = sh.put(fp)
			}
			if added {
				sh.n++
			}
		}
		return
	}
	sh.merge(homes, fps, sc)
}

// mergeDensity: a batch of at least homes/mergeDensity fingerprints is
// merged in one pass over the shard rather than put one by one.
const mergeDensity = 64

// mergeScratch is one worker's scratch memory for merge, reused.
type mergeScratch struct {
	marks []mark
	out   []uint64
	at    []int
}

// mark is where merge starts the output of a chunk: the index of the
// next new fingerprint, and the next free slot.
type mark struct{ j, next int }

// mergeChunk is the number of old slots merge handles at a time.
const mergeChunk = 4096

// merge re-lays the shard out with homes (≥ sh.homes) home slots,
// adding the sorted fingerprints fps (duplicates of present ones are
// skipped), in place. In the new layout every fingerprint lands at or
// after its old slot: its home does not move left, and the ones before
// it in order only grow in number. A forward pass computes where each
// chunk of old slots starts its output; then chunks are moved from the
// last to the first, each to slots no fingerprint still to be moved
// occupies. The table grows within its reservation, so there is no copy
// of the shard and no transient memory.
func (sh *visitedShard) merge(homes int, fps []uint64, sc *mergeScratch) {
	if sc == nil {
		sc = &mergeScratch{}
	}
	oldLen := len(sh.tab)
	marks := sc.marks
	var size, added int
	for {
		added = 0
		size = homes + 1024 + homes/64
		marks = marks[:0]
		j, next := 0, 0
		for r, x := range sh.tab {
			if r%mergeChunk == 0 {
				marks = append(marks, mark{j, next})
			}
			if x == 0 {
				continue
			}
			for ; j < len(fps) && fps[j] <= x; j++ {
				if fps[j] != x {
					next = max(next, slotOf(fps[j], visitedShardBits, homes)) + 1
					added++
				}
			}
			next = max(next, slotOf(x, visitedShardBits, homes)) + 1
		}
		for ; j < len(fps); j++ {
			next = max(next, slotOf(fps[j], visitedShardBits, homes)) + 1
			added++
		}
		if next <= size {
			break
		}
		homes *= 2
	}
	sh.setLen(size)
	tab := sh.tab
	out, at := sc.out, sc.at
	for c := len(marks) - 1; c >= 0; c-- {
		lo, hi := c*mergeChunk, min(oldLen, (c+1)*mergeChunk)
		jEnd := len(fps)
		if c+1 < len(marks) {
			jEnd = marks[c+1].j
		}
		j, next := marks[c].j, marks[c].next
		out, at = out[:0], at[:0]
		for r := lo; r < hi; r++ {
			x := tab[r]
			if x == 0 {
				continue
			}
			for ; j < jEnd && fps[j] <= x; j++ {
				if fps[j] != x {
					next = max(next, slotOf(fps[j], visitedShardBits, homes))
					out, at = append(out, fps[j]), append(at, next)
					next++
				}
			}
			next = max(next, slotOf(x, visitedShardBits, homes))
			out, at = append(out, x), append(at, next)
			next++
			tab[r] = 0
		}
		for ; j < jEnd; j++ { // only in the last chunk
			next = max(next, slotOf(fps[j], visitedShardBits, homes))
			out, at = append(out, fps[j]), append(at, next)
			next++
		}
		for k, x := range out {
			tab[at[k]] = x
		}
	}
	// Keep the scratch for the next merge, unless a long tail of new
	// fingerprints made it large.
	sc.marks, sc.out, sc.at = marks, out[:0], at[:0]
	if cap(out) > 4*mergeChunk {
		sc.out, sc.at = nil, nil
	}
	sh.homes, sh.n = homes, sh.n+added
	sh.limit = int(float64(homes) * visitedMaxLoad)
}
