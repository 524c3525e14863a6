package search

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/anishathalye/porcupine"
)

// operation is one recorded request as porcupine's operation: the interval in which the
// coordinator must have handled it (its linearization point), and the request the reference
// handles there. The point of a request is when the coordinator handles it, not when it
// answers: a JoinGroup parked for the join phase is answered at the point of the request or
// timer that completes the phase, which must come before the recorded end (late).
type operation struct {
	index     int   // position in the history's requests: porcupine's operation id
	client    int   // the node's index, for the visualization
	call, ret int64 // begin's time; end's time (an orphan's window: orphanWindow)
	req       *request
	label     string
}

// stateSet is porcupine's state: every behaviour of the reference (config) that explains the
// operations linearized so far in that order, with a canonical key. A set, not one config,
// because what the history does not record (timers, versions, subscriptions, the assignor)
// leaves many; porcupine's NondeterministicModel would build the same sets, with an O(n²)
// equality where this one compares keys.
type stateSet struct {
	configs []config
	key     string
	hash    uint64
}

// newStateSet is the set of cs, in key order, each state once.
func newStateSet(cs []config) *stateSet {
	type keyed struct {
		key string
		c   config
	}
	var buf []byte
	ks := make([]keyed, 0, len(cs))
	for _, c := range cs {
		buf = append(c.key(buf), byte(c.commits))
		ks = append(ks, keyed{string(buf), c})
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	ks = slices.CompactFunc(ks, func(a, b keyed) bool { return a.key == b.key })
	s := &stateSet{configs: make([]config, len(ks))}
	var key strings.Builder
	for i, k := range ks {
		s.configs[i] = k.c
		key.WriteString(k.key)
		key.WriteByte(0xfe) // no key holds it: a config's key is varints, names and flags
	}
	s.key = key.String()
	h := fnv.New64a()
	h.Write([]byte(s.key))
	s.hash = h.Sum64()
	return s
}

// String renders a few of the set's configs, for porcupine's visualization.
func (s *stateSet) String() string {
	var b strings.Builder
	for i, c := range s.configs[:min(len(s.configs), maxShown)] {
		if i > 0 {
			b.WriteString("\nOR ")
		}
		b.WriteString(c.render())
	}
	if len(s.configs) > maxShown {
		fmt.Fprintf(&b, "\n(and %d more)", len(s.configs)-maxShown)
	}
	return b.String()
}

// linModel is the reference as a porcupine model: Step handles one request in every
// behaviour of the set, after any timers. It counts the states it generates: past the
// budget, every step fails and over names the operation where it stopped, so that the
// verdict is "undecided", never a violation.
type linModel struct {
	o      Options
	states int
	over   *operation
	last   *stateSet // the state of the last successful step (checkSegment)
}

// model is m as porcupine's Model, starting from init.
func (m *linModel) model(init *stateSet) porcupine.Model {
	return porcupine.Model{
		Init: func() any { return init },
		Step: func(state, input, _ any) (bool, any) {
			next := m.step(state.(*stateSet), input.(*operation))
			if len(next.configs) == 0 {
				return false, next
			}
			m.last = next
			return true, next
		},
		Equal:             func(a, b any) bool { return a.(*stateSet).key == b.(*stateSet).key },
		Hash:              func(s any) uint64 { return s.(*stateSet).hash },
		DescribeOperation: func(input, _ any) string { return input.(*operation).label },
		DescribeState:     func(s any) string { return s.(*stateSet).String() },
	}
}

// step is the set after op: in every behaviour of s, after any number of timers (Options.
// Simplest: the fewest that explain op), the coordinator handles op's request, and every
// answer it gives must be the recorded one (config.consistent). A behaviour in which a
// request that returned before op's call is still unanswered is dead (late): its answer
// would come after its recorded end. The end of the history (req nil) handles nothing.
func (m *linModel) step(s *stateSet, op *operation) *stateSet {
	if m.over != nil {
		return &stateSet{}
	}
	var out []config
	seen := map[string]bool{}
	var buf []byte
	fresh := func(c config) bool {
		buf = append(c.key(buf), byte(c.commits))
		if seen[string(buf)] {
			return false
		}
		seen[string(buf)] = true
		m.states++
		return true
	}
	level := slices.Clone(s.configs)
	for _, c := range level {
		fresh(c)
	}
	for len(level) > 0 {
		for _, c := range level {
			if !late(c, op.call) {
				out = append(out, m.handle(c, op)...)
			}
		}
		if len(out) > 0 && m.o.Simplest {
			break
		}
		var next []config
		for _, c := range level {
			for _, n := range c.timers() {
				if n = settled(n); fresh(n) {
					next = append(next, n)
				}
			}
			if m.states > m.o.Budget {
				m.over = op
				return &stateSet{}
			}
		}
		level = next
	}
	return newStateSet(out)
}

// handle is the behaviours after c's coordinator handles op's request.
func (m *linModel) handle(c config, op *operation) []config {
	c.via = nil
	if op.req == nil {
		return []config{c}
	}
	before := c
	st := waiting
	if !op.req.judged {
		st = orphan // handled or not: without an answer, it may never have arrived
	}
	at, _ := slices.BinarySearchFunc(c.open, op.req.begin.ID, func(o open, id int64) int { return cmp.Compare(o.id, id) })
	c.open = slices.Insert(slices.Clone(c.open), at, open{id: op.req.begin.ID, req: op.req, status: st})
	out := c.handle(at)
	for i := range out {
		out[i] = settled(out[i])
	}
	if st == orphan {
		out = append(out, before)
	}
	return out
}

// settled is c without the requests it has answered: config.consistent held each answer to
// the recorded one when it was given, and nothing else is left to match.
func settled(c config) config {
	if !slices.ContainsFunc(c.open, func(o open) bool { return o.status == answered }) {
		return c
	}
	c.open = slices.DeleteFunc(slices.Clone(c.open), func(o open) bool { return o.status == answered })
	return c
}

// late reports whether c holds a request parked without an answer whose recorded end came
// before t: no behaviour through c answers it in time.
func late(c config, t int64) bool {
	return slices.ContainsFunc(c.open, func(o open) bool { return o.req.end.T < t })
}
