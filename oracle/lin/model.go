package lin

import (
	"hash/fnv"
	"maps"
	"slices"
	"strings"

	"github.com/anishathalye/porcupine"
)

// knowledge is what the linearized prefix of a history tells about the coordinator: a
// symbolic set of reference coordinator states, closed under every transition the history
// cannot see (timers, and whatever a request without an answer may have done). It
// over-approximates: every reference state consistent with the prefix is in the set, so a
// response the set cannot explain is one the reference coordinator cannot give.
type knowledge interface {
	// key is the canonical encoding: two knowledges with equal keys allow the same futures.
	key() string
	// apply linearizes o: the knowledges after it (one per way it can have happened), or
	// none and, when explain is set, why the response is impossible.
	apply(o *operation, explain bool) ([]knowledge, string)
	// String summarises the knowledge for the visualization.
	String() string
}

// stateSet is porcupine's state: the union of the knowledges of every branch still alive
// (the power-set construction of a nondeterministic model, done here so that states hash).
type stateSet struct {
	states []knowledge
	key    string
	hash   uint64
}

func newStateSet(ks []knowledge) *stateSet {
	byKey := map[string]knowledge{}
	for _, k := range ks {
		if _, dup := byKey[k.key()]; !dup {
			byKey[k.key()] = k
		}
	}
	s := &stateSet{}
	for _, key := range slices.Sorted(maps.Keys(byKey)) {
		s.states = append(s.states, byKey[key])
	}
	keys := slices.Sorted(maps.Keys(byKey))
	s.key = strings.Join(keys, "\n|\n")
	h := fnv.New64a()
	h.Write([]byte(s.key))
	s.hash = h.Sum64()
	return s
}

// step applies o to every branch; the result is empty when no branch explains o.
func (s *stateSet) step(o *operation, explain bool) (*stateSet, []string) {
	if len(s.states) == 1 { // the common case: one branch, often unchanged
		next, why := s.states[0].apply(o, explain)
		switch {
		case len(next) == 0:
			return newStateSet(nil), []string{why}
		case len(next) == 1 && next[0] == s.states[0]:
			return s, nil
		}
		return newStateSet(next), nil
	}
	var next []knowledge
	var why []string
	for _, k := range s.states {
		n, reason := k.apply(o, explain)
		next = append(next, n...)
		if len(n) == 0 && explain && !slices.Contains(why, reason) {
			why = append(why, reason)
		}
	}
	return newStateSet(next), why
}

func (s *stateSet) String() string {
	parts := make([]string, len(s.states))
	for i, k := range s.states {
		parts[i] = k.String()
	}
	return strings.Join(parts, "  OR  ")
}

// porcupineModel wraps the knowledge of a protocol as porcupine's Model. Input and Output
// are both the *operation.
func porcupineModel(init knowledge) porcupine.Model {
	return porcupine.Model{
		Init: func() any { return newStateSet([]knowledge{init}) },
		Step: func(state, input, _ any) (bool, any) {
			next, _ := state.(*stateSet).step(input.(*operation), false)
			return len(next.states) > 0, next
		},
		Equal:             func(a, b any) bool { return a.(*stateSet).key == b.(*stateSet).key },
		Hash:              func(state any) uint64 { return state.(*stateSet).hash },
		DescribeOperation: func(input, _ any) string { return input.(*operation).label() },
		DescribeState:     func(state any) string { return state.(*stateSet).String() },
	}
}
