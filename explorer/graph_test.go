package explorer_test

import (
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/groupcheck/groupcheck/explorer"
)

// graph is a model given by an explicit graph: states are node numbers,
// action i of node v follows edge i, which may be disabled.
type graph struct {
	inits   []int32
	edges   [][]int32 // edges[v][i] = target, or -1 when disabled
	kindsOf [][]int   // kind of each edge
	kinds   []string
}

func (g *graph) Init() []int32 { return g.inits }

func (g *graph) Actions(v int32, buf []int) []int {
	for i := range g.edges[v] {
		buf = append(buf, int(v)<<8|i)
	}
	return buf
}

func (g *graph) Next(v int32, a int) (int32, bool) {
	t := g.edges[a>>8][a&0xff]
	return t, t >= 0
}

func (g *graph) Encode(v int32, buf []byte) []byte {
	return binary.LittleEndian.AppendUint32(buf, uint32(v))
}

func (g *graph) ActionKinds() []string { return g.kinds }

func (g *graph) ActionKind(a int) int { return g.kindsOf[a>>8][a&0xff] }

// reference is a plain sequential BFS in which the first discovery
// wins: its order is (parent order, action index), the order the
// explorer promises for any number of workers.
type reference struct {
	order     []int32       // states in BFS order
	depth     map[int32]int // depth of each reachable state
	parent    map[int32]int // index of the action from the parent; -1 for initial states
	from      map[int32]int32
	generated int64
	coverage  []int64
}

func bfs(g *graph) reference {
	r := reference{depth: map[int32]int{}, parent: map[int32]int{}, from: map[int32]int32{},
		coverage: make([]int64, len(g.kinds))}
	r.generated = int64(len(g.inits))
	for _, v := range g.inits {
		if _, ok := r.depth[v]; !ok {
			r.depth[v], r.parent[v] = 0, -1
			r.order = append(r.order, v)
		}
	}
	for k := 0; k < len(r.order); k++ {
		v := r.order[k]
		for i, t := range g.edges[v] {
			if t < 0 {
				continue
			}
			r.generated++
			r.coverage[g.kindsOf[v][i]]++
			if _, ok := r.depth[t]; !ok {
				r.depth[t], r.parent[t], r.from[t] = r.depth[v]+1, i, v
				r.order = append(r.order, t)
			}
		}
	}
	return r
}

// path returns the actions from an initial state to v, per the reference.
func (r reference) path(v int32) []int {
	var p []int
	for r.parent[v] >= 0 {
		p = append(p, int(r.from[v])<<8|r.parent[v])
		v = r.from[v]
	}
	slices.Reverse(p)
	return p
}

func drawGraph(t *rapid.T) *graph {
	n := rapid.IntRange(1, 300).Draw(t, "nodes")
	node := rapid.Int32Range(0, int32(n-1))
	g := &graph{kinds: []string{"a", "b", "c", "never"}}
	g.inits = rapid.SliceOfN(node, 1, 4).Draw(t, "inits")
	for v := range n {
		deg := rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("deg%d", v))
		var es []int32
		var ks []int
		for range deg {
			target := node.Draw(t, "target")
			if rapid.IntRange(0, 9).Draw(t, "disabled") == 0 {
				target = -1
			}
			es = append(es, target)
			ks = append(ks, rapid.IntRange(0, 2).Draw(t, "kind"))
		}
		g.edges = append(g.edges, es)
		g.kindsOf = append(g.kindsOf, ks)
	}
	return g
}

var ignoreClock = cmp.Options{
	cmpopts.IgnoreFields(explorer.Report[int32, int]{}, "Duration", "Workers", "PeakMemory"),
	cmpopts.EquateEmpty(),
}

// TestAgainstReference compares Check on random graphs with a naive
// BFS: same counts, depth, coverage, and the same (shortest, first in
// BFS order) counterexample, for 1, 2 and 3 workers.
func TestAgainstReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGraph(t)
		ref := bfs(g)
		bad := rapid.Int32Range(0, int32(len(g.edges)-1)).Draw(t, "bad")
		goal := rapid.Int32Range(0, int32(len(g.edges)-1)).Draw(t, "goal")
		props := []explorer.Property[int32]{
			{Name: "not-bad", Kind: explorer.Always, Check: func(v int32) bool { return v != bad }},
			// A property that holds keeps the run going after
			// not-bad is violated.
			{Name: "true", Kind: explorer.Always, Check: func(int32) bool { return true }},
			{Name: "goal", Kind: explorer.Sometimes, Check: func(v int32) bool { return v == goal }},
		}
		var first explorer.Report[int32, int]
		for _, w := range []int{1, 2, 3} {
			r := explorer.Check(g, props, explorer.Options{Workers: w})
			if !r.Exhaustive || r.Err != nil {
				t.Fatalf("workers=%d: %s", w, r.String())
			}
			maxDepth := 0
			for _, v := range ref.order {
				maxDepth = max(maxDepth, ref.depth[v])
			}
			if r.Distinct != int64(len(ref.order)) || r.Generated != ref.generated || r.Depth != maxDepth {
				t.Fatalf("workers=%d: distinct %d generated %d depth %d, want %d %d %d",
					w, r.Distinct, r.Generated, r.Depth, len(ref.order), ref.generated, maxDepth)
			}
			for i, c := range r.Coverage {
				if c.Count != ref.coverage[i] {
					t.Fatalf("coverage %v, want %v", r.Coverage, ref.coverage)
				}
			}
			if !slices.Contains(r.NeverTaken, "never") {
				t.Fatalf("never taken = %v", r.NeverTaken)
			}
			checkPath(t, g, ref, r.Property("not-bad"), bad, explorer.Violated, explorer.Holds)
			checkPath(t, g, ref, r.Property("goal"), goal, explorer.Holds, explorer.Unreached)
			if w == 1 {
				first = r
			} else if d := cmp.Diff(first, r, ignoreClock); d != "" {
				t.Fatalf("workers=%d differs from 1 worker:\n%s", w, d)
			}
		}
	})
}

// checkPath checks the verdict on a property decided at state target
// when reachable.
func checkPath(t *rapid.T, g *graph, ref reference, p *explorer.PropertyResult[int32, int],
	target int32, reached, unreached explorer.Status) {
	if _, ok := ref.depth[target]; !ok {
		if p.Status != unreached || p.Path != nil {
			t.Fatalf("%s: %v with path %v, want %v", p.Name, p.Status, p.Path, unreached)
		}
		return
	}
	if p.Status != reached || p.Path == nil {
		t.Fatalf("%s: %v, want %v with a path", p.Name, p.Status, reached)
	}
	// The first state in BFS order that decides it is target itself,
	// since target is the only state that does.
	var got []int
	for _, s := range p.Path.Steps {
		got = append(got, s.Action)
	}
	if d := cmp.Diff(ref.path(target), got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("%s: path (-want +got):\n%s", p.Name, d)
	}
	if p.Path.Last() != target {
		t.Fatalf("%s: path ends in %d, want %d", p.Name, p.Path.Last(), target)
	}
}

// TestMaxStatesIsDeterministic: the level crossing MaxStates is cut at
// the same states whatever the number of workers.
func TestMaxStatesIsDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGraph(t)
		ref := bfs(g)
		limit := rapid.Int64Range(1, int64(len(ref.order))).Draw(t, "limit")
		// Sometimes-properties record the first state of each node
		// kind, exposing which states were kept.
		var props []explorer.Property[int32]
		for v := range int32(len(g.edges)) {
			props = append(props, explorer.Property[int32]{Name: fmt.Sprint(v), Kind: explorer.Sometimes,
				Check: func(s int32) bool { return s == v }})
		}
		var first explorer.Report[int32, int]
		for _, w := range []int{1, 2, 3} {
			r := explorer.Check(g, props, explorer.Options{Workers: w, MaxStates: limit})
			if r.Distinct != limit {
				t.Fatalf("workers=%d: distinct %d, want %d", w, r.Distinct, limit)
			}
			wantStop := ""
			if limit < int64(len(ref.order)) {
				wantStop = explorer.StopMaxStates
			}
			if r.StoppedBy != wantStop {
				t.Fatalf("stopped by %q, want %q", r.StoppedBy, wantStop)
			}
			for i, v := range ref.order {
				if st := r.Property(fmt.Sprint(v)).Status; (st == explorer.Holds) != (int64(i) < limit) {
					t.Fatalf("state %d (BFS position %d): %v with limit %d", v, i, st, limit)
				}
			}
			if w == 1 {
				first = r
			} else if d := cmp.Diff(first, r, ignoreClock); d != "" {
				t.Fatalf("workers=%d differs from 1 worker:\n%s", w, d)
			}
		}
	})
}
