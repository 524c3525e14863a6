package traces

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/spec"
)

// TestShrinkMergesARun: a run of steps that is needed as a whole, though each of its steps
// alone is not what the violation needs, cannot be dropped but can be merged. The zombie
// scenario's session expiry of a live member (docs/protocol.md §1.12) is replaced by the other way a
// live member leaves the group without knowing it has lost its partitions: its poll timeout
// (the heartbeat thread sends LeaveGroup) and the LeaveGroup's delivery. Dropping either
// step loses the violation; dropping alone stops at the padded length, and merging the two
// back into one session expiry gives the shortest counterexample again.
func TestShrinkMergesARun(t *testing.T) {
	const prop = "exclusive-ownership-strict"
	shortest := parseFile(t, "scenarios/session-expiry-zombie.trace")
	cfg, acts := shortest.Config, shortest.Actions()
	cfg.Budget.PollTimeouts = 1
	i := slices.IndexFunc(acts, func(a spec.Action) bool { return a.Text(&cfg) == "session-expiry a#1" })
	if i < 0 {
		t.Fatal("the zombie scenario has no session-expiry a#1")
	}
	run := []spec.Action{mustAction(t, cfg, "poll-timeout a"), mustAction(t, cfg, "deliver-request a")}
	padded := slices.Concat(acts[:i], run, acts[i+1:])
	if n, ok := firstViolation(cfg, prop, padded); !ok || n != len(padded) {
		t.Fatalf("the padded trace does not violate %s at its end (%d, %v)", prop, n, ok)
	}
	dropped := padded
	for more := true; more; {
		dropped, more = shrinkPass(cfg, prop, dropped, []pass{dropOne, dropPair, dropRange})
	}
	if len(dropped) != len(padded) {
		t.Fatalf("dropping alone shrank %d steps to %d; the test wants a run only merging removes", len(padded), len(dropped))
	}
	small := Shrink(New("padded.trace", Header{Found: "hand-written"}, cfg, padded), prop)
	if small == nil {
		t.Fatal("Shrink found no violation")
	}
	got := small.Actions()
	if len(got) != len(acts) || !strings.Contains(small.Header.Found, "shrunk from 19 to 18") {
		t.Errorf("shrunk to %d steps (%s); want the shortest %d", len(got), small.Header.Found, len(acts))
	}
	if res, _ := Replay(small); res.Divergence != nil {
		t.Errorf("the shrunk trace diverges: %v", res.Divergence)
	}
	if m, ok := mergeRun(cfg, prop, got); ok {
		t.Errorf("the result still merges, to %d steps", len(m))
	}
}

func mustAction(t *testing.T, cfg spec.Config, text string) spec.Action {
	t.Helper()
	a, err := spec.ParseAction(&cfg, text)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
