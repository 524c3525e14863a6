package explorer

import (
	"fmt"
	"strings"
	"time"
)

// Report is the result of [Check].
type Report[S, A any] struct {
	// Exhaustive is true only if every reachable state was explored.
	Exhaustive bool
	// StoppedBy is "" for an exhaustive run, else the bound that stopped
	// it: StopMaxDepth, StopMaxStates, StopMaxTime, StopMaxMemory or
	// StopViolation.
	StoppedBy string

	// Distinct counts distinct states found (by fingerprint).
	Distinct int64
	// Generated counts initial states plus every successor produced by
	// an enabled transition, duplicates and self-loops included (the
	// TLC and stateright convention).
	Generated int64
	// Depth is the depth of the deepest state found (initial states are
	// at depth 0).
	Depth int
	// Levels[d] is the number of distinct states at depth d.
	Levels []int64

	Duration time.Duration
	Workers  int

	// Properties is in the order given to Check.
	Properties []PropertyResult[S, A]

	// Coverage counts transitions taken per action kind, in the order
	// of Model.ActionKinds.
	Coverage []KindCount
	// NeverTaken lists action kinds with no enabled transition.
	NeverTaken []string

	// Collision is an optimistic estimate of the probability that two
	// distinct states shared a fingerprint (and one was never explored):
	// the birthday bound Distinct²/2^65, assuming the 64-bit hash
	// behaves like a random function. It is not TLC's "actual
	// fingerprints" estimate, which needs the sorted fingerprints.
	Collision float64

	// PeakMemory is the largest resident set size sampled during the
	// run, in bytes (0 where the platform does not say).
	PeakMemory uint64

	// Spilled is the number of levels whose frontier was spilled
	// (Options.SpillFrontier, Options.MaxMemory). Like PeakMemory it may
	// depend on the machine; the rest of the report does not.
	Spilled int

	// Err reports a broken contract found while rebuilding a path or a
	// spilled level (a nondeterministic model), or an I/O error on the
	// trace or spill file. The counts are still valid, unless it says
	// the results are not reliable (a spilled block could not be read
	// back); the paths may not be.
	Err error
}

// PropertyResult is the verdict on one property.
type PropertyResult[S, A any] struct {
	Name   string
	Kind   Kind
	Status Status
	// Path is the shortest counterexample of a violated Always
	// property, or a shortest witness of a satisfied Sometimes
	// property; nil otherwise.
	Path *Path[S, A]
}

// Path is a behaviour of the model: an initial state and the steps taken
// from it.
type Path[S, A any] struct {
	Init  S
	Steps []Step[S, A]
}

// Step is one transition of a Path: the action and the state after it.
type Step[S, A any] struct {
	Action A
	State  S
}

// Last returns the final state of the path.
func (p *Path[S, A]) Last() S {
	if len(p.Steps) == 0 {
		return p.Init
	}
	return p.Steps[len(p.Steps)-1].State
}

// KindCount is the number of transitions taken of one action kind.
type KindCount struct {
	Kind  string
	Count int64
}

// Property returns the result for the named property, or nil.
func (r *Report[S, A]) Property(name string) *PropertyResult[S, A] {
	for i := range r.Properties {
		if r.Properties[i].Name == name {
			return &r.Properties[i]
		}
	}
	return nil
}

// String summarises the report in a few lines (no paths).
func (r *Report[S, A]) String() string {
	var b strings.Builder
	verdict := "exhaustive"
	if !r.Exhaustive {
		verdict = "bounded by " + r.StoppedBy
	}
	secs := r.Duration.Seconds()
	rate := 0.0
	if secs > 0 {
		rate = float64(r.Distinct) / secs
	}
	fmt.Fprintf(&b, "%s: %d distinct, %d generated, depth %d, %.2fs (%.0f states/s, %d workers)\n",
		verdict, r.Distinct, r.Generated, r.Depth, secs, rate, r.Workers)
	fmt.Fprintf(&b, "fingerprint collision probability (optimistic): %.2g; peak memory %d MiB",
		r.Collision, r.PeakMemory>>20)
	if r.Spilled > 0 {
		fmt.Fprintf(&b, "; %d levels spilled", r.Spilled)
	}
	b.WriteString("\n")
	for _, p := range r.Properties {
		steps := ""
		if p.Path != nil {
			steps = fmt.Sprintf(" (path of %d steps)", len(p.Path.Steps))
		}
		fmt.Fprintf(&b, "%s %q: %s%s\n", p.Kind, p.Name, p.Status, steps)
	}
	if len(r.NeverTaken) > 0 {
		fmt.Fprintf(&b, "never taken: %s\n", strings.Join(r.NeverTaken, ", "))
	}
	if r.Err != nil {
		fmt.Fprintf(&b, "error: %v\n", r.Err)
	}
	return b.String()
}
