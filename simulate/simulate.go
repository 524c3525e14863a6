// Package simulate explores worlds too large to exhaust by seeded random walks: each walk
// starts from an initial state and takes a uniformly chosen enabled action at every step,
// checking every always-property after each one. It is generic over explorer.Model.
//
// # Usage
//
//	res := simulate.Walk[S, A](model, props, simulate.Seeded(seed, walk), depth)
//	if res.Violated != "" { /* res.Path is the walk up to the violation */ }
//
// # Implementation notes
//
// Randomness comes only from the generator the caller passes, so a (seed, walk) pair replays
// the same walk exactly; Seeded derives one PCG stream per walk, so walks are independent of
// how many ran before or in what order. A walk stops at its depth, at a deadlock (no enabled
// action), or at the first violated always-property; the path is a behaviour of the model and
// can be shrunk and replayed like any counterexample. Unlike the explorer, a walk proves
// nothing when it finds nothing: it is a sample, and callers say so.
package simulate

import (
	"math/rand/v2"

	"github.com/groupcheck/groupcheck/explorer"
)

// Seeded is the generator of walk number walk under seed.
func Seeded(seed, walk uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, walk)) }

// Result is one walk.
type Result[S, A any] struct {
	Path     explorer.Path[S, A]
	Violated string // the first always-property that failed, "" if none
	Deadlock bool   // the walk ended in a state with no enabled action
}

// Walk takes up to depth random steps through m, checking the always-properties of props
// after every step (and in the initial state).
func Walk[S, A any](m explorer.Model[S, A], props []explorer.Property[S], rng *rand.Rand, depth int) Result[S, A] {
	inits := m.Init()
	r := Result[S, A]{Path: explorer.Path[S, A]{Init: inits[rng.IntN(len(inits))]}}
	s := r.Path.Init
	if r.Violated = violated(props, s); r.Violated != "" {
		return r
	}
	var buf []A
	var next []explorer.Step[S, A]
	for len(r.Path.Steps) < depth {
		buf = m.Actions(s, buf[:0])
		next = next[:0]
		for _, a := range buf {
			if n, ok := m.Next(s, a); ok {
				next = append(next, explorer.Step[S, A]{Action: a, State: n})
			}
		}
		if len(next) == 0 {
			r.Deadlock = true
			return r
		}
		step := next[rng.IntN(len(next))]
		r.Path.Steps = append(r.Path.Steps, step)
		s = step.State
		if r.Violated = violated(props, s); r.Violated != "" {
			return r
		}
	}
	return r
}

func violated[S any](props []explorer.Property[S], s S) string {
	for _, p := range props {
		if p.Kind == explorer.Always && !p.Check(s) {
			return p.Name
		}
	}
	return ""
}
