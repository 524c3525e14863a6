package invariants

import (
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// ConvergesName is the liveness property Liveness checks.
const ConvergesName = "converges"

// ConvergesStatement is its one-line statement.
const ConvergesStatement = "under weak fairness of the protocol's actions and free timers, every behaviour reaches a converged group (Stable, every subscribed partition owned by exactly one live member) once the environment stops acting"

// ConvergesSource is where converges comes from.
const ConvergesSource = "docs/protocol.md §6.6; docs/protocol.md §1.12, §3.9"

// Lasso is a liveness counterexample: a shortest path to a world, then a cycle the behaviour
// repeats forever without converging — a fair one: every action continuously enabled along
// the cycle is taken in it. When Cycle is empty the path ends in a dead end instead: a world
// where no fair action is enabled, so once the environment stops acting nothing happens.
type Lasso struct {
	Prefix explorer.Path[spec.World, spec.Action]
	Cycle  []explorer.Step[spec.World, spec.Action]
	// Stuck says the lasso's first world cannot reach convergence at all (no schedule
	// converges); otherwise convergence stays reachable and only this fair cycle avoids it.
	Stuck bool
}

// LivenessReport is the verdict on converges.
type LivenessReport struct {
	Status     explorer.Status // Holds, Violated, or Unknown when a bound stopped the check
	StoppedBy  string          // the bound that stopped it (explorer.StopMaxStates, ...), or ""
	Distinct   int
	Edges      int
	Stuck      int // worlds from which no converged world is reachable (AG EF fails)
	FairCycles int // fair cycles (components) of unconverged worlds
	DeadEnds   int // unconverged worlds where no fair action is enabled: once the environment stops, nothing happens
	Lasso      *Lasso
	Rounds     Rounds       // convergence after environment events in a converged group
	Expiry     ExpiryReport // orphans-expire, decided on the same graph
	// Taken is, with LiveBounds.RecordTaken, every kind of action the graph takes, by slot ("followup a", "crash b";
	// sorted): what the world exercises. A mutant that never takes one the reference takes in
	// the same world has silently disabled an event (groupcheck mutate's events check).
	Taken      []string
	Collisions float64 // fingerprint-collision probability estimate, Distinct²/2^65
}

// Liveness builds the whole state graph of a config (up to maxStates worlds) and checks
// converges: every fair behaviour reaches a converged world.
//
// Weak fairness applies to the protocol's own actions — deliveries, each member's poll,
// assign, heartbeat and metadata refresh — and to timers that cost no budget (their member's
// process is gone, so they are bound to fire). Environment events — budgeted ones, and the
// application's offset commits (see Fair) — are never forced, and the environment stops
// acting at some point: a behaviour that never converges therefore ends in a dead end (no fair
// action enabled) or runs forever, on fair edges only, in one strongly connected component of
// unconverged worlds. Such a component C admits a fair run
// exactly when every action that is enabled in every world of C is also taken by some edge
// inside C (a run through all of C's edges then takes it infinitely often; conversely an
// action enabled throughout C and never taken inside it is continuously enabled and never
// taken by any run confined to C). The check is therefore exact for the explored graph.
//
// It is stronger than "convergence stays reachable" (AG EF), which it implies — a component
// no edge leaves takes every action it enables — and it catches the livelocks a lucky
// schedule could escape but a fair one need not. Stuck still counts the worlds that cannot
// reach convergence at all.
//
// The graph keeps 64-bit fingerprints, parent links and labelled edges in memory; it is meant
// for the worlds the presets use (up to a few million states). See LivenessUndefined for the
// worlds where convergence is not a question.
func Liveness(c spec.Config, maxStates int) LivenessReport {
	return LivenessWithin(c, LiveBounds{MaxStates: maxStates})
}

// LivenessEvents is Liveness with the rounds measured over behaviours of up to events
// environment events (Rounds).
func LivenessEvents(c spec.Config, maxStates, events int) LivenessReport {
	return LivenessWithin(c, LiveBounds{MaxStates: maxStates, Events: events})
}

// LivenessWithin is Liveness within bounds: the graph stops growing at the first bound passed,
// and the time and memory bounds are checked again between the analyses that follow. A
// bounded check is Unknown, with the bound in StoppedBy: a partial graph proves nothing about
// convergence.
func LivenessWithin(c spec.Config, b LiveBounds) LivenessReport {
	g := newLiveGraph(c, b)
	n := float64(len(g.parent))
	rep := LivenessReport{Distinct: len(g.parent), Edges: len(g.edges), Collisions: n * n / 36893488147419103232.0, Taken: g.takenNames(c)}
	if g.stopped != "" {
		rep.Status, rep.StoppedBy = explorer.Unknown, g.stopped
		rep.Expiry.Status = explorer.Unknown
		return rep
	}
	b.MaxStates = 0 // the graph is complete: only time and memory from here
	can := g.canReach(g.goal)
	rep.Expiry = g.orphansExpire() // decided: the graph is complete
	if rep.StoppedBy = b.stop(0); rep.StoppedBy != "" {
		return rep
	}
	for _, ok := range can {
		if !ok {
			rep.Stuck++
		}
	}
	comp, members := g.unconverged()
	if rep.StoppedBy = b.stop(0); rep.StoppedBy != "" {
		return rep
	}
	fair := g.fairComponents(comp, members)
	first := -1
	for i := range g.size() {
		bad := false
		if !g.goal[i] && !g.anyFair(i) {
			rep.DeadEnds++
			bad = true
		} else if comp[i] >= 0 && fair[comp[i]] {
			bad = true
		}
		if bad && first < 0 {
			first = i
		}
	}
	for _, ok := range fair {
		if ok {
			rep.FairCycles++
		}
	}
	rep.Status = explorer.Holds
	if first >= 0 {
		rep.Status = explorer.Violated
		rep.Lasso = g.lasso(first, comp)
		rep.Lasso.Stuck = !can[first]
	}
	rep.Rounds = g.rounds(comp, members, b.Events)
	return rep
}

// Goal is what convergence means for the config's protocol: the group converged, or every
// member is gone and the coordinator has let them go (nothing is left to converge).
func Goal(c spec.Config) func(spec.World) bool {
	if c.Mixed() {
		return func(w spec.World) bool {
			if w.IsConsumerGroup() {
				return ConvergedMixed(&w) || noLiveMember(&w) && len(w.Group.Members()) == 0
			}
			return Converged(&w) || noLiveMember(&w) && len(w.Coord.Members()) == 0
		}
	}
	if c.ConsumerProtocol {
		return func(w spec.World) bool {
			return ConvergedKIP848(&w) || noLiveMember(&w) && len(w.Group.Members()) == 0
		}
	}
	return func(w spec.World) bool {
		return Converged(&w) || noLiveMember(&w) && len(w.Coord.Members()) == 0
	}
}

func noLiveMember(w *spec.World) bool {
	for i := range w.Slots {
		if w.Live(i) {
			return false
		}
	}
	return true
}

// canReach marks the worlds from which a world of goal is reachable (backward BFS).
func (g *liveGraph) canReach(goal []bool) []bool {
	// The reverse edges as rows, like the graph's own: world j's predecessors are
	// prev[start[j]:start[j+1]].
	start := make([]int32, g.size()+1)
	for _, e := range g.edges {
		start[e.to+1]++
	}
	for j := range g.size() {
		start[j+1] += start[j]
	}
	prev := make([]int32, len(g.edges))
	fill := slices.Clone(start[:g.size()])
	for i := range g.size() {
		for _, e := range g.from(int32(i)) {
			prev[fill[e.to]] = int32(i)
			fill[e.to]++
		}
	}
	can := make([]bool, g.size())
	var queue []int32
	for i, ok := range goal {
		if ok {
			can[i] = true
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		for _, i := range prev[start[j]:start[j+1]] {
			if !can[i] {
				can[i] = true
				queue = append(queue, i)
			}
		}
	}
	return can
}

// unconverged is the strongly connected components of the unconverged worlds over fair
// edges: the only places a behaviour can stay forever once the environment stops acting. Both
// the fairness check and the rounds figures work on them.
func (g *liveGraph) unconverged() (comp []int32, members [][]int32) {
	return g.sccs(func(i int) bool { return !g.goal[i] }, func(e edge) bool { return e.fair })
}

// fairComponents reports, per component of unconverged (comp, members), whether it admits a
// fair infinite run: a cycle exists in it, and every fair action enabled in all of its worlds
// is taken by an edge inside.
func (g *liveGraph) fairComponents(comp []int32, members [][]int32) (fair []bool) {
	fair = make([]bool, len(members))
	enabled := make([]int32, len(g.keys)) // worlds of the component enabling the key
	taken := make([]bool, len(g.keys))
	seen := make([]int32, len(g.keys)) // dedupe keys per world: the world's index + 1
	var touched []int32
	for c, ws := range members {
		cyclic := len(ws) > 1
		for _, v := range ws {
			for _, e := range g.from(v) {
				if e.fair && comp[e.to] == int32(c) {
					cyclic = true
					taken[e.key] = true
					touched = append(touched, int32(e.key))
				}
				if e.fair && seen[e.key] != v+1 {
					seen[e.key] = v + 1
					enabled[e.key]++
					touched = append(touched, int32(e.key))
				}
			}
		}
		ok := cyclic
		for _, k := range touched {
			if enabled[k] == int32(len(ws)) && !taken[k] {
				ok = false
			}
		}
		fair[c] = ok
		for _, k := range touched {
			enabled[k], taken[k], seen[k] = 0, false, 0
		}
		touched = touched[:0]
	}
	return fair
}

// hop is one edge of a walk through the graph.
type hop struct {
	from int32
	e    edge
}

// lasso rebuilds the shortest path to world s by re-execution, then — when s lies in a fair
// component — a fair cycle through s: starting with s alone, it repeatedly takes the
// lowest-numbered action that is enabled in every world of the cycle so far and not yet taken
// (walking inside the component to an edge of that action, or to a world where it is not
// enabled: one exists, as the component is fair), then closes the cycle back to s. Adding
// worlds and edges only shrinks the set of such actions, so the walk ends, and the closed
// cycle is fair.
func (g *liveGraph) lasso(s int, comp []int32) *Lasso {
	l := &Lasso{Prefix: explorer.Path[spec.World, spec.Action]{Init: g.init}}
	w := g.init
	for _, i := range g.pathTo(s) {
		w = g.stepTo(w, g.action[i])
		l.Prefix.Steps = append(l.Prefix.Steps, explorer.Step[spec.World, spec.Action]{Action: g.lastAction, State: w})
	}
	if !g.anyFair(s) {
		return l // a dead end
	}
	c := comp[s]
	inC := func(v int32) bool { return comp[v] == c }
	need := g.fairKeys(int32(s))
	taken := map[int32]bool{}
	var walk []hop
	cur := int32(s)
	for {
		k := int32(-1)
		for _, key := range need {
			if !taken[key] {
				k = key
				break
			}
		}
		if k < 0 {
			break
		}
		seg := g.walkIn(cur, inC, func(h hop) bool {
			return int32(h.e.key) == k || !slices.Contains(g.fairKeys(h.e.to), k)
		})
		for _, h := range seg {
			walk = append(walk, h)
			taken[int32(h.e.key)] = true
			need = intersect(need, g.fairKeys(h.e.to))
		}
		cur = seg[len(seg)-1].e.to
	}
	walk = append(walk, g.walkIn(cur, inC, func(h hop) bool { return h.e.to == int32(s) })...)
	for _, h := range walk {
		w = g.stepTo(w, h.e.k)
		l.Cycle = append(l.Cycle, explorer.Step[spec.World, spec.Action]{Action: g.lastAction, State: w})
	}
	return l
}

// anyFair reports whether some fair action is enabled in world v.
func (g *liveGraph) anyFair(v int) bool {
	for _, e := range g.from(int32(v)) {
		if e.fair {
			return true
		}
	}
	return false
}

// fairKeys lists, sorted, the fair actions enabled in world v.
func (g *liveGraph) fairKeys(v int32) []int32 {
	var ks []int32
	for _, e := range g.from(v) {
		if e.fair && !slices.Contains(ks, int32(e.key)) {
			ks = append(ks, int32(e.key))
		}
	}
	slices.Sort(ks)
	return ks
}

func intersect(a, b []int32) []int32 {
	var r []int32
	for _, k := range a {
		if slices.Contains(b, k) {
			r = append(r, k)
		}
	}
	return r
}

// walkIn is a shortest walk of at least one fair edge from world v, staying inside the worlds in
// admits, whose last edge satisfies stop (breadth-first, edges in order: deterministic).
func (g *liveGraph) walkIn(v int32, in func(int32) bool, stop func(hop) bool) []hop {
	prev := map[int32]hop{}
	queue := []int32{v}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range g.from(u) {
			if !e.fair || !in(e.to) {
				continue
			}
			h := hop{from: u, e: e}
			if stop(h) {
				walk := []hop{h}
				for x := u; x != v; x = prev[x].from {
					walk = append(walk, prev[x])
				}
				slices.Reverse(walk)
				return walk
			}
			if _, seen := prev[e.to]; !seen && e.to != v {
				prev[e.to] = h
				queue = append(queue, e.to)
			}
		}
	}
	panic("invariants: no walk inside a strongly connected component")
}

// LivenessUndefined says why convergence is no question for a world, or "". With assignor any
// the leader (or the KIP-848 coordinator) may choose any valid assignment, including one that
// leaves a partition with nobody and ones that move partitions round after round: it stands
// for every assignor at once, which is what safety needs, but no real assignor behaves so, and
// such a world "fails" to converge by the assignor's choice, not the protocol's.
func LivenessUndefined(c spec.Config) string {
	if c.Assignor == "any" {
		return "assignor any may leave a partition unassigned or keep moving partitions, so convergence is a property of a real assignor, not of any; use one (e.g. cooperative-sticky, range, uniform)"
	}
	return ""
}
