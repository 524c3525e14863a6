// Package rt is the switchboard of mutant schemata: the mutated copy of impl/ that
// `groupcheck mutate` builds calls it at every mutation point, and the one process that runs
// a mutant switches exactly one point on, by the GROUPCHECK_MUTANT environment variable. The
// reference itself never imports it; only generated code does.
//
// Every helper evaluates its operands exactly as the original expression would (the lazy
// ones take the right operand as a function), so a point that is off behaves as the original.
package rt

import (
	"cmp"
	"os"
	"strconv"
)

// active is the one mutation point switched on (0: none).
var active = envInt("GROUPCHECK_MUTANT")

// hits, when coverage is asked for (GROUPCHECK_MUTANT_COVER=N, the number of points), marks
// every point reached. Only a single-threaded run may ask for it.
var hits = newHits(envInt("GROUPCHECK_MUTANT_COVER"))

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

// Active is the mutation point switched on in this process, 0 for none.
func Active() int32 { return active }

// Hits are the points reached so far, in increasing order (coverage mode only).
func Hits() []int32 {
	var out []int32
	for id, h := range hits {
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
func Not(id int32, c bool) bool { return On(id) != c }

// Force is c, or v when id is on: a bool result forced to true or false.
func Force(id int32, v, c bool) bool {
	if On(id) {
		return v
	}
	return c
}

// And is a && b(), or a || b() when id is on.
func And(id int32, a bool, b func() bool) bool {
	if On(id) {
		return a || b()
	}
	return a && b()
}

// Or is a || b(), or a && b() when id is on.
func Or(id int32, a bool, b func() bool) bool {
	if On(id) {
		return a && b()
	}
	return a || b()
}

// Lt is a < b, or a <= b when id is on.
func Lt[T cmp.Ordered](id int32, a, b T) bool {
	if On(id) {
		return a <= b
	}
	return a < b
}

// Le is a <= b, or a < b when id is on.
func Le[T cmp.Ordered](id int32, a, b T) bool {
	if On(id) {
		return a < b
	}
	return a <= b
}

// Gt is a > b, or a >= b when id is on.
func Gt[T cmp.Ordered](id int32, a, b T) bool {
	if On(id) {
		return a >= b
	}
	return a > b
}

// Ge is a >= b, or a > b when id is on.
func Ge[T cmp.Ordered](id int32, a, b T) bool {
	if On(id) {
		return a > b
	}
	return a >= b
}

// Pick is orig, or mut when id is on: one argument of a swapped pair.
func Pick[T any](id int32, orig, mut T) T {
	if On(id) {
		return mut
	}
	return orig
}

// ResetHits forgets the points reached so far (coverage mode only).
func ResetHits() {
	for i := range hits {
		hits[i] = false
	}
}

// Set switches point id on (0: none) in this process, for tests that run several mutants of a
// schema in one process; the mutate command uses GROUPCHECK_MUTANT, one process per mutant.
func Set(id int32) { active = id }
