package explorer

// Model is a finite transition system explored by [Check].
//
// S is the state type and A the action type. Both are plain values: the
// explorer copies them freely and never mutates them, so a state that
// holds slices must treat them as immutable (copy on write).
//
// Every method must be deterministic: the same input gives the same
// output on every call. [Check] relies on this to rebuild counterexamples
// by re-execution (the stored trace records only action indices) and to
// give the same result for any number of workers.
type Model[S, A any] interface {
	// Init returns the initial states. Duplicates (by Encode) are
	// counted as generated but explored once.
	Init() []S

	// Actions appends to buf the actions to try in s and returns it.
	// The order must be deterministic for a given s: a counterexample
	// step is stored as an index into this list. It may include actions
	// that are not enabled; Next reports those.
	Actions(s S, buf []A) []A

	// Next returns the successor of s under a, and false when a is not
	// enabled in s. A self-loop (successor equal to s) is a valid,
	// enabled transition and is counted as generated.
	Next(s S, a A) (S, bool)

	// Encode appends the canonical encoding of s to buf. Two states are
	// the same state if and only if their encodings are equal. Symmetry
	// reduction, when added, belongs here: encode a canonical
	// representative of the orbit.
	Encode(s S, buf []byte) []byte

	// ActionKinds lists every action kind name the model can produce,
	// for coverage (e.g. "deliver-join"). It is called once per run.
	ActionKinds() []string

	// ActionKind returns the index in ActionKinds of a's kind. It is
	// called for every transition, so it must be cheap.
	ActionKind(a A) int
}

// Kind says how a [Property] is judged.
type Kind int

const (
	// Always is a safety property: Check must hold in every reachable
	// state. The shallowest violating state is reported.
	Always Kind = iota
	// Sometimes is a reachability property: Check must hold in at least
	// one reachable state. It guards against a vacuous model.
	Sometimes
	// Eventually (liveness) is reserved; it needs the graph edges,
	// which the explorer does not keep yet. Check rejects it.
)

func (k Kind) String() string {
	switch k {
	case Always:
		return "always"
	case Sometimes:
		return "sometimes"
	}
	return "kind(?)"
}

// Property is a named predicate over states.
type Property[S any] struct {
	Name string
	Kind Kind
	// Check reports whether s satisfies the predicate. It is called
	// concurrently from several workers and must not mutate shared
	// state. It is not called again once the property is decided.
	Check func(s S) bool
	// inner is, on a property Compact made, 1 + the index of the property of the model's
	// own states it stands for (0 otherwise): checkSegment then decodes a state once for
	// every property it checks on it (drafter.holds), not once per property.
	inner int
	_     struct{}
}

// Status is the verdict on one property.
type Status int

const (
	// Unknown: the run was bounded before the property was decided.
	Unknown Status = iota
	// Holds: an Always property held in every state of an exhaustive
	// run, or a Sometimes property was satisfied by some state.
	Holds
	// Violated: an Always property failed in some reachable state.
	Violated
	// Unreached: a Sometimes property was satisfied by no state of an
	// exhaustive run. The caller should treat it as a failure (the
	// model or the property is vacuous).
	Unreached
)

func (s Status) String() string {
	switch s {
	case Unknown:
		return "unknown"
	case Holds:
		return "holds"
	case Violated:
		return "violated"
	case Unreached:
		return "unreached"
	}
	return "status(?)"
}
