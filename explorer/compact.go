package explorer

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
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
	cache [unpackCache]atomic.Pointer[unpacked[S, P]]
}

// unpacked is a cached unpacking: the explorer asks for the same parent's actions and each of
// its successors in a row, and a state with pointers costs an allocation to unpack.
type unpacked[S any, P comparable] struct {
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
	for i, p := range props {
		check := p.Check
		out[i] = Property[Packed[P]]{Name: p.Name, Kind: p.Kind, Check: func(s Packed[P]) bool { return check(cm.Unpack(s)) }}
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
	slot := &cm.cache[p.FP%unpackCache]
	if e := slot.Load(); e != nil && e.fp == p.FP && e.p == p.P {
		return e.s
	}
	s := cm.c.Unpack(p.P)
	slot.Store(&unpacked[S, P]{fp: p.FP, p: p.P, s: s})
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
