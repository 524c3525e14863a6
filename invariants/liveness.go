package invariants

import (
	"fmt"
	"hash/maphash"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// ConvergesName is the liveness property Liveness checks.
const ConvergesName = "converges"

// ConvergesStatement is its one-line statement.
const ConvergesStatement = "from every reachable world a converged group (Stable, every subscribed partition owned by exactly one live member) is still reachable"

// Lasso is a liveness counterexample: a path through a world from which convergence is no
// longer reachable (the first such world in BFS order, so the prefix up to it is shortest),
// then a cycle the behaviour can repeat forever without converging. When Cycle is empty the
// path ends in a dead end instead: a world where no action is enabled at all.
type Lasso struct {
	Prefix explorer.Path[spec.World, spec.Action]
	Cycle  []explorer.Step[spec.World, spec.Action]
}

// LivenessReport is the verdict on converges.
type LivenessReport struct {
	Status     explorer.Status // Holds, Violated, or Unknown when MaxStates stopped the search
	Distinct   int
	Edges      int
	Stuck      int // worlds from which no converged world is reachable
	Lasso      *Lasso
	Collisions float64 // fingerprint-collision probability estimate, Distinct²/2^65
}

// Liveness builds the whole state graph of a config (up to maxStates worlds) and checks that
// convergence stays reachable from every world: AG EF converged. A world that fails it is a
// definite liveness violation — from there no scheduler, fair or not, ever converges — so a
// violation is reported as a lasso. The converse is weaker than full liveness under fairness:
// "holds" means convergence is always still possible, not that every fair behaviour reaches
// it (a livelock that fairness cannot break while a lucky schedule could would pass). Budgets
// make the graph finite; once they are spent, only protocol actions remain.
//
// The graph keeps 64-bit fingerprints, parent links and successor lists in memory; it is
// meant for the worlds the presets use (up to a few million states).
func Liveness(c spec.Config, maxStates int) LivenessReport {
	g := newLiveGraph(c, maxStates)
	n := float64(len(g.parent))
	rep := LivenessReport{Distinct: len(g.parent), Edges: g.edges, Collisions: n * n / 36893488147419103232.0}
	if g.bounded {
		rep.Status = explorer.Unknown
		return rep
	}
	can := g.canReach(goalFor(c))
	first := -1
	for i, ok := range can {
		if !ok {
			rep.Stuck++
			if first < 0 {
				first = i
			}
		}
	}
	rep.Status = explorer.Holds
	if first >= 0 {
		rep.Status = explorer.Violated
		rep.Lasso = g.lasso(c, first)
	}
	return rep
}

// goalFor is what convergence means for the config's protocol: the group converged, or every
// member is gone and the coordinator has let them go (nothing is left to converge).
func goalFor(c spec.Config) func(spec.World) bool {
	if c.ConsumerProtocol {
		return func(w spec.World) bool {
			return ConvergedKIP848(w) || noLiveMember(w) && len(w.Group.Members()) == 0
		}
	}
	return func(w spec.World) bool {
		return Converged(w) || noLiveMember(w) && len(w.Coord.Members()) == 0
	}
}

func noLiveMember(w spec.World) bool {
	for i := range w.Slots {
		if w.Live(i) {
			return false
		}
	}
	return true
}

// liveGraph is the explored graph: per world (in BFS order) its parent, the index of the
// action that reached it, its successors, and whether it is converged.
type liveGraph struct {
	parent  []int32
	action  []int16
	next    [][]int32
	goal    []bool
	init    spec.World
	edges   int
	bounded bool

	lastAction spec.Action // set by stepTo, read right after
}

func newLiveGraph(c spec.Config, maxStates int) *liveGraph {
	g := &liveGraph{init: spec.Init(c)}
	seed := maphash.MakeSeed()
	index := map[uint64]int32{}
	var buf []byte
	var queue []spec.World
	goal := goalFor(c)
	add := func(w spec.World, parent int32, action int16) int32 {
		buf = w.Encode(buf[:0])
		fp := maphash.Bytes(seed, buf)
		if i, ok := index[fp]; ok {
			return i
		}
		i := int32(len(g.parent))
		index[fp] = i
		g.parent = append(g.parent, parent)
		g.action = append(g.action, action)
		g.next = append(g.next, nil)
		g.goal = append(g.goal, goal(w))
		queue = append(queue, w)
		return i
	}
	add(g.init, -1, -1)
	var acts []spec.Action
	for i := 0; i < len(queue); i++ {
		if len(g.parent) > maxStates {
			g.bounded = true
			return g
		}
		w := queue[i]
		queue[i] = spec.World{} // processed: let the collector have it
		acts = spec.Actions(w, acts[:0])
		for k, a := range acts {
			if n, ok := spec.Next(w, a); ok {
				j := add(n, int32(i), int16(k)) // may grow g.next: index it after
				g.next[i] = append(g.next[i], j)
				g.edges++
			}
		}
	}
	return g
}

// canReach marks the worlds from which a goal world is reachable (backward BFS).
func (g *liveGraph) canReach(goal func(spec.World) bool) []bool {
	prev := make([][]int32, len(g.next))
	for i, ns := range g.next {
		for _, j := range ns {
			prev[j] = append(prev[j], int32(i))
		}
	}
	can := make([]bool, len(g.next))
	var queue []int32
	for i, ok := range g.goal {
		if ok {
			can[i] = true
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		for _, i := range prev[j] {
			if !can[i] {
				can[i] = true
				queue = append(queue, i)
			}
		}
	}
	return can
}

// lasso rebuilds the shortest path to stuck world s by re-execution, then walks its stuck
// successors (first successor each time) until a world repeats (the cycle) or none is left
// (a dead end). Every successor of a stuck world is stuck, so the walk stays in the region.
func (g *liveGraph) lasso(c spec.Config, s int) *Lasso {
	var chain []int
	for i := s; i > 0; i = int(g.parent[i]) {
		chain = append(chain, i)
	}
	l := &Lasso{Prefix: explorer.Path[spec.World, spec.Action]{Init: g.init}}
	w := g.init
	for k := len(chain) - 1; k >= 0; k-- {
		w = g.stepTo(w, g.action[chain[k]])
		l.Prefix.Steps = append(l.Prefix.Steps, explorer.Step[spec.World, spec.Action]{Action: g.lastAction, State: w})
	}
	seen := map[int]int{s: 0}
	var walk []explorer.Step[spec.World, spec.Action]
	for cur := s; len(g.next[cur]) > 0; {
		nxt := int(g.next[cur][0])
		w = g.stepTo(w, g.firstEnabled(w))
		walk = append(walk, explorer.Step[spec.World, spec.Action]{Action: g.lastAction, State: w})
		if at, ok := seen[nxt]; ok {
			l.Prefix.Steps = append(l.Prefix.Steps, walk[:at]...) // from s to the cycle's entry
			l.Cycle = walk[at:]
			return l
		}
		seen[nxt] = len(walk)
		cur = nxt
	}
	l.Prefix.Steps = append(l.Prefix.Steps, walk...) // a dead end: no cycle, the path ends
	return l
}

// stepTo takes the action with index k in Actions(w); it remembers the action taken.
func (g *liveGraph) stepTo(w spec.World, k int16) spec.World {
	a := spec.Actions(w, nil)[k]
	n, ok := spec.Next(w, a)
	if !ok {
		panic(fmt.Sprintf("invariants: the liveness path is not re-executable at %s", a.Text(w.Config())))
	}
	g.lastAction = a
	return n
}

// firstEnabled is the index of w's first enabled action (the graph's first successor).
func (g *liveGraph) firstEnabled(w spec.World) int16 {
	for k, a := range spec.Actions(w, nil) {
		if _, ok := spec.Next(w, a); ok {
			return int16(k)
		}
	}
	panic("invariants: a world with successors has no enabled action")
}
