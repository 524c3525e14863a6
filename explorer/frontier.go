package explorer

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A parent key packs the position of a parent state in its level with
// the index of the action taken (in the list returned by Model.Actions).
// Keys order the next level: sorting a level by parent key is BFS order.
const (
	actionBits = 20
	actionMask = 1<<actionBits - 1
	noKey      = math.MaxUint64
)

func parentKey(pos int64, action int) uint64 {
	if action > actionMask {
		panic(fmt.Sprintf("explorer: Model.Actions returned more than %d actions", actionMask+1))
	}
	return uint64(pos)<<actionBits | uint64(action)
}

// blockLen is the number of records in a block. Records of a level are
// written into fixed blocks that are recycled between levels, so the
// frontier neither reallocates nor leaves garbage for the GC.
const blockLen = 4096

// block holds records: a state and its parent key, relative to the
// first parent of the unit that produced it (see segment.keyBase), so
// that it fits in 32 bits. In a level that is rebuilt (see rebuild.go)
// a record holds the state's fingerprint instead of the state until
// commit.
type block[S any] struct {
	states []S
	keys   []uint32
	fps    []uint64 // on-heap blocks of a rebuilt level

	statesMem, keysMem words      // backing memory of an off-heap block
	disk               *diskBlock // of a spilled block (spill.go)
}

// segment is a run of consecutive records of one level, all produced by
// one expansion unit. A level is an ordered list of segments; the
// position of a state in its level is its index in the concatenation.
//
// The records of a spilled block are in memory only while the block is
// pinned, not always at the same place: there, only the lengths of
// states and keys are to be trusted, and view gives the records.
type segment[S any] struct {
	states  []S
	keys    []uint32  // parent key - keyBase
	fps     []uint64  // fingerprints, in a rebuilt level (else nil)
	blk     *block[S] // holding the records
	off     int       // index of the first record in blk
	keyBase uint64    // parent key of the first parent of the unit, action 0
	unit    int       // producing unit, for ordering
	seq     int       // order within the unit
	base    int64     // position of states[0] in the level, once known
}

// view returns the segment's states and keys; in a spilled block they
// are valid while it is pinned.
func (s *segment[S]) view() ([]S, []uint32) {
	if b := s.blk; b != nil && b.disk != nil {
		return b.states[s.off : s.off+len(s.states)], b.keys[s.off : s.off+len(s.keys)]
	}
	return s.states, s.keys
}

// unit is a slice of a segment of the current level expanded as one
// piece of work.
type unit struct {
	seg    int
	lo, hi int
}

// unitLen bounds the number of parents per unit: small enough to
// balance the end of a level, large enough to amortise the scheduling.
const unitLen = 512

// A key relative to its unit must fit in a uint32 (compile-time check).
const _ = uint32(unitLen<<actionBits - 1)

// pool supplies blocks. For a pointer-free S (the common case of a
// packed state) the memory is mapped outside the Go heap, the keys of a
// committed level are given back before the level is expanded, and the
// free lists are trimmed to the width of the last level, so resident
// memory follows the frontier down as well as up. Otherwise blocks come
// from the Go heap and are recycled whole, leaving no garbage.
//
// Between phases the checker sets how the next level is kept: toDisk
// (pointer-free S) takes blocks from the spill file, fps (any other S)
// gives blocks a fingerprint array for a level that is rebuilt.
type pool[S any] struct {
	offHeap bool
	mu      sync.Mutex
	free    []*block[S] // on-heap blocks
	states  []words     // off-heap free lists
	keys    []words
	count   atomic.Int64 // blocks in memory (for progress)

	toDisk bool
	fps    bool
	dir    string     // of the spill file
	disk   *spillFile // created by the first spilled block
	err    error      // why the spill file could not be created, if so
}

func newPool[S any](dir string) *pool[S] {
	return &pool[S]{offHeap: pointerFree(reflect.TypeFor[S]()), dir: dir}
}

func (p *pool[S]) get() *block[S] {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.toDisk {
		if b := p.getDisk(); b != nil {
			return b
		}
	}
	if !p.offHeap {
		var b *block[S]
		if n := len(p.free); n > 0 {
			b = p.free[n-1]
			p.free = p.free[:n-1]
		} else {
			p.count.Add(1)
			b = &block[S]{states: make([]S, blockLen), keys: make([]uint32, blockLen)}
		}
		if p.fps && b.fps == nil {
			b.fps = make([]uint64, blockLen)
		}
		return b
	}
	b := &block[S]{}
	if n := len(p.states); n > 0 {
		b.statesMem, p.states = p.states[n-1], p.states[:n-1]
	} else {
		size := unsafe.Sizeof(*new(S))
		b.statesMem = allocWordsOffHeap(int((uintptr(blockLen)*size + 7) / 8))
		p.count.Add(1)
	}
	if n := len(p.keys); n > 0 {
		b.keysMem, p.keys = p.keys[n-1], p.keys[:n-1]
	} else {
		b.keysMem = allocWordsOffHeap(blockLen / 2)
	}
	b.keys = unsafe.Slice((*uint32)(unsafe.Pointer(&b.keysMem.w[0])), blockLen)
	if len(b.statesMem.w) > 0 {
		b.states = unsafe.Slice((*S)(unsafe.Pointer(&b.statesMem.w[0])), blockLen)
	} else {
		b.states = make([]S, blockLen) // zero-size S
	}
	return b
}

// getDisk returns a block in a region of the spill file, or nil if the
// file cannot be had (p.err says why) or failed: the level stays in
// memory.
func (p *pool[S]) getDisk() *block[S] {
	if p.disk == nil && p.err == nil {
		p.disk, p.err = newSpillFile(p.dir, unsafe.Sizeof(*new(S)))
	}
	if p.err != nil || p.disk.failed() != nil {
		return nil
	}
	return newDiskBlock[S](p.disk)
}

// spillErr says why the frontier could not be spilled, or what went
// wrong with the spill file, if anything did.
func (p *pool[S]) spillErr() error {
	if p.err != nil {
		return fmt.Errorf("frontier kept in memory: %w", p.err)
	}
	if p.disk != nil {
		return p.disk.failed()
	}
	return nil
}

// put takes back the blocks of a level that has been expanded, keeping
// at most keep blocks' worth of free memory.
func (p *pool[S]) put(bs []*block[S], keep int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.offHeap {
		for _, b := range bs {
			clear(b.states) // drop references held by S
		}
		p.free = append(p.free, bs...)
		return
	}
	for _, b := range bs {
		if b.disk != nil {
			b.disk.sf.give(b.disk)
		} else {
			p.states = append(p.states, b.statesMem)
			if b.keysMem.w != nil {
				p.keys = append(p.keys, b.keysMem)
			}
		}
		*b = block[S]{}
	}
	p.states = trim(p.states, keep, &p.count)
	p.keys = trim(p.keys, keep, nil)
}

func trim(ws []words, keep int, count *atomic.Int64) []words {
	for len(ws) > keep {
		ws[len(ws)-1].free()
		ws = ws[:len(ws)-1]
		if count != nil {
			count.Add(-1)
		}
	}
	return ws
}

// dropKeys takes back the parent keys of a committed level, which are in
// the trace by then (off-heap blocks only).
func (p *pool[S]) dropKeys(lv *level[S]) {
	if !p.offHeap {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, b := range lv.blocks {
		if b.disk != nil {
			continue // the keys are in the file
		}
		p.keys = append(p.keys, b.keysMem)
		b.keysMem, b.keys = words{}, nil
	}
	for i := range lv.segs {
		lv.segs[i].keys = nil
	}
}

// pointerFree reports whether values of t contain no pointers, so that
// they may live in memory the garbage collector does not scan.
func pointerFree(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return t.Len() == 0 || pointerFree(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !pointerFree(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// writer appends records for one worker during expansion.
type writer[S any] struct {
	pool   *pool[S]
	blocks []*block[S] // blocks used in this level
	cur    *block[S]
	fill   int // records used in cur
	segs   []segment[S]
	start  int // first record of the open segment in cur
	unit   int
	seq    int
}

func (w *writer[S]) begin(u int) {
	w.unit, w.seq, w.start = u, 0, w.fill
}

func (w *writer[S]) add(s S, key uint32) {
	if w.cur == nil || w.fill == blockLen {
		w.newBlock()
	}
	w.cur.states[w.fill] = s
	w.cur.keys[w.fill] = key
	w.fill++
}

// addFP adds a record of a rebuilt level: the state's fingerprint
// stands in for it until commit rebuilds it.
func (w *writer[S]) addFP(fp uint64, key uint32) {
	if w.cur == nil || w.fill == blockLen {
		w.newBlock()
	}
	w.cur.fps[w.fill] = fp
	w.cur.keys[w.fill] = key
	w.fill++
}

// newBlock closes the full block (a spilled one goes to disk) and starts
// another.
func (w *writer[S]) newBlock() {
	w.end()
	w.cur.unpin()
	w.cur = w.pool.get()
	w.cur.pin(true)
	w.blocks = append(w.blocks, w.cur)
	w.fill, w.start = 0, 0
}

// end closes the open segment of the current unit.
func (w *writer[S]) end() {
	if w.cur == nil || w.fill == w.start {
		return
	}
	seg := segment[S]{
		states: w.cur.states[w.start:w.fill],
		keys:   w.cur.keys[w.start:w.fill],
		blk:    w.cur,
		off:    w.start,
		unit:   w.unit,
		seq:    w.seq,
	}
	if w.pool.fps {
		seg.fps = w.cur.fps[w.start:w.fill]
	}
	w.segs = append(w.segs, seg)
	w.seq++
	w.start = w.fill
}

// level is one BFS level: its segments in order, and the blocks that
// hold them.
type level[S any] struct {
	segs   []segment[S]
	blocks []*block[S]
	n      int64
}

// inMemory returns the number of the level's blocks that are not
// spilled: as many free blocks are worth keeping for the next level.
func (lv *level[S]) inMemory() int {
	n := 0
	for _, b := range lv.blocks {
		if b.disk == nil {
			n++
		}
	}
	return n
}

// memBytes returns the memory held by the level's off-heap blocks that
// are not spilled.
func (lv *level[S]) memBytes() uint64 {
	var n uint64
	for _, b := range lv.blocks {
		n += uint64(len(b.statesMem.w)+len(b.keysMem.w)) * 8
	}
	return n
}

// gather collects the writers' segments into a level ordered by
// (unit, seq), which is parent-key order up to the duplicates removed by
// commit. The writers are reset for the next level.
func gather[S any](ws []*writer[S]) *level[S] {
	lv := &level[S]{}
	for _, w := range ws {
		w.end()
		w.cur.unpin()
		lv.segs = append(lv.segs, w.segs...)
		lv.blocks = append(lv.blocks, w.blocks...)
		w.segs, w.blocks, w.cur, w.fill, w.start = w.segs[:0], nil, nil, 0, 0
	}
	slices.SortFunc(lv.segs, func(a, b segment[S]) int {
		if a.unit != b.unit {
			return a.unit - b.unit
		}
		return a.seq - b.seq
	})
	return lv
}

// number assigns positions to the segments (empty ones included, so
// that segment indices stay valid) and counts the level.
func (lv *level[S]) number() {
	var pos int64
	for i := range lv.segs {
		lv.segs[i].base = pos
		pos += int64(len(lv.segs[i].states))
	}
	lv.n = pos
}

// compact drops empty segments.
func (lv *level[S]) compact() {
	segs := lv.segs[:0]
	for _, s := range lv.segs {
		if len(s.states) > 0 {
			segs = append(segs, s)
		}
	}
	clear(lv.segs[len(segs):])
	lv.segs = segs
}

// truncate keeps the first n states of a numbered level.
func (lv *level[S]) truncate(n int64) {
	for i, s := range lv.segs {
		if s.base+int64(len(s.states)) > n {
			k := int(max(0, n-s.base))
			lv.segs[i].states = s.states[:k]
			lv.segs[i].keys = s.keys[:k]
			if s.fps != nil {
				lv.segs[i].fps = s.fps[:k]
			}
		}
	}
	lv.number()
}

// units splits the level into pieces of work.
func (lv *level[S]) units() []unit {
	var us []unit
	for i, s := range lv.segs {
		for lo := 0; lo < len(s.states); lo += unitLen {
			us = append(us, unit{seg: i, lo: lo, hi: min(lo+unitLen, len(s.states))})
		}
	}
	return us
}
