package explorer

// Partial-order reduction.
//
// A model that implements Reducer may name, for a state, an ample set: a subset of its
// enabled actions whose successors are enough to explore (Peled 1993; Clarke, Grumberg and
// Peled, "Model Checking", ch. 10). The model answers for C0 (not empty), C1 (every action
// outside the set that can happen first is independent of all of it) and C2 (none of it is
// visible to a property). C3, the cycle proviso, is the explorer's, in a form that suits
// breadth-first search: a reduced state's ample successors must all be new, on the next
// level; if one is the state itself or a state of this or an earlier level, the state is
// expanded fully. Every edge out of a reduced state then goes one level down, so every cycle
// of the reduced graph has a fully expanded state (it needs an edge that does not go down),
// which is Clarke, Grumberg and Peled's sufficient form of C3 (as in Bošnački and
// Holzmann's proviso for breadth-first search, SPIN 2005, in its stronger form). The
// visited set holds exactly the earlier levels and this one while a level is expanded, so the
// test is a lookup, and the same whatever the number of workers: counts stay deterministic.
// A model whose ample steps can form no cycle by themselves (Reducer.Acyclic: they strictly
// increase a measure of the state) satisfies that form of C3 already, and the explorer then
// takes its ample sets as they are.
//
// With C0–C3 the reduced graph preserves the stutter-invariant properties of the full one,
// in particular which states properties hold in up to stuttering: an always-property is
// violated, and a sometimes-property satisfied, in the reduced graph if and only if in the
// full one. Counterexamples are paths of the reduced graph: valid, but no longer always
// shortest.

// Reducer is implemented by a model that offers partial-order reduction.
type Reducer[S, A any] interface {
	// Reduces reports whether Ample is to be used at all.
	Reduces() bool
	// Ample appends to buf the indices, in acts (Actions(s)), of an ample set of s, and
	// returns it; empty means expand fully. The indices must name enabled actions.
	Ample(s S, acts []A, buf []int) []int
	// Acyclic reports that no cycle of the model's graph is made of ample steps alone
	// (they strictly increase some measure of the state), so that every cycle of the
	// reduced graph has a fully expanded state already and the explorer skips its proviso.
	Acyclic() bool
}

// reducerOf is m's reducer when it offers one.
func reducerOf[S, A any](m Model[S, A]) Reducer[S, A] {
	if r, ok := m.(Reducer[S, A]); ok && r.Reduces() {
		return r
	}
	return nil
}

// Reduces reports whether the packed model's own model reduces.
func (cm *Compacted[S, A, P]) Reduces() bool { return reducerOf(cm.m) != nil }

// Acyclic is the packed model's own model's answer.
func (cm *Compacted[S, A, P]) Acyclic() bool { return cm.m.(Reducer[S, A]).Acyclic() }

// Ample is the packed model's own model's ample set.
func (cm *Compacted[S, A, P]) Ample(p Packed[P], acts []A, buf []int) []int {
	return cm.m.(Reducer[S, A]).Ample(cm.Unpack(p), acts, buf)
}
