package rt

import (
	"slices"
	"strings"
	"testing"
)

// cover switches coverage on for one test.
func cover(t *testing.T) {
	t.Helper()
	hits, infected = newHits(20), newHits(20)
	t.Cleanup(func() { hits, infected = nil, nil })
}

// TestInfection: a point is infected exactly where the mutant would compute something else
// than the reference — or, where that cannot be known without evaluating what the reference
// does not, wherever it is reached.
func TestInfection(t *testing.T) {
	never := func() bool { t.Fatal("evaluated a right operand the reference short-circuits"); return false }
	shared := []int{1, 2}
	for _, tc := range []struct {
		name string
		run  func()
		want bool
	}{
		{"boundary of different operands", func() { Lt(1, 1, 2); Le(1, 2, 1); Gt(1, 3, 2); Ge(1, 1, 2) }, false},
		{"boundary of equal operands", func() { Le(1, 2, 2) }, true},
		{"forced result equal", func() { Force(1, true, true) }, false},
		{"forced result different", func() { Force(1, true, false) }, true},
		{"&& with both true", func() { And(1, true, func() bool { return true }) }, false},
		{"&& with the right false", func() { And(1, true, func() bool { return false }) }, true},
		{"&& short-circuited", func() { And(1, false, never) }, true},
		{"|| with both false", func() { Or(1, false, func() bool { return false }) }, false},
		{"|| with the right true", func() { Or(1, false, func() bool { return true }) }, true},
		{"|| short-circuited", func() { Or(1, true, never) }, true},
		{"negation", func() { Not(1, true) }, true},
		{"dropped call", func() { Drop(1) }, true},
		{"swap of equal values", func() { Pick(1, 3, 3) }, false},
		{"swap of different values", func() { Pick(1, 3, 4) }, true},
		{"assignment of what was there", func() { b := true; Assigned(1, b, true); Assigned(1, shared, shared) }, false},
		{"assignment of a new value", func() { Assigned(1, false, true) }, true},
		{"assignment of an equal copy", func() { Assigned(1, shared, slices.Clone(shared)) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cover(t)
			tc.run()
			if got := slices.Contains(Infected(), 1); got != tc.want {
				t.Errorf("infected %v, want %v", got, tc.want)
			}
			// Assigned runs inside the On of its drop point, which records the reach.
			if _, assign := strings.CutPrefix(tc.name, "assignment"); !assign && !slices.Contains(Hits(), 1) {
				t.Errorf("point not recorded as reached")
			}
		})
	}
}

// TestOffRecordsNothing: without coverage the helpers compute the original and record nothing.
func TestOffRecordsNothing(t *testing.T) {
	if And(1, true, func() bool { return false }) || !Or(1, false, func() bool { return true }) || Lt(1, 2, 2) || Force(1, true, false) {
		t.Error("a helper changed the original's value with no mutant on")
	}
	Assigned(1, false, true)
	if len(Infected()) != 0 || len(Hits()) != 0 {
		t.Error("recorded coverage while not covering")
	}
}
