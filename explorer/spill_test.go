package explorer_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/explorer/twophase"
)

// Spilling (Options.SpillFrontier) must change nothing but memory and
// time: these tests run the same model with every level spilled and
// with none, on 1 and 2 workers, and compare whole reports (counts,
// levels, coverage, verdicts and every path). Two kinds of state take
// two different routes: pointer-free states are written to the spill
// file, states with pointers are rebuilt by re-execution (rebuild.go).

// sameReport ignores what depends on the clock and the machine.
func sameReport[S, A any]() cmp.Options {
	return cmp.Options{
		cmpopts.IgnoreFields(explorer.Report[S, A]{}, "Duration", "Workers", "PeakMemory", "Spilled"),
		cmpopts.EquateEmpty(),
	}
}

// failer is what checkSpill needs of *testing.T and *rapid.T.
type failer interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkSpill runs check with and without spilling on 1 and 2 workers and
// fails unless the four reports agree and the spilled runs spilled every
// level they expanded.
func checkSpill[S, A any](t failer, check func(explorer.Options) explorer.Report[S, A]) explorer.Report[S, A] {
	t.Helper()
	var first explorer.Report[S, A]
	for i, o := range []explorer.Options{
		{Workers: 1}, {Workers: 1, SpillFrontier: 1}, {Workers: 2, SpillFrontier: 1}, {Workers: 2},
	} {
		r := check(o)
		if r.Err != nil {
			t.Fatalf("%+v: %v", o, r.Err)
		}
		// Every level expanded was spilled: all of them, or all but the
		// last when a bound stopped the run before expanding it.
		lo, hi := len(r.Levels)-1, len(r.Levels)
		if o.SpillFrontier == 0 {
			lo, hi = 0, 0
		}
		if r.Spilled < lo || r.Spilled > hi {
			t.Fatalf("%+v: %d levels spilled of %d", o, r.Spilled, len(r.Levels))
		}
		if i == 0 {
			first = r
		} else if d := cmp.Diff(first, r, sameReport[S, A]()); d != "" {
			t.Fatalf("%+v differs from 1 worker without spilling (-want +got):\n%s", o, d)
		}
	}
	return first
}

// fullTwoPhase is the size of the exhaustive TwoPhase runs and TLC's
// count of its states (tlaplus/Examples TwoPhase.tla): RM=7 (296,448),
// or RM=5 (8,832) with -short.
func fullTwoPhase(t *testing.T) (int, int64) {
	if testing.Short() {
		return 5, 8_832
	}
	return 7, 296_448
}

// TestSpillTwoPhase: TwoPhase (a pointer-free state, spilled to the file)
// with a violation, so that a counterexample path is compared too, and
// the plain model, exhaustively.
func TestSpillTwoPhase(t *testing.T) {
	r := checkSpill(t, func(o explorer.Options) explorer.Report[twophase.State, twophase.Action] {
		m, props := twophase.NewEagerCommit(5)
		return explorer.Check(m, props, o)
	})
	if p := r.Property("TCConsistent"); p.Status != explorer.Violated || len(p.Path.Steps) != 3 {
		t.Fatalf("TCConsistent: %v with %v, want violated in 3 steps", p.Status, p.Path)
	}
	rm, want := fullTwoPhase(t)
	r = checkSpill(t, func(o explorer.Options) explorer.Report[twophase.State, twophase.Action] {
		m, props := twophase.New(rm)
		return explorer.Check(m, props, o)
	})
	if !r.Exhaustive || r.Distinct != want {
		t.Fatalf("not the full state space: %s", r.String())
	}
}

// boxed is TwoPhase with a state that holds a pointer, so that the
// explorer keeps its states on the Go heap and rebuilds spilled levels.
type boxed struct{ m *twophase.Model }

type boxedState struct{ S *twophase.State }

func box(s twophase.State) boxedState { return boxedState{&s} }

func (b boxed) Init() []boxedState {
	var out []boxedState
	for _, s := range b.m.Init() {
		out = append(out, box(s))
	}
	return out
}

func (b boxed) Actions(s boxedState, buf []twophase.Action) []twophase.Action {
	return b.m.Actions(*s.S, buf)
}

func (b boxed) Next(s boxedState, a twophase.Action) (boxedState, bool) {
	n, ok := b.m.Next(*s.S, a)
	return box(n), ok
}

func (b boxed) Encode(s boxedState, buf []byte) []byte { return b.m.Encode(*s.S, buf) }
func (b boxed) ActionKinds() []string                  { return b.m.ActionKinds() }
func (b boxed) ActionKind(a twophase.Action) int       { return b.m.ActionKind(a) }

func boxedTwoPhase(m *twophase.Model, props []explorer.Property[twophase.State]) (boxed, []explorer.Property[boxedState]) {
	var out []explorer.Property[boxedState]
	for _, p := range props {
		out = append(out, explorer.Property[boxedState]{Name: p.Name, Kind: p.Kind,
			Check: func(s boxedState) bool { return p.Check(*s.S) }})
	}
	return boxed{m}, out
}

// TestSpillRebuilt: the same with states holding pointers, which are
// rebuilt; the paths must also end in the states the plain model gives.
func TestSpillRebuilt(t *testing.T) {
	r := checkSpill(t, func(o explorer.Options) explorer.Report[boxedState, twophase.Action] {
		m, props := boxedTwoPhase(twophase.NewEagerCommit(5))
		return explorer.Check(m, props, o)
	})
	p := r.Property("TCConsistent")
	if p.Status != explorer.Violated || len(p.Path.Steps) != 3 {
		t.Fatalf("TCConsistent: %v with %v, want violated in 3 steps", p.Status, p.Path)
	}
	m, _ := twophase.NewEagerCommit(5)
	if last := *p.Path.Last().S; m.TCConsistent(last) {
		t.Fatalf("the path ends in %s, which is consistent", m.Format(last))
	}
	rm, want := fullTwoPhase(t)
	r = checkSpill(t, func(o explorer.Options) explorer.Report[boxedState, twophase.Action] {
		m, props := boxedTwoPhase(twophase.New(rm))
		return explorer.Check(m, props, o)
	})
	if !r.Exhaustive || r.Distinct != want {
		t.Fatalf("not the full state space: %s", r.String())
	}
}

// named is a graph model whose states are strings (with pointers).
type named struct{ g *graph }

func (n named) Init() []string {
	var out []string
	for _, v := range n.g.inits {
		out = append(out, fmt.Sprint(v))
	}
	return out
}

func (n named) node(s string) int32 {
	v, err := strconv.Atoi(strings.TrimRight(s, "'"))
	if err != nil {
		panic(err)
	}
	return int32(v)
}

func (n named) Actions(s string, buf []int) []int { return n.g.Actions(n.node(s), buf) }

func (n named) Next(s string, a int) (string, bool) {
	t, ok := n.g.Next(n.node(s), a)
	return fmt.Sprint(t), ok
}

func (n named) Encode(s string, buf []byte) []byte { return append(buf, s...) }
func (n named) ActionKinds() []string              { return n.g.kinds }
func (n named) ActionKind(a int) int               { return n.g.ActionKind(a) }

// TestSpillRandomGraphs: random graphs (see TestAgainstReference), with
// node numbers as states (spilled to the file) and as strings (rebuilt),
// under MaxStates too, which cuts a spilled level.
func TestSpillRandomGraphs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGraph(t)
		ref := bfs(g)
		bad := rapid.Int32Range(0, int32(len(g.edges)-1)).Draw(t, "bad")
		limit := rapid.Int64Range(0, int64(len(ref.order))).Draw(t, "max states")
		props := []explorer.Property[int32]{
			{Name: "not-bad", Kind: explorer.Always, Check: func(v int32) bool { return v != bad }},
			{Name: "true", Kind: explorer.Always, Check: func(int32) bool { return true }},
		}
		byNode := checkSpill(t, func(o explorer.Options) explorer.Report[int32, int] {
			o.MaxStates = limit
			return explorer.Check(g, props, o)
		})
		var sprops []explorer.Property[string]
		for _, p := range props {
			sprops = append(sprops, explorer.Property[string]{Name: p.Name, Kind: p.Kind,
				Check: func(s string) bool { return p.Check(named{g}.node(s)) }})
		}
		byName := checkSpill(t, func(o explorer.Options) explorer.Report[string, int] {
			o.MaxStates = limit
			return explorer.Check(named{g}, sprops, o)
		})
		if byNode.Distinct != byName.Distinct || byNode.Generated != byName.Generated ||
			!cmp.Equal(byNode.Levels, byName.Levels) {
			t.Fatalf("int32 states: %s\nstring states: %s", byNode.String(), byName.String())
		}
	})
}

// flaky changes its mind about the state an action leads to after its
// first calls: a broken contract that rebuilding a level must report.
type flaky struct {
	named
	calls *int
}

func (f flaky) Next(s string, a int) (string, bool) {
	*f.calls++
	t, ok := f.named.Next(s, a)
	if *f.calls > 1 {
		t += "'"
	}
	return t, ok
}

func TestRebuildReportsNondeterminism(t *testing.T) {
	g := &graph{inits: []int32{0}, edges: [][]int32{{1}, {}}, kindsOf: [][]int{{0}, {}}, kinds: []string{"a"}}
	calls := 0
	r := explorer.Check[string, int](flaky{named{g}, &calls}, nil, explorer.Options{Workers: 1, SpillFrontier: 1})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "nondeterministic") {
		t.Fatalf("err = %v, want a nondeterministic model reported", r.Err)
	}
}

// TestSpillFileMissing: when the spill file cannot be created the
// frontier stays in memory, the result is the same, and Report.Err says
// why.
func TestSpillFileMissing(t *testing.T) {
	m, props := twophase.New(5)
	want := explorer.Check(m, props, explorer.Options{Workers: 1})
	got := explorer.Check(m, props, explorer.Options{Workers: 1, SpillFrontier: 1, TraceDir: t.TempDir() + "/missing"})
	if got.Err == nil || !strings.Contains(got.Err.Error(), "spill file") {
		t.Fatalf("err = %v, want the spill file named", got.Err)
	}
	got.Err = nil
	if d := cmp.Diff(want, got, sameReport[twophase.State, twophase.Action]()); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}
