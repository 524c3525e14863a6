package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// TestOrphansExpire: in two-member worlds whose orphans and pending ids come from a crash, a
// leave, a lost answer, the reference lets every one go (their timers are free), and the
// check names the shortest path into a part of the graph that never does. The second half
// makes such a part by hand: the graph of a crash world with every world after the crash
// marked unsettled, as a coordinator that never expires the dead member would be.
func TestOrphansExpire(t *testing.T) {
	t.Parallel()
	for _, world := range []string{
		twoMembers + "budget crashes=1\n",
		twoMembers + "budget leaves=1 lost-responses=1\n",
		"protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t\nmember b topics=t\nbudget crashes=1 lost-responses=1\n",
	} {
		lr := Liveness(config(t, world), 0)
		if lr.Expiry.Status != explorer.Holds || lr.Expiry.Stuck != 0 {
			t.Errorf("%s: orphans-expire %v (%d stuck, kept %q)", world, lr.Expiry.Status, lr.Expiry.Stuck, lr.Expiry.Kept)
		}
	}

	c := config(t, twoMembers+"budget crashes=1\n")
	g := newLiveGraph(c, LiveBounds{})
	crashed := 0
	w := []spec.World{g.init}
	// Rebuild each world by its path to mark the ones after the crash (the budget spent).
	for i := range g.parent {
		if i > 0 {
			w = append(w, g.stepTo(w[g.parent[i]], g.action[i]))
		}
		if w[i].Left.Crashes == 0 {
			g.settled[i] = false
			crashed++
		}
	}
	e := g.orphansExpire()
	if e.Status != explorer.Violated || e.Stuck != crashed {
		t.Fatalf("orphans-expire %v with %d stuck, want violated with %d", e.Status, e.Stuck, crashed)
	}
	last := e.Path.Steps[len(e.Path.Steps)-1].Action
	if !strings.HasPrefix(last.Text(&c), "crash ") {
		t.Errorf("the shortest path into the stuck part ends with %q, want a crash", last.Text(&c))
	}
	if len(e.Path.Steps) != 1 {
		t.Errorf("shortest path %d steps, want 1 (a crash in the initial world)", len(e.Path.Steps))
	}
}

// TestCheckPureAndTaken: LiveBounds.CheckPure stops the graph at the first world a step
// changed (here a hook writes into the slot its world shares with the successor, as a step
// that dropped a copy-on-write clone would), and RecordTaken lists what the graph did.
func TestCheckPureAndTaken(t *testing.T) {
	c := config(t, twoMembers+"budget crashes=1\n")
	lr := LivenessWithin(c, LiveBounds{CheckPure: true, RecordTaken: true})
	if lr.StoppedBy != "" {
		t.Fatalf("the reference stopped by %s", lr.StoppedBy)
	}
	for _, want := range []string{"crash a", "crash b", "poll a", "assign b", "session-expiry"} {
		if !slices.Contains(lr.Taken, want) {
			t.Errorf("Taken %v lacks %q", lr.Taken, want)
		}
	}
	if !slices.IsSorted(lr.Taken) {
		t.Errorf("Taken not sorted: %v", lr.Taken)
	}
	steps := 0
	impure := LiveBounds{CheckPure: true, OnStep: func(pre *spec.World, _ []spec.Event, _ *spec.World) bool {
		if steps++; steps == 3 {
			pre.Slots[0].Process = spec.Crashed
		}
		return true
	}}
	if lr := LivenessWithin(c, impure); lr.StoppedBy != StopImpure {
		t.Errorf("a step that writes into its world: stopped by %q, want %q", lr.StoppedBy, StopImpure)
	}
}
