package invariants

import (
	"github.com/groupcheck/groupcheck/spec"
)

// Symmetric is a Model whose worlds are fingerprinted by their orbit under the config's
// symmetry group (spec.NewSymmetry): the explorer keeps one world per orbit.
//
// Everything but the fingerprint is the Model's: the explorer stores and steps real worlds,
// so a counterexample is a real path that replays as it is (it rebuilds paths by
// re-executing Actions and Next, and compares only the last fingerprint, which is the same
// canonical one). Verdicts are those of the plain search because every property is symmetric:
// the state properties quantify over all slots or all coordinator members and single out none,
// the step properties judge a step's events whatever slot they name, and the Observed bits are
// per property, not per slot (TestPropertiesAreSymmetric checks this along walks). A
// violation's depth is that of the plain search too, since a world and its images are reached
// at the same depth.
//
// Liveness (Liveness, explore --liveness) is not checked under symmetry: it builds its own
// graph, and its fairness judges per-slot actions along a cycle, while a cycle of orbits is a
// path that may end in a permuted copy of its start, whose actions belong to other slots. The
// explore command refuses the combination.
type Symmetric struct {
	*Model
	sym spec.Symmetry
}

// NewSymmetric is m under the symmetry of its config. When no two slots are interchangeable
// (Symmetry().Order() is 1) it fingerprints exactly as m does.
func NewSymmetric(m *Model) Symmetric {
	return Symmetric{Model: m, sym: spec.NewSymmetry(m.Config())}
}

// Symmetry is the group the model reduces by.
func (s Symmetric) Symmetry() spec.Symmetry { return s.sym }

// Encode appends the canonical encoding of w's orbit.
func (s Symmetric) Encode(w spec.World, buf []byte) []byte { return s.sym.Encode(w, buf) }
