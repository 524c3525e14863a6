package explorer

import (
	"encoding/binary"
	"sync"
)

// Compact frontiers.
//
// The frontier holds every state of the level being expanded and of the next one, and a state
// that holds pointers (a World of slices, strings and interfaces: some 2 KB of Go heap for
// 200–400 bytes of canonical encoding) makes it the bulk of the run's memory, all of it on the
// Go heap, where the collector scans it and GOGC multiplies it. A model whose states are made
// of few distinct parts can do much better: SPIN's COLLAPSE compression (Holzmann, "State
// compression in SPIN", 1997) stores each distinct component once in a table and a state as
// the vector of its components' indices. A Codec is such a scheme, and Compact explores a
// model by its packed states: the frontier then holds a fixed, pointer-free record per state,
// which the explorer keeps outside the Go heap (and can spill whole to disk), and each state is
// unpacked when it is expanded or checked.
//
// Packing must be lossless up to the model's identity of states: Unpack(Pack(s)) must be the
// same state as s (equal encodings), so that it has the same successors and verdicts. The
// fingerprint of a packed state is the one of its unpacked state's canonical encoding,
// computed when the state is made, so the visited set, the counts, the verdicts and every path
// are those of the model itself.

// Codec packs states of type S into a compact, comparable form P and back. Both methods
// are called concurrently by every worker.
type Codec[S, P any] interface {
	Pack(s S) P
	Unpack(p P) S
}

// A Repacker is a Codec that packs a successor faster knowing its parent ps and the
// parent's packed form pp: the parts the step left as they were keep the parent's indices.
type Repacker[S, P any] interface {
	Repack(ps S, pp P, s S) P
}

// Packed is a state kept by its packed form, with the fingerprint of its canonical encoding.
// It holds no pointers when P holds none, and the explorer keeps such states off the Go heap.
type Packed[P any] struct {
	FP uint64
	P  P
}

// Compacted is m explored by packed states (see Compact).
type Compacted[S, A any, P comparable] struct {
	m     Model[S, A]
	c     Codec[S, P]
	bufs  sync.Pool // *[]byte, encoding scratch
	cache [unpackCache]unpacked[S, P]
	pad   []draftPad[S, P] // per worker (drafter)
	props []Property[S]    // the properties of the model's own states (holds)
}

// drafter is a model whose successors are made in two steps: draft fingerprints a successor
// of the worker's current parent, and keep makes the state to store, called only for the
// successors the search keeps. Compacted is one: most successors are states seen before
// (cooperative-kafka generates 2.6 per distinct state), and those are never packed.
type drafter[S, A any] interface {
	pads(workers int)
	// parent makes s worker w's parent and forgets its drafts.
	parent(w int, s S)
	// draft returns the fingerprint of the parent's successor under a, and false when a is
	// not enabled; a successor other than the parent (fingerprint self) is kept as the next
	// draft.
	draft(w int, a A, self uint64) (uint64, bool)
	// keep is the state of draft k.
	keep(w int, k int) S
	// holds checks the property Property.inner stands for on s, on worker w.
	holds(w int, s S, inner int) bool
}

// draftPad is one worker's parent, unpacked once, and its drafts.
type draftPad[S any, P comparable] struct {
	parent Packed[P]
	s      S
	has    bool // parent and s are set
	succ   []S
	fps    []uint64
	enc    []byte
	// view is the state the worker checks properties on (holds), decoded from viewOf.
	viewOf  Packed[P]
	view    S
	hasView bool
	_       [64]byte
}

func (cm *Compacted[S, A, P]) pads(workers int) { cm.pad = make([]draftPad[S, P], workers) }

// holds checks property i of the model's states on p, decoding p once per worker for every
// property checked on it: checkSegment checks a state's open properties one after another.
func (cm *Compacted[S, A, P]) holds(w int, p Packed[P], i int) bool {
	d := &cm.pad[w]
	if !d.hasView || d.viewOf != p {
		d.viewOf, d.view, d.hasView = p, cm.c.Unpack(p.P), true
	}
	return cm.props[i].Check(d.view)
}

func (cm *Compacted[S, A, P]) parent(w int, p Packed[P]) {
	d := &cm.pad[w]
	clear(d.succ)
	d.succ, d.fps = d.succ[:0], d.fps[:0]
	if !d.has || d.parent != p {
		d.parent, d.s, d.has = p, cm.Unpack(p), true
	}
}

func (cm *Compacted[S, A, P]) draft(w int, a A, self uint64) (uint64, bool) {
	d := &cm.pad[w]
	t, ok := cm.m.Next(d.s, a)
	if !ok {
		return 0, false
	}
	d.enc = cm.m.Encode(t, d.enc[:0])
	fp := fingerprint(d.enc)
	// The explorer knows the packed state by the fingerprint of its Encode.
	var b [8]byte
	key := fingerprint(cm.Encode(Packed[P]{FP: fp}, b[:0]))
	if key != self {
		d.succ = append(d.succ, t)
		d.fps = append(d.fps, fp)
	}
	return key, true
}

func (cm *Compacted[S, A, P]) keep(w int, k int) Packed[P] {
	d := &cm.pad[w]
	if r, ok := cm.c.(Repacker[S, P]); ok {
		return Packed[P]{FP: d.fps[k], P: r.Repack(d.s, d.parent.P, d.succ[k])}
	}
	return Packed[P]{FP: d.fps[k], P: cm.c.Pack(d.succ[k])}
}

// unpacked is a cached unpacking: the explorer judges every property on a state in a row,
// and a state with pointers costs an allocation to unpack. An entry is copied in and out under
// its lock, so a miss allocates nothing but the unpacking.
type unpacked[S any, P comparable] struct {
	mu sync.Mutex
	ok bool
	fp uint64
	p  P
	s  S
}

const unpackCache = 1024 // entries, direct-mapped by fingerprint

// Compact returns m explored through the codec c, and props judged on unpacked states. Check
// the result, then map its report back with Compacted.Report.
func Compact[S, A any, P comparable](m Model[S, A], props []Property[S], c Codec[S, P]) (*Compacted[S, A, P], []Property[Packed[P]]) {
	cm := &Compacted[S, A, P]{m: m, c: c}
	cm.bufs.New = func() any { b := make([]byte, 0, 1024); return &b }
	out := make([]Property[Packed[P]], len(props))
	cm.props = props
	for i, p := range props {
		check := p.Check
		out[i] = Property[Packed[P]]{Name: p.Name, Kind: p.Kind, Check: func(s Packed[P]) bool { return check(cm.Unpack(s)) }, inner: i + 1}
	}
	return cm, out
}

// pack packs s with the fingerprint of its canonical encoding.
func (cm *Compacted[S, A, P]) pack(s S) Packed[P] {
	bp := cm.bufs.Get().(*[]byte)
	*bp = cm.m.Encode(s, (*bp)[:0])
	fp := fingerprint(*bp)
	cm.bufs.Put(bp)
	return Packed[P]{FP: fp, P: cm.c.Pack(s)}
}

// Unpack returns the state p stands for.
func (cm *Compacted[S, A, P]) Unpack(p Packed[P]) S {
	e := &cm.cache[p.FP%unpackCache]
	e.mu.Lock()
	if e.ok && e.fp == p.FP && e.p == p.P {
		s := e.s
		e.mu.Unlock()
		return s
	}
	e.mu.Unlock()
	s := cm.c.Unpack(p.P)
	e.mu.Lock()
	e.ok, e.fp, e.p, e.s = true, p.FP, p.P, s
	e.mu.Unlock()
	return s
}

func (cm *Compacted[S, A, P]) Init() []Packed[P] {
	var out []Packed[P]
	for _, s := range cm.m.Init() {
		out = append(out, cm.pack(s))
	}
	return out
}

func (cm *Compacted[S, A, P]) Actions(p Packed[P], buf []A) []A {
	return cm.m.Actions(cm.Unpack(p), buf)
}

func (cm *Compacted[S, A, P]) Next(p Packed[P], a A) (Packed[P], bool) {
	t, ok := cm.m.Next(cm.Unpack(p), a)
	if !ok {
		return Packed[P]{}, false
	}
	return cm.pack(t), true
}

// Encode is the fingerprint: the explorer hashes it again, which keeps the same partition of
// states as the model's own encoding (up to a 64-bit collision).
func (cm *Compacted[S, A, P]) Encode(p Packed[P], buf []byte) []byte {
	return binary.LittleEndian.AppendUint64(buf, p.FP)
}

func (cm *Compacted[S, A, P]) ActionKinds() []string { return cm.m.ActionKinds() }

func (cm *Compacted[S, A, P]) ActionKind(a A) int { return cm.m.ActionKind(a) }

// Report maps a report of the compacted model to one of the model: each path's initial state
// unpacked, and its steps re-executed on the model, so that the path holds the model's own
// states.
func (cm *Compacted[S, A, P]) Report(r Report[Packed[P], A]) Report[S, A] {
	out := Report[S, A]{
		Exhaustive: r.Exhaustive, StoppedBy: r.StoppedBy, Distinct: r.Distinct, Generated: r.Generated,
		Depth: r.Depth, Levels: r.Levels, Duration: r.Duration, Workers: r.Workers, Coverage: r.Coverage,
		NeverTaken: r.NeverTaken, Collision: r.Collision, PeakMemory: r.PeakMemory, Spilled: r.Spilled, Err: r.Err,
	}
	for _, p := range r.Properties {
		q := PropertyResult[S, A]{Name: p.Name, Kind: p.Kind, Status: p.Status}
		if p.Path != nil {
			s := cm.c.Unpack(p.Path.Init.P)
			q.Path = &Path[S, A]{Init: s}
			for _, st := range p.Path.Steps {
				s, _ = cm.m.Next(s, st.Action) // enabled: the explorer re-executed it
				q.Path.Steps = append(q.Path.Steps, Step[S, A]{Action: st.Action, State: s})
			}
		}
		out.Properties = append(out.Properties, q)
	}
	return out
}
