package invariants

import (
	"slices"

	"github.com/groupcheck/groupcheck/spec"
)

// Reduced is a model explored with partial-order reduction (explorer.Reducer): in a world
// where some member's local steps are independent of everything else that can happen before
// them (spec.World.Quiet, spec.World.SameToOthers) and invisible to every property, only
// that member's enabled local steps are explored. The explorer adds the cycle proviso. An
// always-property is violated, and a sometimes-property reached, in the reduced graph exactly
// when in the full one (Clarke, Grumberg and Peled, "Model Checking", ch. 10, Theorem 12:
// the reduced graph is stuttering-equivalent for the properties' propositions); the counts
// are smaller and a counterexample is a valid path, no longer always a shortest one.
// Liveness (converges, rounds) is not preserved by this reduction and is refused.
type Reduced struct{ *Model }

// NewReduced is m with partial-order reduction.
func NewReduced(m *Model) *Reduced { return &Reduced{m} }

// Reduces reports that Ample is to be used.
func (r *Reduced) Reduces() bool { return true }

// Acyclic reports that ample steps form no cycle by themselves: each sends or takes a
// response (spec.World.Progresses), which only other steps undo.
func (r *Reduced) Acyclic() bool { return true }

// Ample appends the indices of the enabled local steps of the first slot whose steps are
// independent of the rest (see spec/ample.go) and invisible (invisible); none when no slot's
// are.
func (r *Reduced) Ample(w spec.World, acts []spec.Action, buf []int) []int {
	start := len(buf)
	for i := range w.Slots {
		if !w.Quiet(i) {
			continue
		}
		ok := true
		for k, a := range acts {
			if !spec.IsLocal(a, i) {
				continue
			}
			n, ev, en := spec.Step(w, a)
			if !en {
				continue
			}
			if !w.Progresses(n, i) || !w.SameToOthers(n, i) || !r.invisible(&w, ev, &n, i) {
				ok = false
				break
			}
			buf = append(buf, k)
		}
		if ok && len(buf) > start {
			return buf
		}
		buf = buf[:start]
	}
	return buf
}

// invisible reports whether the local step of slot i from w to n, with events ev, is
// invisible to every property: it changes nothing a state property reads of the slot
// (observed), its events are only the slot's sends, receipts and commit reports (a report
// is read only with its receipt, by commit-reported), and no step property flags it. The step properties read a step of slot i only through slot i and its events, so
// their verdict on it is the same wherever it is taken (TestReducedSameVerdicts).
func (r *Reduced) invisible(w *spec.World, ev []spec.Event, n *spec.World, i int) bool {
	for _, e := range ev {
		switch e.(type) {
		case spec.SendEvent, spec.ReceiveEvent, spec.CommitResultEvent:
		default:
			return false
		}
	}
	if !sameObserved(w, n, i) {
		return false
	}
	for _, p := range r.props {
		if p.Step != nil && p.Step(w, ev, n) != "" {
			return false
		}
	}
	return true
}

// sameObserved reports whether slot i looks the same in w and n to the state properties
// and to the step properties of other slots' steps: its process, liveness, incarnation,
// subscription, what it owns, its member id, generation or epoch, and its client's state
// (the converged properties).
func sameObserved(w, n *spec.World, i int) bool {
	a, b := w.Slots[i], n.Slots[i]
	if a.Process != b.Process || a.Incarnation != b.Incarnation || a.Alt != b.Alt ||
		w.Live(i) != n.Live(i) || !w.Owned(i).Equal(n.Owned(i)) || w.MemberIDOf(i) != n.MemberIDOf(i) {
		return false
	}
	if w.Config().ConsumerProtocol {
		return a.Member.Epoch() == b.Member.Epoch() && a.Member.State() == b.Member.State() &&
			slices.Equal(a.Member.Topics, b.Member.Topics)
	}
	return a.Client.Gen == b.Client.Gen && a.Client.State() == b.Client.State() &&
		slices.Equal(a.Client.Topics, b.Client.Topics)
}
