package mutate

import (
	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// pass checks safety properties while invariants.LivenessWithin builds the state graph, so
// that a world is explored once, not once for safety (explorer.Check) and again for the
// liveness graph: the graph reaches the same worlds by the same transitions, and a property
// is decided the same way — an always-property fails at a world (state) or transition (step)
// it flags, a sometimes-property holds once one shows it. Step properties are evaluated on
// every transition, as the explorer's model does when it records them in a world's Observed
// bits; here no bit is needed, as the pass keeps the verdict itself.
type pass struct {
	props []invariants.Property
	hit   []bool // always: violated somewhere; sometimes: reached somewhere
	// stop ends the exploration at the first violation (a mutant: one catch is enough).
	stop bool
	// maxRebalances is the highest generation (KIP-848: group epoch) seen; with limit ≥ 0 a
	// world above limit stops the pass (overLimit): the mutant rebalanced more than the
	// reference ever does in this world.
	maxRebalances, limit int
	// maxHeld is the most member ids the coordinator held at once (members and pending ids;
	// KIP-848: members); with heldLimit > 0 a world above it stops the pass too: the mutant
	// leaks ids, as a join retried forever under a new id each time does, which no
	// generation counts.
	maxHeld, heldLimit int
	overLimit          bool
	// dog, when set, hears every hook call: a step that never returns stops them (hang.go).
	dog *watchdog
}

func newPass(props []invariants.Property, stop bool) *pass {
	return &pass{props: props, hit: make([]bool, len(props)), stop: stop, limit: -1}
}

// heldIDs counts the member ids w's coordinator holds: its members and, classic, the ids it
// handed out for a second join (KIP-394) that no member holds yet.
func heldIDs(w spec.World) int {
	if w.Config().ConsumerProtocol {
		return len(w.Group.Members())
	}
	return len(w.Coord.Members()) + len(w.Coord.Pending())
}

// bounds are the graph's bounds with the pass's hooks.
func (p *pass) bounds(maxStates int) invariants.LiveBounds {
	return invariants.LiveBounds{MaxStates: maxStates, OnWorld: p.world, OnStep: p.step, PerStart: true, CheckPure: true, RecordTaken: true}
}

func (p *pass) world(w spec.World) bool {
	if p.dog != nil {
		p.dog.beat()
	}
	r := invariants.Rebalances(w)
	p.maxRebalances = max(p.maxRebalances, r)
	h := heldIDs(w)
	p.maxHeld = max(p.maxHeld, h)
	if p.limit >= 0 && r > p.limit || p.heldLimit > 0 && h > p.heldLimit {
		p.overLimit = true
		return false
	}
	for i, pr := range p.props {
		if pr.State == nil || p.hit[i] && pr.Kind == explorer.Sometimes {
			continue
		}
		if p.fails(i, pr.State(&w)) {
			return false
		}
	}
	return true
}

func (p *pass) step(pre *spec.World, ev []spec.Event, post *spec.World) bool {
	if p.dog != nil {
		p.dog.beat()
	}
	for i, pr := range p.props {
		if pr.Step == nil || p.hit[i] && pr.Kind == explorer.Sometimes {
			continue
		}
		if p.fails(i, pr.Step(pre, ev, post)) {
			return false
		}
	}
	return true
}

// fails records property i's answer and says whether the pass should stop: an
// always-property's reason is a violation, a sometimes-property's empty answer its event.
func (p *pass) fails(i int, why string) bool {
	if p.props[i].Kind == explorer.Sometimes {
		if why == "" {
			p.hit[i] = true
		}
		return false
	}
	if why != "" {
		p.hit[i] = true
		return p.stop
	}
	return false
}

// status is property i's verdict once the graph is complete.
func (p *pass) status(i int) explorer.Status {
	switch {
	case p.props[i].Kind == explorer.Sometimes && p.hit[i]:
		return explorer.Holds
	case p.props[i].Kind == explorer.Sometimes:
		return explorer.Unreached
	case p.hit[i]:
		return explorer.Violated
	}
	return explorer.Holds
}

// caught are the properties a mutant's pass caught: violated always-properties, and, once the
// graph is complete, unreached sometimes-properties.
func (p *pass) caught(complete bool) []string {
	var out []string
	for i, pr := range p.props {
		if pr.Kind != explorer.Sometimes && p.hit[i] || complete && pr.Kind == explorer.Sometimes && !p.hit[i] {
			out = append(out, pr.Name)
		}
	}
	return out
}
