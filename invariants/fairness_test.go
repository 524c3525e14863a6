package invariants

import (
	"fmt"
	"testing"

	"github.com/groupcheck/groupcheck/impl"

	"github.com/groupcheck/groupcheck/spec"
)

// graphOf builds a live graph by hand: edges as from→to with a key, fairness and bump; the
// goal worlds are listed. It lets the fairness and rounds arithmetic be tested on shapes that
// a protocol world would take long to reach.
func graphOf(n int, goal []int, unavail map[int]int16, edges ...edge3) *liveGraph {
	g := &liveGraph{out: make([][]edge, n), goal: make([]bool, n), unavail: make([]int16, n), parent: make([]int32, n)}
	for _, i := range goal {
		g.goal[i] = true
	}
	for i, u := range unavail {
		g.unavail[i] = u
	}
	keys := 0
	for _, e := range edges {
		g.out[e.from] = append(g.out[e.from], edge{to: e.to, key: e.key, fair: !e.env, bump: e.bump})
		keys = max(keys, int(e.key)+1)
	}
	g.keys = make([]actionKey, keys)
	for k := range g.keys {
		g.keys[k] = actionKey{kind: spec.JoinTimeout, member: impl.MemberID(fmt.Sprint(k))} // text needs no config
	}
	return g
}

type edge3 struct {
	from, to int32
	key      int32
	env      bool // a budgeted environment event: not fair
	bump     int8
}

// TestFairComponents: a cycle counts as a violation only when it is fair (DESIGN.md liveness:
// weak fairness of protocol actions). Each case names the shape and whether some component
// admits a fair run that never converges.
func TestFairComponents(t *testing.T) {
	for _, tc := range []struct {
		name  string
		g     *liveGraph
		fair  bool
		stuck bool // the dead-end check: a non-goal world without a fair action
	}{
		{"a retry cycle while an enabled action waits: unfair, the action must run",
			graphOf(3, []int{2}, nil, edge3{0, 1, 0, false, 0}, edge3{1, 0, 1, false, 0}, edge3{0, 2, 2, false, 0}, edge3{1, 2, 2, false, 0}), false, false},
		{"the waiting action is disabled in one world of the cycle: fair, it never converges",
			graphOf(3, []int{2}, nil, edge3{0, 1, 0, false, 0}, edge3{1, 0, 1, false, 0}, edge3{0, 2, 2, false, 0}), true, false},
		{"a cycle whose exit is an environment event: fair (the environment need not act)",
			graphOf(3, []int{2}, nil, edge3{0, 1, 0, false, 0}, edge3{1, 0, 1, false, 0}, edge3{0, 2, 2, true, 0}, edge3{1, 2, 3, true, 0}), true, false},
		{"a self-loop taking the only enabled action: fair",
			graphOf(2, []int{1}, nil, edge3{0, 0, 0, false, 0}), true, false},
		{"a world where only the environment can act: a dead end",
			graphOf(2, []int{1}, nil, edge3{0, 1, 0, true, 0}), false, true},
		{"no cycle, every path converges",
			graphOf(3, []int{2}, nil, edge3{0, 1, 0, false, 0}, edge3{1, 2, 1, false, 0}), false, false},
	} {
		comp, members := tc.g.unconverged()
		fair := tc.g.fairComponents(comp, members)
		got := false
		for i := range tc.g.out {
			if comp[i] >= 0 && fair[comp[i]] {
				got = true
			}
		}
		if got != tc.fair {
			t.Errorf("%s: fair cycle %v, want %v", tc.name, got, tc.fair)
		}
		if dead := !tc.g.goal[0] && !tc.g.anyFair(0); dead != tc.stuck {
			t.Errorf("%s: dead end %v, want %v", tc.name, dead, tc.stuck)
		}
	}
}

// TestRoundsArithmetic: worst cases after an environment event from a converged world
// (world 0), over the fair edges that follow.
func TestRoundsArithmetic(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *liveGraph
		want Figures
		stop int
	}{
		{"two paths: the worse has two rebalances",
			graphOf(5, []int{0, 4}, map[int]int16{1: 2, 2: 1},
				edge3{0, 1, 9, true, 1}, edge3{1, 4, 1, false, 0}, edge3{1, 2, 2, false, 1}, edge3{2, 3, 3, false, 0}, edge3{3, 4, 4, false, 0}),
			Figures{Changes: 1, Rebalances: 2, Steps: 4, Unavailability: 3}, 0},
		{"a retry cycle counts once for steps and unavailability",
			graphOf(4, []int{0, 3}, map[int]int16{1: 1, 2: 2},
				edge3{0, 1, 9, true, 1}, edge3{1, 2, 1, false, 0}, edge3{2, 1, 2, false, 0}, edge3{2, 3, 3, false, 0}),
			Figures{Changes: 1, Rebalances: 1, Steps: 2, Unavailability: 2}, 0},
		{"a cycle that completes rebalances: unbounded rounds",
			graphOf(4, []int{0, 3}, nil,
				edge3{0, 1, 9, true, 0}, edge3{1, 2, 1, false, 1}, edge3{2, 1, 2, false, 0}, edge3{2, 3, 3, false, 0}),
			Figures{Changes: 1, Rebalances: Unbounded, Steps: 2, Unavailability: 0}, 0},
		{"a behaviour that stops unconverged",
			graphOf(4, []int{0, 3}, nil, edge3{0, 1, 9, true, 0}, edge3{1, 2, 1, false, 0}, edge3{1, 3, 2, false, 0}),
			Figures{Changes: 1, Rebalances: Unbounded, Steps: Unbounded, Unavailability: Unbounded}, 1},
	} {
		r := tc.g.rounds(tc.g.unconverged())
		if r.Figures != tc.want || r.Stops != tc.stop {
			t.Errorf("%s: %+v, %d stops; want %+v, %d", tc.name, r.Figures, r.Stops, tc.want, tc.stop)
		}
	}
}

// TestRoundsOnAWorld pins the figures of a small world: two members, one crash. A crash in a
// converged group costs one rebalance (the survivor takes everything once the session
// expires), KAFKA.md §1.12.
func TestRoundsOnAWorld(t *testing.T) {
	c := config(t, twoMembers+"budget crashes=1\n")
	r := Liveness(c, 100000)
	f, ok := r.Rounds.ByEvent["crash"]
	if !ok || f.Rebalances != 1 || f.Changes == 0 {
		t.Fatalf("crash figures %+v (present %v), want 1 rebalance", f, ok)
	}
	if f.Unavailability <= 0 {
		t.Errorf("a crash leaves the crashed member's partitions unowned until the survivor takes them; unavailability %d", f.Unavailability)
	}
	t.Logf("%+v", r.Rounds)
}
