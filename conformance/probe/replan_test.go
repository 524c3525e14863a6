package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/spec"
)

// differsOn is a broker that agrees with the reference on every edge but bad (edgeKey),
// where its answer differs: the schedule ends there, as a difference ends it on a broker.
func differsOn(bad string) runner {
	return func(s schedule, cfg spec.Config) (outcome, error) {
		o := outcome{Exercised: map[transition]bool{}}
		w := spec.Init(cfg)
		for k, a := range s.Actions {
			next, ev, ok := spec.Step(w, a)
			if !ok {
				return o, fmt.Errorf("%s step %d: %q not enabled", s.Target, k+1, a.Text(&cfg))
			}
			o.Steps++
			if edgeKey(string(w.Encode(nil)), a, &cfg) == bad {
				o.Diff = &difference{Schedule: schedule{World: s.World, Actions: s.Actions[:k+1], Target: s.Target}, Step: k, Lines: []string{"fake: differs"}}
				return o, nil
			}
			if t := transitionOf(w, a, ev); t != "" {
				o.Exercised[t] = true
			}
			w = next
		}
		return o, nil
	}
}

// edgeOf is the edge of step k (from 1) of eager-one's covering schedule to target.
func edgeOf(t *testing.T, cfg spec.Config, target string, k int) string {
	t.Helper()
	for _, s := range explore("eager-one", cfg, 100000).covering() {
		if s.Target != target {
			continue
		}
		w := spec.Init(cfg)
		for _, a := range s.Actions[:k-1] {
			w, _ = spec.Next(w, a)
		}
		return edgeKey(string(w.Encode(nil)), s.Actions[k-1], &cfg)
	}
	t.Fatalf("no covering schedule to %s", target)
	return ""
}

// TestReplanAroundDifference: a broker that differs on one edge ends the schedules that
// take it; re-planning reaches what lies beyond by other paths, the same way every run,
// and names the difference for what only that edge leads to.
func TestReplanAroundDifference(t *testing.T) {
	_, cfg, err := lookupWorld("eager-one")
	if err != nil {
		t.Fatal(err)
	}
	probeWith := func(bad string, rounds int) worldReport {
		t.Helper()
		wr, err := probeWorld("eager-one", options{maxStates: 100000, replan: rounds}, rand.New(rand.NewPCG(1, 1)), "fake", differsOn(bad))
		if err != nil {
			t.Fatal(err)
		}
		return wr
	}
	// The second join, parked in the join phase, has other paths: a crash or a leave first.
	bad := edgeOf(t, cfg, "JoinGroup CompletingRebalance: NONE", 4)
	before, after := probeWith(bad, 0), probeWith(bad, defaultReplan)
	if all := len(after.Transitions); before.exercised() >= all || after.exercised() != all || after.Replans == 0 {
		t.Fatalf("differing on one edge: %d of %d exercised without re-planning, %d with %d re-planned schedules; want fewer, then all (missed %v)",
			before.exercised(), all, after.exercised(), after.Replans, after.missedLines())
	}
	// Every path starts with the first join: what needs a member in the group is reached
	// only through it.
	bad = edgeOf(t, cfg, "JoinGroup CompletingRebalance: NONE", 2)
	first, again := probeWith(bad, defaultReplan), probeWith(bad, defaultReplan)
	missed := first.missedLines()
	if len(missed) == 0 || fmt.Sprint(missed) != fmt.Sprint(again.missedLines()) || first.exercised() != again.exercised() {
		t.Fatalf("two runs: missed %v, then %v", missed, again.missedLines())
	}
	for _, m := range missed {
		if !strings.Contains(m, "(reachable only through difference unclassified: fake: differs)") && !strings.Contains(m, "(differs: unclassified: fake: differs)") {
			t.Errorf("not exercised without the difference named: %s", m)
		}
	}
}
