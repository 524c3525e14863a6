// Package rt is the switchboard of mutant schemata: the mutated copy of impl/ that
// `groupcheck mutate` builds calls it at every mutation point, and the one process that runs
// a mutant switches exactly one point on, by the GROUPCHECK_MUTANT environment variable. The
// reference itself never imports it; only generated code does.
//
// Every helper evaluates its operands exactly as the original expression would (the lazy
// ones take the right operand as a function), so a point that is off behaves as the original.
package rt

import (
	"bytes"
	"cmp"
	"os"
	"strconv"
	"unsafe"
)

// active is the one mutation point switched on (0: none).
var active = envInt("GROUPCHECK_MUTANT")

// hits, when coverage is asked for (GROUPCHECK_MUTANT_COVER=N, the number of points), marks
// every point reached. Only a single-threaded run may ask for it.
var hits = newHits(envInt("GROUPCHECK_MUTANT_COVER"))

// infected, in coverage mode, marks every point where the mutant would have computed
// something else than the reference did at least once (weak mutation: the mutant "infects"
// the state there). A mutant that no execution of a world infects behaves in that world
// exactly as the reference — the same transitions from the same states, so the same state
// space and verdicts — and need not explore it. Where the mutant's value cannot be known
// without evaluating what the reference does not (the right operand of a short-circuited
// && or ||, a dropped call), reaching the point counts as infecting it.
var infected = newHits(envInt("GROUPCHECK_MUTANT_COVER"))

func envInt(name string) int32 {
	n, err := strconv.ParseInt(os.Getenv(name), 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

func newHits(n int32) []bool {
	if n <= 0 {
		return nil
	}
	return make([]bool, n+1)
}

// infect records that point id computed something else than the mutant would (coverage mode).
func infect(id int32) {
	if infected != nil && int(id) < len(infected) {
		infected[id] = true
	}
}

// Infected are the points infected so far, in increasing order (coverage mode only).
func Infected() []int32 { return marked(infected) }

// Active is the mutation point switched on in this process, 0 for none.
func Active() int32 { return active }

// Hits are the points reached so far, in increasing order (coverage mode only).
func Hits() []int32 { return marked(hits) }

func marked(set []bool) []int32 {
	var out []int32
	for id, h := range set {
		if h {
			out = append(out, int32(id))
		}
	}
	return out
}

// On reports whether point id is the mutant of this process, and records that it was reached.
func On(id int32) bool {
	if hits != nil && int(id) < len(hits) {
		hits[id] = true
	}
	return id == active
}

// Not is c, or its negation when id is on: a negated condition, or == turned into != and back.
// Reaching it infects it.
func Not(id int32, c bool) bool {
	infect(id)
	return On(id) != c
}

// Force is c, or v when id is on: a bool result forced to true or false.
func Force(id int32, v, c bool) bool {
	if On(id) {
		return v
	}
	if c != v {
		infect(id)
	}
	return c
}

// And is a && b(), or a || b() when id is on. With a true both evaluate b and differ when it
// is false; with a false the mutant would evaluate b, which the reference must not.
func And(id int32, a bool, b func() bool) bool {
	if On(id) {
		return a || b()
	}
	if !a {
		infect(id)
		return false
	}
	r := b()
	if !r {
		infect(id)
	}
	return r
}

// Or is a || b(), or a && b() when id is on (the dual of And).
func Or(id int32, a bool, b func() bool) bool {
	if On(id) {
		return a && b()
	}
	if a {
		infect(id)
		return true
	}
	r := b()
	if r {
		infect(id)
	}
	return r
}

// edge infects a boundary point where the two comparisons differ: only where a == b.
func edge[T cmp.Ordered](id int32, a, b T) {
	if a == b {
		infect(id)
	}
}

// Lt is a < b, or a <= b when id is on.
func Lt[T cmp.Ordered](id int32, a, b T) bool {
	if On(id) {
		return a <= b
	}
	edge(id, a, b)
	return a < b
}

// Le is a <= b, or a < b when id is on.
func Le[T cmp.Ordered](id int32, a, b T) bool {
	if On(id) {
		return a < b
	}
	edge(id, a, b)
	return a <= b
}

// Gt is a > b, or a >= b when id is on.
func Gt[T cmp.Ordered](id int32, a, b T) bool {
	if On(id) {
		return a >= b
	}
	edge(id, a, b)
	return a > b
}

// Ge is a >= b, or a > b when id is on.
func Ge[T cmp.Ordered](id int32, a, b T) bool {
	if On(id) {
		return a > b
	}
	edge(id, a, b)
	return a >= b
}

// Pick is orig, or mut when id is on: one argument of a swapped pair. The swap changes
// nothing where the two are the same bits.
func Pick[T any](id int32, orig, mut T) T {
	if On(id) {
		return mut
	}
	if infected != nil && !same(&orig, &mut) {
		infect(id)
	}
	return orig
}

// Drop reports whether a dropped statement (a call or an increment) is skipped: when id is
// on. Reaching it infects it.
func Drop(id int32) bool {
	infect(id)
	return On(id)
}

// Assigned records, in coverage mode, whether an assignment that a mutant drops changed its
// target: before is the target's value just before it, after just after. An assignment that
// leaves the same bits (pointers and slice headers included: dropping a copy-on-write clone
// is not a no-op) is a no-op for this execution.
func Assigned[T any](id int32, before, after T) {
	if infected != nil && !same(&before, &after) {
		infect(id)
	}
}

// Covering reports whether this process records coverage: generated code saves an
// assignment's target before it only then.
func Covering() bool { return hits != nil }

// same reports whether two values have the same bits. Padding may differ between equal
// values; that only makes a point count as infected where it is not (the safe side).
func same[T any](a, b *T) bool {
	n := unsafe.Sizeof(*a)
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(a)), n), unsafe.Slice((*byte)(unsafe.Pointer(b)), n))
}

// ResetHits forgets the points reached so far (coverage mode only).
func ResetHits() {
	clear(hits)
	clear(infected)
}

// Set switches point id on (0: none) in this process, for tests that run several mutants of a
// schema in one process; the mutate command uses GROUPCHECK_MUTANT, one process per mutant.
func Set(id int32) { active = id }
