package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestConvergeTimeArithmetic: the time figure sums, along the slowest path after an event,
// each component's bound: the shortest wait of the actions enabled throughout it that lead
// out; the retries that cycle inside it meanwhile add nothing.
func TestConvergeTimeArithmetic(t *testing.T) {
	hb, session := spec.HeartbeatWait, spec.SessionWait
	for _, tc := range []struct {
		name string
		g    *liveGraph
		wait map[int16]spec.Timer // by key
		want int
	}{
		{"a heartbeat, then a session timeout",
			graphOf(4, []int{0, 3}, nil, edge3{0, 1, 9, true, 0}, edge3{1, 2, 1, false, 0}, edge3{2, 3, 2, false, 0}),
			map[int16]spec.Timer{1: hb, 2: session}, 48000},
		{"the slower of two ways: world 1 waits at most a heartbeat, then world 2 a session",
			graphOf(4, []int{0, 3}, nil, edge3{0, 1, 9, true, 0}, edge3{1, 3, 1, false, 0}, edge3{1, 2, 2, false, 0}, edge3{2, 3, 3, false, 0}),
			map[int16]spec.Timer{1: session, 2: hb, 3: session}, 48000},
		{"the shortest action enabled bounds a world's wait",
			graphOf(4, []int{0, 3}, nil, edge3{0, 1, 9, true, 0}, edge3{1, 3, 1, false, 0}, edge3{1, 2, 2, false, 0}, edge3{2, 3, 3, false, 0}),
			map[int16]spec.Timer{1: session, 2: hb, 3: hb}, 6000},
		{"heartbeats cycling while a session timer runs: the timer bounds the cycle",
			graphOf(4, []int{0, 3}, nil, edge3{0, 1, 9, true, 0}, edge3{1, 2, 1, false, 0}, edge3{2, 1, 2, false, 0}, edge3{1, 3, 3, false, 0}, edge3{2, 3, 3, false, 0}),
			map[int16]spec.Timer{1: hb, 2: hb, 3: session}, 45000},
		{"a cycle no action enabled throughout leaves: unbounded (a fair cycle)",
			graphOf(4, []int{0, 3}, nil, edge3{0, 1, 9, true, 0}, edge3{1, 2, 1, false, 0}, edge3{2, 1, 2, false, 0}, edge3{2, 3, 3, false, 0}),
			map[int16]spec.Timer{1: hb, 2: hb, 3: hb}, Unbounded},
		{"a world that waits for nothing costs nothing",
			graphOf(3, []int{0, 2}, nil, edge3{0, 1, 9, true, 0}, edge3{1, 2, 1, false, 0}),
			map[int16]spec.Timer{9: session}, 0},
	} {
		tc.g.durations = spec.DefaultTimers()
		for j, e := range tc.g.edges {
			tc.g.edges[j].wait = tc.wait[e.key]
		}
		comp, members := tc.g.unconverged()
		if r := tc.g.rounds(comp, members, 1); r.Figures.Time != tc.want {
			t.Errorf("%s: time %d, want %d", tc.name, r.Figures.Time, tc.want)
		}
	}
}

// TestConvergeTimePath: the path of each kind's worst time starts in a converged world, takes
// the event, ends converged, and its steps' waits add up to the figure.
func TestConvergeTimePath(t *testing.T) {
	t.Parallel()
	c := config(t, twoMembers+"budget crashes=1 leaves=1\n")
	r := Liveness(c, 100000)
	goal := Goal(c)
	for _, kind := range []string{"crash", "leave"} {
		ct, ok := r.Rounds.Time[kind]
		if !ok || ct.Path == nil || ct.Millis <= 0 {
			t.Fatalf("%s: %+v", kind, ct)
		}
		steps := ct.Path.Steps
		pre := ct.Path.Init
		if ct.Start > 0 {
			pre = steps[ct.Start-1].State
		}
		if !goal(pre) || steps[ct.Start].Action.Kind.String() != kind || !goal(steps[len(steps)-1].State) {
			t.Errorf("%s: the path does not run converged → %s → converged", kind, kind)
		}
		sum := 0
		for _, w := range ct.Waits {
			sum += w.Millis
		}
		if sum != ct.Millis || len(ct.Waits) != len(steps)-ct.Start-1 {
			t.Errorf("%s: waits add up to %d over %d steps, figure %d over %d", kind, sum, len(ct.Waits), ct.Millis, len(steps)-ct.Start-1)
		}
		t.Logf("%s: %d ms, %d steps after the event", kind, ct.Millis, len(ct.Waits))
	}
}

// TestJoinWaitsForTimerCostsTime: the join-waits-for-timer mutant makes the same rebalances
// as the reference after a leave, so the rounds cannot tell them apart; the time to converge
// can — the remaining member's join phase waits for the rebalance timeout (300 s, Kafka's
// max.poll.interval.ms) instead of completing when it rejoins (3 s: its heartbeat).
// Reference: docs/protocol.md §1.3 (tryCompleteJoin).
func TestJoinWaitsForTimerCostsTime(t *testing.T) {
	t.Parallel()
	c := config(t, twoMembers+"budget leaves=1\n")
	bad := c
	bad.Faults = bad.Faults.With(impl.FaultJoinWaitsForTimer)
	good, slow := Liveness(c, 100000).Rounds.ByEvent["leave"], Liveness(bad, 100000).Rounds.ByEvent["leave"]
	if good.Rebalances != slow.Rebalances || good.Time != 3000 || slow.Time != 303000 {
		t.Errorf("leave: %+v without the fault, %+v with it; want the same rebalances, 3 s and 303 s", good, slow)
	}
}
