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
	g := &liveGraph{goal: make([]bool, n), unavail: make([]int16, n), parent: make([]int32, n)}
	for _, i := range goal {
		g.goal[i] = true
	}
	for i, u := range unavail {
		g.unavail[i] = u
	}
	keys := 0
	out := make([][]edge, n)
	for _, e := range edges {
		out[e.from] = append(out[e.from], edge{to: e.to, key: int16(e.key), fair: !e.env, bump: e.bump})
		keys = max(keys, int(e.key)+1)
	}
	for _, es := range out { // as newLiveGraph lays them out, world by world
		g.first = append(g.first, int32(len(g.edges)))
		g.edges = append(g.edges, es...)
	}
	g.seal()
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

// TestFairComponents: a cycle counts as a violation only when it is fair (docs/protocol.md §6.6:
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
		for i := range tc.g.size() {
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
// (world 0), over the fair edges that follow — and, with events 2, one more environment event
// on the way. The cycles here are left by an action enabled in one of their worlds only, so
// they are fair and their time is unbounded (TestConvergeTimeArithmetic has the time).
func TestRoundsArithmetic(t *testing.T) {
	// twoEvents: a join (0→1) converges alone (1→2), unless its answer is lost (1→3, a second
	// environment event), which costs two more steps, a rebalance and 4 partition-steps.
	twoEvents := graphOf(5, []int{0, 2}, map[int]int16{1: 1, 3: 2, 4: 2},
		edge3{0, 1, 9, true, 1}, edge3{1, 2, 1, false, 0}, edge3{1, 3, 8, true, 0}, edge3{3, 4, 2, false, 1}, edge3{4, 2, 3, false, 0})
	for _, tc := range []struct {
		name   string
		g      *liveGraph
		want   Figures
		stop   int
		events int
	}{
		{"two paths: the worse has two rebalances",
			graphOf(5, []int{0, 4}, map[int]int16{1: 2, 2: 1},
				edge3{0, 1, 9, true, 1}, edge3{1, 4, 1, false, 0}, edge3{1, 2, 2, false, 1}, edge3{2, 3, 3, false, 0}, edge3{3, 4, 4, false, 0}),
			Figures{Changes: 1, Rebalances: 2, Steps: 4, Unavailability: 3}, 0, 1},
		{"a retry cycle counts once for steps and unavailability",
			graphOf(4, []int{0, 3}, map[int]int16{1: 1, 2: 2},
				edge3{0, 1, 9, true, 1}, edge3{1, 2, 1, false, 0}, edge3{2, 1, 2, false, 0}, edge3{2, 3, 3, false, 0}),
			Figures{Changes: 1, Rebalances: 1, Steps: 2, Unavailability: 2, Time: Unbounded}, 0, 1},
		{"a cycle that completes rebalances: unbounded rounds",
			graphOf(4, []int{0, 3}, nil,
				edge3{0, 1, 9, true, 0}, edge3{1, 2, 1, false, 1}, edge3{2, 1, 2, false, 0}, edge3{2, 3, 3, false, 0}),
			Figures{Changes: 1, Rebalances: Unbounded, Steps: 2, Unavailability: 0, Time: Unbounded}, 0, 1},
		{"a behaviour that stops unconverged",
			graphOf(4, []int{0, 3}, nil, edge3{0, 1, 9, true, 0}, edge3{1, 2, 1, false, 0}, edge3{1, 3, 2, false, 0}),
			Figures{Changes: 1, Rebalances: Unbounded, Steps: Unbounded, Unavailability: Unbounded, Time: Unbounded}, 1, 1},
		{"two events, one counted: the loss is never taken", twoEvents,
			Figures{Changes: 1, Rebalances: 1, Steps: 2, Unavailability: 1}, 0, 1},
		{"two events: the loss adds its recovery", twoEvents,
			Figures{Changes: 1, Rebalances: 2, Steps: 4, Unavailability: 5}, 0, 2},
		{"a second event into a dead end: unbounded",
			graphOf(4, []int{0, 2}, nil, edge3{0, 1, 9, true, 0}, edge3{1, 2, 1, false, 0}, edge3{1, 3, 8, true, 0}),
			Figures{Changes: 1, Rebalances: Unbounded, Steps: Unbounded, Unavailability: Unbounded, Time: Unbounded}, 1, 2},
	} {
		comp, members := tc.g.unconverged()
		r := tc.g.rounds(comp, members, tc.events)
		if r.Figures != tc.want || r.Stops != tc.stop {
			t.Errorf("%s: %+v, %d stops; want %+v, %d", tc.name, r.Figures, r.Stops, tc.want, tc.stop)
		}
	}
}

// TestRoundsOnAWorld pins the figures of a small world: two members, one crash. A crash in a
// converged group costs one rebalance (the survivor takes everything once the session
// expires), docs/protocol.md §1.12.
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

// TestRoundsOverTwoEvents pins the k-event measure on the harm that needs two events: a
// member joins a converged group of one and the answer to its first request is lost. Under
// KIP-848 the lost heartbeat answer named the new member, so the retry joins afresh and the
// first member id is orphaned with its share of the target until its session expires
// (KAFKA-17116): one event costs 1 rebalance and 8 partition-steps, two cost 3 and 17.
// Classic dynamic members learn their id from MEMBER_ID_REQUIRED first; the loss costs a
// rebalance and 16 partition-steps more. One event measured is the default (Liveness).
// Time (Kafka's default timers): KIP-848's join waits at most two heartbeat intervals (10 s),
// the loss adds the orphaned id's session (45 s) and the request timeout (30 s); the classic
// join waits a's heartbeat (3 s), b's, and for the pending id a lost answer left behind
// (45 s, twice: each wait is bounded by a timer's whole duration, see ConvergeTime).
func TestRoundsOverTwoEvents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, protocol string
		one, two       Figures
	}{
		{"KIP-848", "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\n",
			Figures{Changes: 15, Rebalances: 1, Steps: 20, Unavailability: 8, Time: 10000}, Figures{Changes: 15, Rebalances: 3, Steps: 34, Unavailability: 17, Time: 90000}},
		{"cooperative", "protocol cooperative\nconsumer kafka\ncoordinator kafka\nassignor cooperative-sticky\n",
			Figures{Changes: 5, Rebalances: 2, Steps: 42, Unavailability: 23, Time: 96000}, Figures{Changes: 5, Rebalances: 3, Steps: 57, Unavailability: 39, Time: 126000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(t, tc.protocol+"topic t 2\nmember a topics=t\nmember b topics=t absent\nbudget joins=1 lost-responses=1\n")
			one, two := Liveness(c, 100000).Rounds, LivenessEvents(c, 100000, 2).Rounds
			// The worst case is a join's (start) in both: the other first events are lost
			// answers in a converged group, which cost little.
			start := func(f Figures) Figures { f.Changes = 0; return f }
			if one.Events != 1 || one.Figures != tc.one || start(one.ByEvent["start"]) != start(tc.one) {
				t.Errorf("one event: %+v (start %+v), want %+v", one.Figures, one.ByEvent["start"], tc.one)
			}
			if two.Events != 2 || two.Figures != tc.two || start(two.ByEvent["start"]) != start(tc.two) {
				t.Errorf("two events: %+v (start %+v), want %+v", two.Figures, two.ByEvent["start"], tc.two)
			}
		})
	}
}
