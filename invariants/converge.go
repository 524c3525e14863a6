package invariants

import (
	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// ConvergeTime is the worst-case time to converge after one kind of environment event: how
// long, in milliseconds of the config's timer durations (spec.Config.Durations), the group
// waits from the event until it has converged again, with the path that realises it.
//
// Along a path every step costs what it waited for (spec.Waits): a heartbeat its interval, a
// coordinator's timer its timeout, a delivery the network delay; a step that waits for no
// timer costs nothing. The sum is an upper bound on the real time of that schedule: the model
// interleaves, so two members' heartbeats that run concurrently in Kafka are waited one after
// the other here. As for Figures.Steps, a cycle of retries (a strongly connected component of
// the graph) counts once, at its longest step: a retry loop runs while the group waits for
// the step that leaves it, which is counted on its own.
type ConvergeTime struct {
	Millis int    // the worst case, or Unbounded when some behaviour never converges
	Event  string // the event (action text) whose behaviour realises it
	// Path runs from the initial world to the converged world the event starts in, takes the
	// event, then follows the slowest behaviour until converged again (nil while Unbounded:
	// no finite path realises it).
	Path *explorer.Path[spec.World, spec.Action]
	// Start is the index in Path.Steps of the event's step.
	Start int
	// Waits are, for each step after the event's, what it waited for and for how long (ms).
	Waits []Wait
}

// Wait is what one step of a ConvergeTime path waited for: the timer of its source world
// (the shortest a fair action there waits) and what the step cost.
type Wait struct {
	Timer  spec.Timer
	Millis int
}

// timeWeight is the time figure's weight: each edge's duration, a cycle counted once.
func (g *liveGraph) timeWeight() weight {
	d := g.durations
	return weight{state: func(int32) int { return 0 }, edge: func(v int32, e edge) int {
		t := d.Of(g.wait[v])
		if g.keys[e.key].kind == spec.LoseResponse {
			t += d.RequestTimeout // the step is the loss and the client's timeout at once
		}
		return t
	}, condense: true, cycle: true}
}

// timeStart is an event edge e out of converged world from.
type timeStart struct {
	from int32
	e    edge
}

// convergeTimes is, per kind of environment event, the worst time to converge and its path,
// given the first event of each kind that realises it; vals are the time's layers (layers),
// the last for paths that may take more events.
func (g *liveGraph) convergeTimes(comp []int32, members [][]int32, vals [][]int, slowest map[string]timeStart) map[string]ConvergeTime {
	top := vals[len(vals)-1]
	out := map[string]ConvergeTime{}
	for kind, s := range slowest {
		t := 0
		if !g.goal[s.e.to] {
			t = top[s.e.to]
		}
		ct := ConvergeTime{Millis: t, Event: g.keys[s.e.key].text(g.init.Config())}
		if t != Unbounded && g.init.Config() != nil {
			ct.Path, ct.Start, ct.Waits = g.convergePath(s.from, s.e, comp, members, vals)
		}
		out[kind] = ct
	}
	return out
}

// convergePath re-executes the path to converged world from, the event edge e, and the
// slowest walk from there (worstWalk).
func (g *liveGraph) convergePath(from int32, e edge, comp []int32, members [][]int32, vals [][]int) (*explorer.Path[spec.World, spec.Action], int, []Wait) {
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
		tw := g.timeWeight()
		for _, h := range g.worstWalk(e.to, len(vals)-1, comp, members, vals, tw) {
			take(h.e.k)
			t := g.wait[h.from]
			if g.keys[h.e.key].kind == spec.LoseResponse {
				t = spec.RequestWait
			}
			waits = append(waits, Wait{Timer: t, Millis: tw.edge(h.from, h.e)})
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
		t, extra := vals[layer][v], g.cycleExtra(c, comp, members, w)
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
		for _, e := range g.out[u] {
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

// cycleExtra is what component c adds of its own under a cycle-once weight: its heaviest
// internal fair edge when it is cyclic, else 0.
func (g *liveGraph) cycleExtra(c int32, comp []int32, members [][]int32, w weight) int {
	extra := 0
	for _, u := range members[c] {
		extra = max(extra, w.state(u))
		for _, e := range g.out[u] {
			if w.cycle && e.fair && comp[e.to] == c {
				extra = max(extra, w.edge(u, e))
			}
		}
	}
	return extra
}
