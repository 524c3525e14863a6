package twophase

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/groupcheck/groupcheck/explorer"
)

type report = explorer.Report[State, Action]

// sameRun compares two reports on everything that must not depend on
// the number of workers or the clock.
func sameRun(t *testing.T, a, b report) {
	t.Helper()
	opts := cmp.Options{
		cmpopts.IgnoreFields(report{}, "Duration", "Workers", "PeakMemory"),
		cmpopts.EquateEmpty(),
	}
	if d := cmp.Diff(a, b, opts); d != "" {
		t.Errorf("reports differ between %d and %d workers (-first +second):\n%s", a.Workers, b.Workers, d)
	}
}

func status(r report, name string) explorer.Status {
	if p := r.Property(name); p != nil {
		return p.Status
	}
	return -1
}

// TestStateSpace pins the size of TwoPhase's state space to TLC's counts
// for TwoPhase.tla (distinct and generated, initial states included),
// and checks that one and two workers give identical reports.
// Reference: tlaplus/Examples specifications/transaction_commit.
func TestStateSpace(t *testing.T) {
	sizes := []int{3, 5, 7}
	if !testing.Short() {
		sizes = append(sizes, 8)
	}
	for _, rm := range sizes {
		t.Run(fmt.Sprintf("rm=%d", rm), func(t *testing.T) {
			var first report
			for _, w := range []int{1, 2} {
				m, props := New(rm)
				r := explorer.Check(m, props, explorer.Options{Workers: w})
				if !r.Exhaustive || r.StoppedBy != "" {
					t.Fatalf("workers=%d: not exhaustive: %s", w, r.String())
				}
				if r.Distinct != distinctStates[rm] || r.Generated != generatedStates[rm] {
					t.Errorf("workers=%d: %d distinct / %d generated, want %d / %d",
						w, r.Distinct, r.Generated, distinctStates[rm], generatedStates[rm])
				}
				for _, name := range []string{"TCConsistent", "SomeCommitted", "SomeAborted"} {
					if s := status(r, name); s != explorer.Holds {
						t.Errorf("workers=%d: %s is %v, want holds", w, name, s)
					}
				}
				if len(r.NeverTaken) != 0 {
					t.Errorf("workers=%d: never taken: %v", w, r.NeverTaken)
				}
				if w == 1 {
					first = r
				} else {
					sameRun(t, first, r)
				}
			}
		})
	}
}

// TestEagerCommitViolatesTCConsistent checks that the checker bites: an
// RM that commits without the TM's Commit message breaks TCConsistent,
// and the counterexample is the shortest one, found by hand: RM 0
// prepares, commits on its own, RM 1 aborts (3 steps; no path of 2
// steps can both commit one RM and abort another, since committing
// takes a prepare first). Among shortest paths it is the first in the
// order of Model.Actions, and the same for any number of workers.
func TestEagerCommitViolatesTCConsistent(t *testing.T) {
	want := []string{"RMPrepare(0)", "RMRcvCommitMsg(0)", "RMChooseToAbort(1)"}
	var first report
	for _, w := range []int{1, 2, 3} {
		m, props := NewEagerCommit(3)
		r := explorer.Check(m, props, explorer.Options{Workers: w})
		p := r.Property("TCConsistent")
		if p.Status != explorer.Violated || p.Path == nil {
			t.Fatalf("workers=%d: TCConsistent %v, want violated with a path", w, p.Status)
		}
		var got []string
		s := p.Path.Init
		for _, st := range p.Path.Steps {
			got = append(got, st.Action.String())
			next, ok := m.Next(s, st.Action)
			if !ok || next != st.State {
				t.Fatalf("workers=%d: step %v does not replay from %s", w, st.Action, m.Format(s))
			}
			s = next
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("workers=%d: counterexample (-want +got):\n%s", w, d)
		}
		if m.TCConsistent(p.Path.Last()) {
			t.Errorf("workers=%d: last state %s satisfies TCConsistent", w, m.Format(p.Path.Last()))
		}
		if r.Err != nil {
			t.Errorf("workers=%d: %v", w, r.Err)
		}
		if w == 1 {
			first = r
		} else {
			sameRun(t, first, r)
		}
	}
}

// TestStopOnViolation stops at the end of the level of the first
// violation (depth 3, see above).
func TestStopOnViolation(t *testing.T) {
	m, props := NewEagerCommit(4)
	r := explorer.Check(m, props, explorer.Options{StopOnViolation: true})
	if r.Exhaustive || r.StoppedBy != explorer.StopViolation || r.Depth != 3 {
		t.Errorf("got exhaustive=%v stoppedBy=%q depth=%d, want false %q 3",
			r.Exhaustive, r.StoppedBy, r.Depth, explorer.StopViolation)
	}
	if s := status(r, "TCConsistent"); s != explorer.Violated {
		t.Errorf("TCConsistent is %v", s)
	}
}

// TestUnreachedSometimes: a Sometimes property no state satisfies is
// Unreached after an exhaustive run and Unknown after a bounded one.
func TestUnreachedSometimes(t *testing.T) {
	m, _ := New(3)
	props := []explorer.Property[State]{m.CommittedWhileTMAborted()}
	r := explorer.Check(m, props, explorer.Options{})
	if got := status(r, "CommittedWhileTMAborted"); !r.Exhaustive || got != explorer.Unreached {
		t.Errorf("exhaustive run: exhaustive=%v status %v, want true unreached", r.Exhaustive, got)
	}
	r = explorer.Check(m, props, explorer.Options{MaxDepth: 4})
	if got := status(r, "CommittedWhileTMAborted"); r.Exhaustive || got != explorer.Unknown {
		t.Errorf("bounded run: exhaustive=%v status %v, want false unknown", r.Exhaustive, got)
	}
}

// TestBounds: every bound stops the run, says so, and never claims an
// exhaustive run. Level sizes of RM=3: 1 7 21 38 50 54 ...
func TestBounds(t *testing.T) {
	for _, tc := range []struct {
		name     string
		o        explorer.Options
		stop     string
		distinct int64 // -1: not deterministic
		depth    int
	}{
		{"depth=0 is unbounded", explorer.Options{MaxDepth: 0}, "", 288, 10},
		{"depth=5", explorer.Options{MaxDepth: 5}, explorer.StopMaxDepth, 1 + 7 + 21 + 38 + 50 + 54, 5},
		{"depth=10 reached exactly", explorer.Options{MaxDepth: 10}, explorer.StopMaxDepth, 288, 10},
		{"states=100", explorer.Options{MaxStates: 100}, explorer.StopMaxStates, 100, 4},
		{"states=288 is enough", explorer.Options{MaxStates: 288}, "", 288, 10},
		{"states=287", explorer.Options{MaxStates: 287}, explorer.StopMaxStates, 287, 10},
		{"time", explorer.Options{MaxTime: 1}, explorer.StopMaxTime, -1, 0},
		{"memory", explorer.Options{MaxMemory: 1}, explorer.StopMaxMemory, -1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first report
			for _, w := range []int{1, 2} {
				tc.o.Workers = w
				m, props := New(3)
				r := explorer.Check(m, props, tc.o)
				if r.StoppedBy != tc.stop || r.Exhaustive != (tc.stop == "") {
					t.Fatalf("workers=%d: stoppedBy=%q exhaustive=%v, want %q", w, r.StoppedBy, r.Exhaustive, tc.stop)
				}
				if tc.distinct < 0 {
					continue
				}
				if r.Distinct != tc.distinct || r.Depth != tc.depth {
					t.Errorf("workers=%d: distinct=%d depth=%d, want %d %d", w, r.Distinct, r.Depth, tc.distinct, tc.depth)
				}
				if tc.stop != "" {
					if s := status(r, "TCConsistent"); s != explorer.Unknown {
						t.Errorf("workers=%d: TCConsistent %v on a bounded run, want unknown", w, s)
					}
				}
				if w == 1 {
					first = r
				} else {
					sameRun(t, first, r)
				}
			}
		})
	}
}

// TestActionsMatchGuards: Actions lists exactly the actions Next
// accepts, in every reachable state of RM=3.
func TestActionsMatchGuards(t *testing.T) {
	m, _ := New(3)
	all := []Action{{Kind: TMCommit}, {Kind: TMAbort}}
	for r := range 3 {
		for k := uint8(TMRcvPrepared); k < numKinds; k++ {
			all = append(all, Action{Kind: k, RM: uint8(r)})
		}
	}
	seen := map[State]bool{0: true}
	queue := []State{0}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		listed := map[Action]bool{}
		for _, a := range m.Actions(s, nil) {
			listed[a] = true
		}
		for _, a := range all {
			next, ok := m.Next(s, a)
			if ok != listed[a] {
				t.Fatalf("%s: %v enabled=%v listed=%v", m.Format(s), a, ok, listed[a])
			}
			if ok && !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	if len(seen) != 288 {
		t.Errorf("naive BFS found %d states, want 288", len(seen))
	}
}
