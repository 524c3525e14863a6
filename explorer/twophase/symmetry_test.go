package twophase

import (
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
)

// TestSymmetryCounts: exact orbits give TLC's SYMMETRY counts, and every verdict agrees with
// the unreduced run.
func TestSymmetryCounts(t *testing.T) {
	for _, tc := range []struct {
		rm       int
		distinct int64
	}{{3, 80}, {5, 314}, {7, 920}} {
		for _, workers := range []int{1, 2} {
			sym, props := NewSymmetric(tc.rm)
			r := explorer.Check[State, Action](sym, props, explorer.Options{Workers: workers})
			if !r.Exhaustive || r.Distinct != tc.distinct {
				t.Errorf("RM=%d workers=%d: %d distinct (exhaustive %v), want %d", tc.rm, workers, r.Distinct, r.Exhaustive, tc.distinct)
			}
			full, fprops := New(tc.rm)
			f := explorer.Check[State, Action](full, fprops, explorer.Options{Workers: workers})
			for i := range r.Properties {
				if r.Properties[i].Status != f.Properties[i].Status {
					t.Errorf("RM=%d: %s is %s with symmetry, %s without", tc.rm, r.Properties[i].Name, r.Properties[i].Status, f.Properties[i].Status)
				}
			}
		}
	}
}

func TestSymmetryRefusesTheAsymmetricMutant(t *testing.T) {
	m, _ := NewEagerCommit(3)
	defer func() {
		if recover() == nil {
			t.Fatal("encoding the eager-commit mutant under symmetry did not panic")
		}
	}()
	Symmetric{m}.Encode(0, nil)
}
