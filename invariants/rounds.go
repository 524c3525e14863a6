package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/spec"
)

// Unbounded is the value of a Rounds figure that has no worst case: some behaviour repeats a
// cycle that adds to it, or stops without converging.
const Unbounded = -1

// Rounds measures convergence after environment events in a converged group: a first event,
// then — before the group has converged again — up to Events−1 more (a join, then the loss
// of its answer), worst case over every interleaving of the protocol's actions (and free
// timers) around them, the environment acting no more once they are spent. Events is 1
// unless asked (LivenessEvents): some harms need two events. Each figure is Unbounded when a
// cycle of protocol actions reachable after the first event adds to it (the cycle can be
// repeated any finite number of times before the behaviour converges), or when some
// behaviour reaches a world where nothing but another environment event could make
// progress. The figures are by the first event: Changes counts first events, ByEvent is
// keyed by their kind.
type Rounds struct {
	Figures        // over every environment event
	Events  int    // the most environment events a measured behaviour takes
	Witness string // the first event (action text) whose worst case is Rebalances
	// Stops counts the events after which some behaviour reaches a world with no protocol
	// action left and no convergence: another environment event is needed.
	Stops int
	// ByEvent holds the figures per kind of environment event (start, leave, crash...).
	ByEvent map[string]Figures
	// Time holds, per kind of environment event, the worst time to converge after it and
	// the path that realises it (ConvergeTime); Figures.Time is the worst over all kinds.
	Time map[string]ConvergeTime
	// PerStart, with LiveBounds.PerStart, holds the figures of each measured event by where it
	// starts: a fingerprint of the converged world's encoding (16 hex digits), a space and the
	// event's action text.
	PerStart map[string]Figures
}

// Figures are the worst cases over a set of environment events.
type Figures struct {
	Changes int // environment events taken from a converged world: the starting points measured
	// Rebalances is the worst-case number of completed rebalances until the group converges
	// again: generations (classic) or group epochs (KIP-848) passed, the event's own included.
	Rebalances int
	// Steps is the worst-case number of steps until converged, the event's own included, with
	// every cycle of retries (a heartbeat answered REBALANCE_IN_PROGRESS while a join is
	// parked, a repeated commit) counted as one phase: literally such cycles make the count
	// unbounded, as a retry can repeat any number of times before the schedule moves on.
	// It is the longest path through the graph's strongly connected components, each of
	// which adds nothing inside and one step per edge between.
	Steps int
	// Unavailability is the worst-case sum, over the worlds passed before converging, of the
	// subscribed partitions no live member owns (partition-steps without an owner), with a
	// cycle of retries again counted once: at its largest world's figure.
	Unavailability int
	// Time is the worst-case time to converge in milliseconds of the config's timer
	// durations (ConvergeTime), a cycle of retries again counted once: at its longest step.
	Time int
}

// merge widens f by one event's figures.
func (f Figures) merge(rb, st, un, tm int) Figures {
	return Figures{Changes: f.Changes + 1, Rebalances: worst(f.Rebalances, rb), Steps: worst(f.Steps, st),
		Unavailability: worst(f.Unavailability, un), Time: worst(f.Time, tm)}
}

func worst(cur, v int) int {
	if cur == Unbounded || v == Unbounded {
		return Unbounded
	}
	return max(cur, v)
}

// weight is one figure's contribution of a world and of an edge. A condensed figure counts a
// cycle of protocol actions once instead of making the figure unbounded: a component of the
// graph adds its largest world weight, and its internal edges add nothing.
type weight struct {
	state    func(v int32) int
	edge     func(v int32, e edge) int // edge e out of world v
	condense bool
	// comp, if set, is what each component adds of its own besides its largest world
	// weight (the time a behaviour can spend in it, timeBounds), Unbounded for no bound.
	comp func(c int32) int
}

// rounds computes the Rounds figures on the explored graph, given its unconverged components,
// for behaviours of up to events environment events (at least 1).
func (g *liveGraph) rounds(comp []int32, members [][]int32, events int) Rounds {
	events = max(events, 1)
	r := Rounds{Events: events, ByEvent: map[string]Figures{}}
	none := func(int32) int { return 0 }
	rebalances := g.layered(comp, members, weight{state: none, edge: func(_ int32, e edge) int { return int(e.bump) }}, events-1)
	steps := g.layered(comp, members, weight{state: none, edge: func(int32, edge) int { return 1 }, condense: true}, events-1)
	unavail := g.layered(comp, members, weight{state: func(v int32) int { return int(g.unavail[v]) }, edge: func(int32, edge) int { return 0 }, condense: true}, events-1)
	stops := g.layered(comp, members, weight{state: none, edge: func(int32, edge) int { return 0 }, condense: true}, events-1)
	bounds, timers := g.timeBounds(comp, members)
	tw := g.timeWeight(bounds)
	timeLayers := g.layers(comp, members, tw, events-1)
	times := timeLayers[len(timeLayers)-1]
	slowest := map[string]timeStart{} // per kind, the first event of its worst time
	for i := range g.size() {
		es := g.from(int32(i))
		if !g.goal[i] {
			continue
		}
		for _, e := range es {
			if !g.event(e) {
				continue
			}
			rb, st, un, tm := int(e.bump), 1, 0, 0
			if !g.goal[e.to] {
				rb, st, un, tm = add(rb, rebalances[e.to]), add(st, steps[e.to]), unavail[e.to], times[e.to]
				if stops[e.to] == Unbounded {
					r.Stops++
				}
			}
			old := r.Figures
			r.Figures = r.merge(rb, st, un, tm)
			if r.Witness == "" || r.Rebalances != old.Rebalances {
				r.Witness = g.keys[e.key].text(g.init.Config())
			}
			kind := g.keys[e.key].kind.String()
			if f, seen := r.ByEvent[kind]; !seen || f.Time != Unbounded && (tm == Unbounded || tm > f.Time) {
				slowest[kind] = timeStart{int32(i), e}
			}
			r.ByEvent[kind] = r.ByEvent[kind].merge(rb, st, un, tm)
			if g.stable != nil {
				if r.PerStart == nil {
					r.PerStart = map[string]Figures{}
				}
				k := fmt.Sprintf("%016x %s", g.stable[int32(i)], g.keys[e.key].text(g.init.Config()))
				r.PerStart[k] = r.PerStart[k].merge(rb, st, un, tm)
			}
		}
	}
	r.Time = g.convergeTimes(comp, members, timeLayers, slowest, tw, timers)
	return r
}

func add(a, b int) int {
	if a == Unbounded || b == Unbounded {
		return Unbounded
	}
	return a + b
}

// event reports whether an edge is an environment event the measure counts: not a fair action,
// and not an offset commit (which changes no membership).
func (g *liveGraph) event(e edge) bool {
	return !e.fair && g.keys[e.key].kind != spec.Commit
}

// layered is longest with up to more further environment events: the values of paths that
// may take, besides fair edges, at most more event edges, each into the layer of one event
// fewer. Event edges lead one layer down, so a layer's cycles are its fair ones, and layer 0
// is longest itself.
func (g *liveGraph) layered(comp []int32, members [][]int32, w weight, more int) []int {
	vals := g.layers(comp, members, w, more)
	return vals[len(vals)-1]
}

// layers is layered keeping every layer, the one of no further event first: a walk that
// realises the last one (worstWalk) steps down a layer at each further event.
func (g *liveGraph) layers(comp []int32, members [][]int32, w weight, more int) [][]int {
	vals := [][]int{g.longest(comp, members, w, nil)}
	for range more {
		vals = append(vals, g.longest(comp, members, w, vals[len(vals)-1]))
	}
	return vals
}

// longest is, per unconverged world, the largest total weight of a path of fair edges from it
// to a converged world — Unbounded when a cycle of positive weight is reachable or a path ends
// where no fair edge leads on. Components come in reverse topological order (sccs), so every
// exit's value is known when a component is summed. Inside a component of zero internal
// weight every world has the same value, the best exit; a condensed weight treats every
// component so, adding its largest world weight once. With below set, an environment event
// may also be taken, into a world whose value below gives (a path of one event fewer); such
// an edge is another way on, never a way out of a dead end: the environment may stop there.
func (g *liveGraph) longest(comp []int32, members [][]int32, w weight, below []int) []int {
	val := make([]int, g.size())
	for c, ws := range members {
		cyclic, positive, exits := len(ws) > 1, false, false
		best, own := 0, 0
		for _, v := range ws {
			if x := w.state(v); x > 0 {
				positive = true
				own = max(own, x)
			}
			for _, e := range g.from(v) {
				if !e.fair {
					if below != nil && g.event(e) {
						x := w.edge(v, e)
						if !g.goal[e.to] {
							x = add(x, below[e.to])
						}
						best = worst(best, x)
					}
					continue
				}
				if comp[e.to] == int32(c) {
					cyclic = true
					positive = positive || w.edge(v, e) > 0
					continue
				}
				exits = true
				x := w.edge(v, e)
				if !g.goal[e.to] {
					x = add(x, val[e.to])
				}
				if best != Unbounded && (x == Unbounded || x > best) {
					best = x
				}
			}
		}
		if w.comp != nil {
			own = add(own, w.comp(int32(c)))
		}
		v := add(best, own)
		switch {
		case !exits:
			v = Unbounded // a dead end, or a closed cycle that never converges
		case cyclic && positive && !w.condense:
			v = Unbounded
		case cyclic && !w.condense:
			v = best
		}
		for _, x := range ws {
			val[x] = v
		}
	}
	return val
}

// text renders the key of an action as its text form (an `any` choice left out).
func (k actionKey) text(c *spec.Config) string {
	return spec.Action{Kind: k.kind, Slot: k.slot, Topic: k.topic, Member: k.member}.Text(c)
}
