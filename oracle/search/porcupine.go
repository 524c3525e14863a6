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
	client    int      // the node's index, for the visualization
	call, ret int64    // begin's time and end's time
	req       *request // nil: a cut, the end of a segment
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
// behaviour of the set, after anything the history does not record (step). It counts the
// states it generates: past the budget in one step, every step fails and over names the
// operation where it stopped, so that the verdict is "undecided", never a violation. A cut
// (an operation without a request) collects the behaviours that reach it into reached and
// fails, so that
// porcupine goes on to every other order: what reaches the cut in any order is where the next
// segment starts.
type linModel struct {
	o       Options
	states  int
	over    *operation
	reached []config
	// finish: the end of the history succeeds instead of collecting (the visualization's
	// whole-history search wants porcupine's linearization).
	finish bool
}

// model is m as porcupine's Model, starting from init.
func (m *linModel) model(init *stateSet) porcupine.Model {
	return porcupine.Model{
		Init: func() any { return init },
		Step: func(state, input, _ any) (bool, any) {
			op := input.(*operation)
			next := m.step(state.(*stateSet), op)
			if op.req == nil && !m.finish {
				m.reached = append(m.reached, next.configs...)
				return false, next
			}
			return len(next.configs) > 0, next
		},
		Equal:             func(a, b any) bool { return a.(*stateSet).key == b.(*stateSet).key },
		Hash:              func(s any) uint64 { return s.(*stateSet).hash },
		DescribeOperation: func(input, _ any) string { return input.(*operation).label },
		DescribeState:     func(s any) string { return s.(*stateSet).String() },
	}
}

// step is the set after op: in every behaviour of s, after any timers and any handling of the
// requests without an answer (orphans), the coordinator handles op's request, and every
// answer it gives must be the recorded one (config.consistent). A behaviour in which a
// request that returned before op's call is still unanswered is dead (late): its answer
// would come after its recorded end. A cut (req nil) handles nothing. Under Options.Simplest
// only the behaviours with the fewest timers that explain op are kept (the search's rule).
func (m *linModel) step(s *stateSet, op *operation) *stateSet {
	if m.over != nil {
		return &stateSet{}
	}
	seen := map[string]bool{}
	var buf []byte
	n := 0
	fresh := func(c config) bool {
		buf = append(c.key(buf), byte(c.commits))
		if seen[string(buf)] {
			return false
		}
		seen[string(buf)] = true
		m.states++
		n++
		return true
	}
	level := slices.DeleteFunc(slices.Clone(s.configs), func(c config) bool { return !fresh(c) })
	var out []config
	for len(level) > 0 {
		// Close the level under the arrival of orphans: they fire no timer.
		for k := 0; k < len(level); k++ {
			for j, o := range level[k].open {
				if o.status != orphan {
					continue
				}
				for _, c := range level[k].handle(j) {
					if c = settled(c); fresh(c) {
						level = append(level, c)
					}
				}
			}
			if n > m.o.Budget {
				m.over = op
				return &stateSet{}
			}
		}
		for _, c := range level {
			if c = expire(c, op.call); !late(c, op.call) {
				out = append(out, m.handle(c, op)...)
			}
		}
		if len(out) > 0 && m.o.Simplest {
			break
		}
		var next []config
		for _, c := range level {
			for _, t := range c.timers() {
				if t = settled(t); fresh(t) {
					next = append(next, t)
				}
			}
			if n > m.o.Budget {
				m.over = op
				return &stateSet{}
			}
		}
		level = next
	}
	return newStateSet(out)
}

// handle is the behaviours after c's coordinator handles op's request. A request without an
// answer is only put in the behaviour, as one that may arrive (step); one with an answer
// is handled at once, and the orphans its node sent before it may arrive only until its end
// (a coordinator serves a connection in order: the search's finish).
func (m *linModel) handle(c config, op *operation) []config {
	c.via = nil
	if op.req == nil {
		return []config{c}
	}
	at, _ := slices.BinarySearchFunc(c.open, op.req.begin.ID, func(o open, id int64) int { return cmp.Compare(o.id, id) })
	c.open = slices.Insert(slices.Clone(c.open), at, open{id: op.req.begin.ID, req: op.req})
	if !op.req.judged {
		c.open[at].status = orphan
		return []config{c}
	}
	for i, o := range c.open {
		if o.status == orphan && o.until == 0 && o.req.node == op.req.node {
			c.open[i].until = op.ret
		}
	}
	out := c.handle(at)
	for i := range out {
		out[i] = settled(out[i])
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

// expire is c without the orphans that can no longer arrive at t.
func expire(c config, t int64) config {
	gone := func(o open) bool { return o.status == orphan && o.until != 0 && o.until < t }
	if !slices.ContainsFunc(c.open, gone) {
		return c
	}
	c.open = slices.DeleteFunc(slices.Clone(c.open), gone)
	return c
}

// late reports whether c holds a request parked without an answer whose recorded end came
// before t: no behaviour through c answers it in time.
func late(c config, t int64) bool {
	return slices.ContainsFunc(c.open, func(o open) bool { return o.status != orphan && o.req.end.T < t })
}
