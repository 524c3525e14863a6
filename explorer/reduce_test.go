package explorer

import "testing"

// ignoring is the classic example of the ignoring problem: process A flips a bit forever,
// process B may once set a flag that violates the property. A's step is independent of
// B's and invisible, so {A's step} is an ample set by C0–C2 everywhere; only the cycle
// proviso (C3) keeps B's step from being ignored along A's cycle.
type ignoring struct{ acyclic bool }

type ab struct{ a, b uint8 }

func (ignoring) Init() []ab                    { return []ab{{}} }
func (ignoring) Actions(s ab, buf []int) []int { return append(buf, 0, 1) }
func (ignoring) Next(s ab, a int) (ab, bool) {
	if a == 0 {
		s.a = 1 - s.a
		return s, true
	}
	if s.b == 1 {
		return s, false
	}
	s.b = 1
	return s, true
}
func (ignoring) Encode(s ab, buf []byte) []byte { return append(buf, s.a, s.b) }
func (ignoring) ActionKinds() []string          { return []string{"a", "b"} }
func (ignoring) ActionKind(a int) int           { return a }
func (ignoring) Reduces() bool                  { return true }
func (m ignoring) Acyclic() bool                { return m.acyclic }

// Ample offers A's step alone.
func (ignoring) Ample(s ab, acts []int, buf []int) []int { return append(buf, 0) }

func TestReductionProvisoPreventsIgnoring(t *testing.T) {
	props := []Property[ab]{{Name: "b-unset", Kind: Always, Check: func(s ab) bool { return s.b == 0 }}}
	r := Check[ab, int](ignoring{}, props, Options{Workers: 2})
	if r.Properties[0].Status != Violated {
		t.Errorf("with the proviso: %s, want violated", r.Properties[0].Status)
	}
	// A model that wrongly claims its ample steps form no cycle loses B's step: the
	// proviso is what finds it.
	r = Check[ab, int](ignoring{acyclic: true}, props, Options{Workers: 2})
	if r.Properties[0].Status != Holds || r.Distinct != 2 {
		t.Errorf("without the proviso: %s in %d states, want the violation ignored in 2", r.Properties[0].Status, r.Distinct)
	}
}
