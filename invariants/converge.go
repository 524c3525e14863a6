package invariants

import (
	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// ConvergeTime is the worst-case time to converge after one kind of environment event: how
// long, in milliseconds of the config's timer durations (spec.Config.Durations), the group
// can take from the event until it has converged again, with the path that realises it.
//
// Every action waits, once enabled, at most its own duration (spec.Waits): a heartbeat its
// interval, a coordinator's timer its timeout, a delivery the network delay, a poll the poll
// interval. A behaviour therefore leaves a strongly connected component C of the graph's
// unconverged worlds by the time the shortest of the actions that are enabled throughout C
// and lead out of it must have happened — the retries that cycle inside C meanwhile do not
// add to it — and a world on its own (no cycle) likewise. The time is the largest sum of
// those bounds over the components a path from the event to a converged world passes (a
// lost response adds the client's request timeout: the model takes the loss and the client's
// timeout as one step). It is an upper bound on the real time of every schedule: a timer's
// remaining time is bounded by its whole duration, and two timers the model meets one after
// the other count one after the other though they may run at once. A component that no
// action enabled throughout it leaves is a fair cycle, where converges fails: unbounded.
type ConvergeTime struct {
	Millis int    // the worst case, or Unbounded when some behaviour never converges
	Event  string // the event (action text) whose behaviour realises it
	// Path runs from the initial world to the converged world the event starts in, takes the
	// event, then follows the slowest behaviour until converged again (nil while Unbounded:
	// no finite path realises it).
	Path *explorer.Path[spec.World, spec.Action]
	// Start is the index in Path.Steps of the event's step.
	Start int
	// Waits are, for each step after the event's, what it waited for and for how long (ms):
	// the step that leaves a component carries the component's bound.
	Waits []Wait
}

// Wait is what one step of a ConvergeTime path waited for and what it cost.
type Wait struct {
	Timer  spec.Timer
	Millis int
}

// timeWeight is the time figure's weight: each component's bound (timeBounds), and a lost
// response's request timeout.
func (g *liveGraph) timeWeight(bounds []int) weight {
	return weight{state: func(int32) int { return 0 },
		edge: func(_ int32, e edge) int {
			if g.keys[e.key].kind == spec.LoseResponse {
				return g.durations.RequestTimeout
			}
			return 0
		},
		comp: func(c int32) int { return bounds[c] }, condense: true}
}

// timeBounds is, per component of unconverged (comp, members), how long a behaviour can stay
// in it: of the fair actions (keys) enabled in every one of its worlds and never taken inside
// it, the shortest duration (the longest one key waits in any of the worlds), with its timer;
// Unbounded when there is none (a fair cycle).
func (g *liveGraph) timeBounds(comp []int32, members [][]int32) ([]int, []spec.Timer) {
	bounds, timers := make([]int, len(members)), make([]spec.Timer, len(members))
	enabled := make([]int32, len(g.keys)) // worlds of the component enabling the key
	taken := make([]bool, len(g.keys))
	seen := make([]int32, len(g.keys)) // dedupe keys per world: the world's index + 1
	longest := make([]int, len(g.keys))
	timer := make([]spec.Timer, len(g.keys))
	var touched []int16
	for c, ws := range members {
		for _, v := range ws {
			for _, e := range g.from(v) {
				if !e.fair {
					continue
				}
				k := e.key
				if comp[e.to] == int32(c) {
					taken[k] = true
				}
				if d := g.durations.Of(e.wait); d > longest[k] || enabled[k] == 0 && seen[k] == 0 {
					longest[k], timer[k] = d, e.wait
				}
				if seen[k] != v+1 {
					if seen[k] == 0 {
						touched = append(touched, k)
					}
					seen[k] = v + 1
					enabled[k]++
				}
			}
		}
		bounds[c] = Unbounded
		for _, k := range touched {
			if enabled[k] == int32(len(ws)) && !taken[k] && (bounds[c] == Unbounded || longest[k] < bounds[c]) {
				bounds[c], timers[c] = longest[k], timer[k]
			}
			enabled[k], taken[k], seen[k], longest[k] = 0, false, 0, 0
		}
		touched = touched[:0]
	}
	return bounds, timers
}

// timeStart is an event edge e out of converged world from.
type timeStart struct {
	from int32
	e    edge
}

// convergeTimes is, per kind of environment event, the worst time to converge and its path,
// given the first event of each kind that realises it; vals are the time's layers (layers),
// the last for paths that may take more events.
func (g *liveGraph) convergeTimes(comp []int32, members [][]int32, vals [][]int, slowest map[string]timeStart, tw weight, timers []spec.Timer) map[string]ConvergeTime {
	top := vals[len(vals)-1]
	out := map[string]ConvergeTime{}
	for kind, s := range slowest {
		t := 0
		if !g.goal[s.e.to] {
			t = top[s.e.to]
		}
		ct := ConvergeTime{Millis: t, Event: g.keys[s.e.key].text(g.init.Config())}
		if t != Unbounded && g.init.Config() != nil {
			ct.Path, ct.Start, ct.Waits = g.convergePath(s.from, s.e, comp, members, vals, tw, timers)
		}
		out[kind] = ct
	}
	return out
}

// convergePath re-executes the path to converged world from, the event edge e, and the
// slowest walk from there (worstWalk).
func (g *liveGraph) convergePath(from int32, e edge, comp []int32, members [][]int32, vals [][]int, tw weight, timers []spec.Timer) (*explorer.Path[spec.World, spec.Action], int, []Wait) {
	p := &explorer.Path[spec.World, spec.Action]{Init: g.init}
	w := g.init
	take := func(k int16) {
		w = g.stepTo(w, k)
		p.Steps = append(p.Steps, explorer.Step[spec.World, spec.Action]{Action: g.lastAction, State: w})
	}
	for _, i := range g.pathTo(int(from)) {
		take(g.action[i])
	}
	start := len(p.Steps)
	take(e.k)
	var waits []Wait
	if !g.goal[e.to] {
		for _, h := range g.worstWalk(e.to, len(vals)-1, comp, members, vals, tw) {
			take(h.e.k)
			w := Wait{Millis: tw.edge(h.from, h.e)}
			if c := comp[h.from]; comp[h.e.to] != c || !h.e.fair {
				w.Millis = add(w.Millis, tw.comp(c)) // the step that leaves the component
				w.Timer = timers[c]
			}
			if g.keys[h.e.key].kind == spec.LoseResponse {
				w.Timer = spec.RequestWait
			}
			waits = append(waits, w)
		}
	}
	return p, start, waits
}

// worstWalk is a walk from unconverged world v to a converged one whose weight under w is
// vals[layer][v], which must be bounded: in each component it walks inside to the exit that
// gives the component its value (longest), takes it, and goes on from there — one layer down
// when the exit is a further environment event.
func (g *liveGraph) worstWalk(v int32, layer int, comp []int32, members [][]int32, vals [][]int, w weight) []hop {
	var walk []hop
	for !g.goal[v] {
		c := comp[v]
		t, extra := vals[layer][v], g.compExtra(c, members, w)
		exit, next, ok := g.exitWorth(c, layer, t, extra, comp, members, vals, w)
		if !ok {
			panic("invariants: no exit realises a component's worst time")
		}
		if exit.from != v {
			walk = append(walk, g.walkIn(v, func(x int32) bool { return comp[x] == c }, func(h hop) bool { return h.e.to == exit.from })...)
		}
		walk = append(walk, exit)
		v, layer = exit.e.to, next
	}
	return walk
}

// exitWorth finds an edge leaving component c (a fair one, or a further event when layer >
// 0) whose value, with the component's cycle extra, is t; and the layer it leads into.
func (g *liveGraph) exitWorth(c int32, layer, t, extra int, comp []int32, members [][]int32, vals [][]int, w weight) (hop, int, bool) {
	for _, u := range members[c] {
		for _, e := range g.from(u) {
			next := layer
			switch {
			case !e.fair && (layer == 0 || !g.event(e)):
				continue
			case !e.fair:
				next = layer - 1
			case comp[e.to] == c:
				continue
			}
			x := w.edge(u, e)
			if !g.goal[e.to] {
				x = add(x, vals[next][e.to])
			}
			if add(x, extra) == t {
				return hop{from: u, e: e}, next, true
			}
		}
	}
	return hop{}, 0, false
}

// compExtra is what component c adds of its own under w: its largest world weight and, with
// w.comp, its own bound (longest).
func (g *liveGraph) compExtra(c int32, members [][]int32, w weight) int {
	extra := 0
	for _, u := range members[c] {
		extra = max(extra, w.state(u))
	}
	if w.comp != nil {
		extra = add(extra, w.comp(c))
	}
	return extra
}
