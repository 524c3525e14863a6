package spec

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/impl/kip848"
)

// Packed worlds: the explorer's compact frontier (explorer.Codec, explorer.Compact).
//
// A world is a handful of parts — the coordinator, one slot per member, the cluster and the
// budgets — and a run has far fewer distinct parts than worlds: cooperative-kafka's 631 K
// worlds hold 2.9 K distinct coordinators and 16.5 K distinct slots. A Packer keeps each
// distinct part once, in a table, and a world as the indices of its parts (COLLAPSE
// compression, Holzmann 1997): a PackedWorld is 44 bytes and pointer-free, where a World
// holds about 2 KB of Go heap.
//
// A part is identified by its canonical encoding (encode_fast.go) with generations and epochs
// encoded absolutely (base 0), which keeps every field of the part: two parts with the same
// encoding are the same part, so a world unpacked from its indices has the encoding of the
// world packed, and is the same state. The tables key a part by a 128-bit hash of that
// encoding (partKey), not by the encoding itself. The protocol not run (the idle classic coordinator of a KIP-848
// world, the zero KIP-848 group of a classic one) never changes, and comes from the initial
// world. The tables only grow, for the run: they hold the distinct parts, not the worlds.
type Packer struct {
	init   World
	coords table[coordinator.Group]
	groups table[kip848.Group]
	slots  table[*Slot] // slots are immutable once in a world (World.Slots)
	rests  table[rest]
	seeds  [2]maphash.Seed
	bufs   sync.Pool // *[]byte
}

// MaxPackedSlots is the most member slots a packed world holds (Config allows eight).
const MaxPackedSlots = 8

// PackedWorld is a world as the indices of its parts in a Packer's tables.
type PackedWorld struct {
	Coord uint32 // the classic coordinator, or the KIP-848 group under protocol consumer
	Rest  uint32 // the cluster, the budgets, whether a new coordinator is loading, Observed
	N     uint8  // slots
	Slots [MaxPackedSlots]uint32
}

// rest is what a world holds besides its coordinator and slots. The observers' flags are
// here rather than in every PackedWorld: a run sees few distinct combinations of them, and
// they may take 64 bits.
type rest struct {
	cluster  impl.Cluster
	left     Budget
	loading  bool // a failover's new coordinator is loading (World.Loading)
	observed uint64
}

// NewPacker returns a packer for the worlds of c.
func NewPacker(c Config) *Packer {
	p := &Packer{init: Init(c), seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}}
	p.bufs.New = func() any { b := make([]byte, 0, 512); return &b }
	return p
}

// Pack returns w's indices, adding the parts not seen before to the tables.
func (p *Packer) Pack(w World) PackedWorld {
	bp := p.bufs.Get().(*[]byte)
	defer p.bufs.Put(bp)
	e := packEncoder((*bp)[:0], w)
	if len(w.Slots) > MaxPackedSlots {
		panic("spec: more member slots than a packed world holds")
	}
	pw := PackedWorld{N: uint8(len(w.Slots))}
	pw.Coord = p.coord(&e, w)
	for i := range w.Slots {
		pw.Slots[i] = p.slot(&e, w.Slots[i])
	}
	pw.Rest = p.rest(&e, w)
	*bp = e.buf
	return pw
}

// packEncoder is the encoder of w's parts: generations and epochs absolutely (base 0).
func packEncoder(buf []byte, w World) encoder {
	mixed := w.cfg.mixed
	return encoder{buf: buf, genAsEpoch: w.cfg.ConsumerProtocol || mixed, mixed: mixed}
}

// consumerGroupBit marks, in a mixed world's PackedWorld.Coord, an index into the KIP-848
// groups' table (the group is a consumer group) rather than the classic coordinators'.
const consumerGroupBit = 1 << 31

// coord interns w's coordinator: the KIP-848 group under protocol consumer, else the classic
// one; in a mixed world the half that holds the group, the consumer group's index marked by
// consumerGroupBit. Generations and epochs are encoded absolutely (base 0).
func (p *Packer) coord(e *encoder, w World) uint32 {
	e.buf = e.buf[:0]
	if e.mixed && w.ConsumerGroup {
		e.buf = w.Group.AppendCanonical(e.buf, func(buf []byte, v impl.Epoch) []byte { return encodeEpoch(buf, 0, v) })
		return p.groups.id(p.key(e.buf), w.Group) | consumerGroupBit
	}
	if e.mixed {
		e.buf = w.Coord.AppendCanonical(e.buf, func(buf []byte, g impl.Generation) []byte { return encodeEpoch(buf, 0, impl.Epoch(g)) })
		return p.coords.id(p.key(e.buf), w.Coord)
	}
	if e.genAsEpoch {
		e.buf = w.Group.AppendCanonical(e.buf, func(buf []byte, v impl.Epoch) []byte { return encodeEpoch(buf, 0, v) })
		return p.groups.id(p.key(e.buf), w.Group)
	}
	e.buf = w.Coord.AppendCanonical(e.buf, func(buf []byte, g impl.Generation) []byte { return encodeGen(buf, 0, 0, false, g) })
	return p.coords.id(p.key(e.buf), w.Coord)
}

func (p *Packer) slot(e *encoder, s *Slot) uint32 {
	e.buf = e.buf[:0]
	e.slot(s)
	return p.slots.id(p.key(e.buf), s)
}

// rest interns the cluster, the budgets, whether a new coordinator is loading and the
// observers' flags.
func (p *Packer) rest(e *encoder, w World) uint32 {
	e.buf = e.buf[:0]
	e.cluster(w.Cluster)
	e.budget(&w.Left)
	e.bool(w.Loading)
	e.buf = binary.AppendUvarint(e.buf, w.Observed)
	return p.rests.id(p.key(e.buf), rest{w.Cluster, w.Left, w.Loading, w.Observed})
}

// Repack is Pack for a successor w of parent, packed as pp: a part of w that is the parent's
// (the slot itself, shared: Step copies only the slots it writes) or a bitwise copy of it
// (the coordinator and the rest: Step copies what it does not change, slices included, and
// writes only new values) is the same part, and keeps the parent's index without being
// encoded or looked up. Bitwise equality implies equal encodings; a part that differs only
// in padding or in a shared slice's address is packed as Pack does.
func (p *Packer) Repack(parent World, pp PackedWorld, w World) PackedWorld {
	if len(w.Slots) != len(parent.Slots) {
		return p.Pack(w)
	}
	bp := p.bufs.Get().(*[]byte)
	defer p.bufs.Put(bp)
	e := packEncoder((*bp)[:0], w)
	pw := PackedWorld{N: pp.N}
	switch {
	case e.mixed && (w.ConsumerGroup != parent.ConsumerGroup || !same(&w.Group, &parent.Group) || !same(&w.Coord, &parent.Coord)):
		pw.Coord = p.coord(&e, w)
	case e.mixed, e.genAsEpoch && same(&w.Group, &parent.Group), !e.genAsEpoch && same(&w.Coord, &parent.Coord):
		pw.Coord = pp.Coord
	default:
		pw.Coord = p.coord(&e, w)
	}
	for i := range w.Slots {
		if w.Slots[i] == parent.Slots[i] {
			pw.Slots[i] = pp.Slots[i]
			continue
		}
		pw.Slots[i] = p.slot(&e, w.Slots[i])
	}
	if same(&w.Cluster, &parent.Cluster) && w.Left == parent.Left && w.Loading == parent.Loading && w.Observed == parent.Observed {
		pw.Rest = pp.Rest
	} else {
		pw.Rest = p.rest(&e, w)
	}
	*bp = e.buf
	return pw
}

// same reports whether *a and *b are bitwise equal (see Repack).
func same[T any](a, b *T) bool {
	n := unsafe.Sizeof(*a)
	return unsafe.String((*byte)(unsafe.Pointer(a)), n) == unsafe.String((*byte)(unsafe.Pointer(b)), n)
}

// Unpack returns the world pw stands for.
func (p *Packer) Unpack(pw PackedWorld) World {
	w := p.init
	if w.cfg.mixed {
		w.ConsumerGroup = pw.Coord&consumerGroupBit != 0
		w.Coord, w.Group = coordinator.Group{}, kip848.Group{}
		if w.ConsumerGroup {
			w.Group = p.groups.get(pw.Coord &^ consumerGroupBit)
		} else {
			w.Coord = p.coords.get(pw.Coord)
		}
	} else if w.cfg.ConsumerProtocol {
		w.Group = p.groups.get(pw.Coord)
	} else {
		w.Coord = p.coords.get(pw.Coord)
	}
	w.Slots = make([]*Slot, pw.N)
	for i := range w.Slots {
		w.Slots[i] = p.slots.get(pw.Slots[i])
	}
	r := p.rests.get(pw.Rest)
	w.Cluster, w.Left, w.Loading, w.Observed = r.cluster, r.left, r.loading, r.observed
	return w
}

// Parts returns the number of distinct coordinators, slots and rests packed so far.
func (p *Packer) Parts() (coords, slots, rests int) {
	return int(p.coords.n.Load() + p.groups.n.Load()), int(p.slots.n.Load()), int(p.rests.n.Load())
}

// table interns values of T by key: a sharded map from key to index, and the values in
// chunks that never move, so that get takes no lock. An index reaches a reader only after
// its value is stored (under the shard's lock, or through the explorer's level barriers).
// Chunk k holds tableFirst<<k values, so a table of n parts holds fewer than 2n slots and
// a directory of 32 pointers: a small table (cooperative-kafka's four rests, its 2.9 K
// coordinators) costs what it holds. Fixed 4,096-value chunks and a 16 K-entry directory
// cost every table 1.3 MB of heap up front, a tenth of that world's live heap.
type table[T any] struct {
	shards [tableShards]struct {
		mu sync.RWMutex
		m  map[partKey]uint32
		_  [40]byte
	}
	n      atomic.Uint32
	chunks [tableChunks]atomic.Pointer[[]T]
	grow   sync.Mutex
}

const (
	tableShards = 16
	tableFirst  = 64 // values in chunk 0
	tableChunks = 27 // 64 × (2²⁷ − 1) values: every uint32 index
)

// chunkOf returns the chunk holding index id and id's offset in it.
func chunkOf(id uint32) (k int, off uint32) {
	q := uint64(id)/tableFirst + 1
	k = bits.Len64(q) - 1
	return k, uint32(uint64(id) - tableFirst*(1<<k-1))
}

// partKey identifies a part by two independent 64-bit hashes of its encoding. Keeping the
// encodings themselves as keys cost more than the parts (cooperative-kafka: 4.1 of its
// 15 MB live heap). Two distinct parts share a key with probability 2⁻¹²⁸ per pair: for the
// 64 M parts a table can hold, below 2⁻⁷⁵ in a run, against the explorer's own fingerprint
// bound of 10⁻⁶ (explorer.Report.Collision).
type partKey [2]uint64

func (p *Packer) key(enc []byte) partKey {
	return partKey{maphash.Bytes(p.seeds[0], enc), maphash.Bytes(p.seeds[1], enc)}
}

func (t *table[T]) id(key partKey, v T) uint32 {
	sh := &t.shards[key[0]%tableShards]
	sh.mu.RLock()
	id, ok := sh.m[key]
	sh.mu.RUnlock()
	if ok {
		return id
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if id, ok := sh.m[key]; ok {
		return id
	}
	id = t.n.Add(1) - 1
	k, off := chunkOf(id)
	c := t.chunks[k].Load()
	if c == nil {
		t.grow.Lock()
		if c = t.chunks[k].Load(); c == nil {
			s := make([]T, tableFirst<<k)
			c = &s
			t.chunks[k].Store(c)
		}
		t.grow.Unlock()
	}
	(*c)[off] = v
	if sh.m == nil {
		sh.m = map[partKey]uint32{}
	}
	sh.m[key] = id
	return id
}

func (t *table[T]) get(id uint32) T {
	k, off := chunkOf(id)
	return (*t.chunks[k].Load())[off]
}
