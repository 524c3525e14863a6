package traces

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// Shrink returns a shorter trace whose actions still violate the always-property named
// property, or nil when t's actions do not violate it (or it is not an always-property of
// t's config). A candidate counts when every action is enabled in turn and the property fails
// at some step, with invariants.Model semantics (Model.Next sets a step property's Observed
// bit). The passes, repeated to a fixed point: cut everything after the first violating step;
// drop single steps; drop any pair of steps (a request and its delivery are rarely adjacent);
// drop contiguous ranges, longest first; merge runs of steps (mergeRun). The result ends with
// a check, its expected blocks regenerated, and its header says it was shrunk.
//
// Shrinking a shortest (BFS) counterexample gives it back unchanged: no shorter enabled
// sequence violates the property.
func Shrink(t *Trace, property string) *Trace {
	acts := t.Actions()
	n, ok := firstViolation(t.Config, property, acts)
	if !ok {
		return nil
	}
	acts = acts[:n]
	for changed := true; changed; {
		changed = false
		acts, changed = shrinkPass(t.Config, property, acts, shrinkPasses)
	}
	h := t.Header
	h.Property = property
	h.Found = fmt.Sprintf("shrunk from %d to %d steps (%s)", len(t.Actions()), len(acts), t.Header.Found)
	out, err := Rewrite(New(t.Name, h, t.Config, acts))
	if err != nil {
		return nil
	}
	return out
}

// firstViolation re-executes acts and returns the number of steps after which property
// first fails, and false when an action is not enabled or the property never fails.
func firstViolation(cfg spec.Config, property string, acts []spec.Action) (int, bool) {
	r := newRunner(cfg)
	i := r.propIndex(property)
	if i < 0 || r.props[i].Kind != explorer.Always {
		return 0, false
	}
	if r.fails(i) {
		return 0, true
	}
	for n, a := range acts {
		if _, ok := r.step(a); !ok {
			return 0, false
		}
		if r.fails(i) {
			return n + 1, true
		}
	}
	return 0, false
}

// try reports the candidate, cut after its first violation, if it still violates.
func try(cfg spec.Config, property string, acts []spec.Action) ([]spec.Action, bool) {
	n, ok := firstViolation(cfg, property, acts)
	if !ok {
		return nil, false
	}
	return acts[:n], true
}

// A pass returns a shorter candidate that still violates, if it finds one.
type pass func(spec.Config, string, []spec.Action) ([]spec.Action, bool)

// shrinkPasses are Shrink's passes, cheapest first: merging tries every enabled action, so it
// runs only once nothing can be dropped.
var shrinkPasses = []pass{dropOne, dropPair, dropRange, mergeRun}

// shrinkPass applies the first pass that shortens acts.
func shrinkPass(cfg spec.Config, property string, acts []spec.Action, passes []pass) ([]spec.Action, bool) {
	for _, p := range passes {
		if shorter, ok := p(cfg, property, acts); ok {
			return shorter, true
		}
	}
	return acts, false
}

func without(acts []spec.Action, drop ...int) []spec.Action {
	out := make([]spec.Action, 0, len(acts))
	for i, a := range acts {
		if !slices.Contains(drop, i) {
			out = append(out, a)
		}
	}
	return out
}

func dropOne(cfg spec.Config, property string, acts []spec.Action) ([]spec.Action, bool) {
	for i := len(acts) - 1; i >= 0; i-- {
		if c, ok := try(cfg, property, without(acts, i)); ok {
			return c, true
		}
	}
	return nil, false
}

func dropPair(cfg spec.Config, property string, acts []spec.Action) ([]spec.Action, bool) {
	for j := len(acts) - 1; j >= 1; j-- {
		for i := j - 1; i >= 0; i-- {
			if c, ok := try(cfg, property, without(acts, i, j)); ok {
				return c, true
			}
		}
	}
	return nil, false
}

func dropRange(cfg spec.Config, property string, acts []spec.Action) ([]spec.Action, bool) {
	for k := len(acts) - 1; k >= 3; k-- {
		for i := 0; i+k <= len(acts); i++ {
			c := append(slices.Clone(acts[:i]), acts[i+k:]...)
			if c, ok := try(cfg, property, c); ok {
				return c, true
			}
		}
	}
	return nil, false
}

// mergeRun replaces a run of two or three consecutive steps by one action enabled where the
// run starts, keeping every other step: the single action is another route to a world from
// which the rest of the trace still violates. Dropping cannot find it when each step of the
// run is needed but the run as a whole is not, e.g. a crash and the session expiry it allows
// where one graceful leave removes the member, or a lost response and the retry it forces
// where the request could have been answered. The world need not be the same after the
// merge, only the violation: every candidate is re-executed. Shorter runs and earlier
// positions are tried first.
func mergeRun(cfg spec.Config, property string, acts []spec.Action) ([]spec.Action, bool) {
	for k := 2; k <= 3; k++ {
		w := spec.Init(cfg)
		for i := 0; i+k <= len(acts); i++ {
			for _, a := range spec.Actions(w, nil) {
				if _, ok := spec.Next(w, a); !ok {
					continue
				}
				c := append(append(slices.Clone(acts[:i]), a), acts[i+k:]...)
				if c, ok := try(cfg, property, c); ok {
					return c, true
				}
			}
			var ok bool
			if w, ok = spec.Next(w, acts[i]); !ok {
				break
			}
		}
	}
	return nil, false
}
