package kip848client

import (
	"strings"
	"testing"
)

// TestCanTransitionMatchesTable spells out docs/protocol.md §3.7's predecessor table edge by edge and
// checks CanTransition against it for every pair of states.
// Reference: docs/protocol.md §3.7.
func TestCanTransitionMatchesTable(t *testing.T) {
	allowed := map[[2]State]bool{}
	for _, e := range []struct {
		to   State
		from []State
	}{
		{Unsubscribed, []State{PrepareLeaving, Leaving, Fenced}},
		{Joining, []State{Fenced, Unsubscribed, Stale}},
		{Reconciling, []State{Stable, Joining, Acknowledging, Reconciling}},
		{Acknowledging, []State{Reconciling}},
		{Stable, []State{Joining, Acknowledging, Reconciling}},
		{Fenced, []State{Joining, Stable, Reconciling, Acknowledging, PrepareLeaving, Leaving}},
		{PrepareLeaving, []State{Joining, Stable, Reconciling, Acknowledging, Unsubscribed}},
		{Leaving, []State{PrepareLeaving}},
		{Stale, []State{Leaving}},
		{Fatal, []State{Joining, Stable, Reconciling, Acknowledging, PrepareLeaving, Leaving, Unsubscribed}},
	} {
		for _, f := range e.from {
			allowed[[2]State{f, e.to}] = true
		}
	}
	n := 0
	for _, from := range AllStates() {
		for _, to := range AllStates() {
			if got, want := CanTransition(from, to), allowed[[2]State{from, to}]; got != want {
				t.Errorf("CanTransition(%s, %s) = %v, want %v", from, to, got, want)
			}
			if CanTransition(from, to) {
				n++
			}
		}
	}
	if n != 34 {
		t.Errorf("table has %d edges, want 34", n)
	}
	if CanTransition(Stable, State(42)) || CanTransition(Stable, -1) {
		t.Error("CanTransition accepts an invalid target state")
	}
}

// TestIllegalTransitionPanics: a transition outside the table is a broken internal contract
// and panics naming it. Reference: docs/protocol.md §3.7.
func TestIllegalTransitionPanics(t *testing.T) {
	for _, c := range []struct{ from, to State }{
		{Unsubscribed, Stable}, {Stale, Unsubscribed}, {Leaving, Joining}, {Fatal, Joining},
	} {
		func() {
			defer func() {
				r := recover()
				want := "illegal transition " + c.from.String() + " -> " + c.to.String()
				if s, _ := r.(string); !strings.Contains(s, want) {
					t.Errorf("%s -> %s: panic %v, want %q", c.from, c.to, r, want)
				}
			}()
			s := &stepper{m: Member{Status: c.from}}
			s.to(c.to)
		}()
	}
}

func TestStateNames(t *testing.T) {
	want := "UNSUBSCRIBED JOINING RECONCILING ACKNOWLEDGING STABLE FENCED PREPARE_LEAVING LEAVING STALE FATAL"
	var got []string
	for _, s := range AllStates() {
		got = append(got, s.String())
	}
	if strings.Join(got, " ") != want {
		t.Errorf("names = %v", got)
	}
	if State(99).String() != "INVALID_STATE" || RequestKind(9).String() != "InvalidKind" {
		t.Error("invalid values must render as invalid")
	}
}
