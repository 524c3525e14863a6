package spec

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/coordinator"
)

const hangWorld = `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t
budget hangs=1 crashes=1
`

// first is the first world, in breadth-first order from c's initial world, that satisfies ok.
func first(t *testing.T, c Config, ok func(World) bool) World {
	t.Helper()
	all, _ := reach(c, func(w World) string { return string(w.Encode(nil)) }, 5_000)
	for _, w := range all {
		if ok(w) {
			return w
		}
	}
	t.Fatal("no reachable world satisfies the condition")
	return World{}
}

func step(t *testing.T, w World, text string) World {
	t.Helper()
	a, err := ParseAction(w.cfg, text)
	if err != nil {
		t.Fatal(err)
	}
	n, ok := Next(w, a)
	if !ok {
		t.Fatalf("%q is not enabled in\n%s", text, w.String())
	}
	return n
}

func enabledText(w World, text string) bool {
	a, err := ParseAction(w.cfg, text)
	if err != nil {
		return false
	}
	_, ok := Next(w, a)
	return ok
}

// TestHang: the leader's poll thread hangs in its assignor (budget hangs; docs/bugs.md B3's
// setting). The hung process takes no step and handles no response; its heartbeats keep its
// session (session expiry costs budget) while the sync timer, which waits for its SyncGroup,
// is free; it can still crash.
func TestHang(t *testing.T) {
	c, err := ParseConfigString("hang", hangWorld)
	if err != nil {
		t.Fatal(err)
	}
	if enabledText(Init(c), "hang a") {
		t.Fatal("hang is enabled before any leader runs its assignor")
	}
	// a leads gen 1 and runs its assignor; b has sent its SyncGroup and it is parked.
	w := first(t, c, func(w World) bool {
		return w.Slots[0].Assigning != nil && w.Coord.State() == coordinator.CompletingRebalance &&
			len(w.Slots[1].Out) == 0 && w.Slots[1].Client.InFlight(consumer.KindSync)
	})
	if enabledText(w, "hang b") {
		t.Error("a follower, which runs no assignor, hangs")
	}
	h := step(t, w, "hang a")
	s := h.Slots[0]
	if s.Process != Hung || s.Assigning != nil || s.In != nil || h.Live(0) || h.Left.Hangs != 0 {
		t.Fatalf("after hang a: process %s, assigning %v, in %v, live %v, hangs left %d", s.Process, s.Assigning, s.In, h.Live(0), h.Left.Hangs)
	}
	if !strings.Contains(h.String(), "hung#1") {
		t.Errorf("the hung process is not rendered as hung:\n%s", h.String())
	}
	for _, text := range []string{"assign a", "poll a", "heartbeat a", "commit a", "deliver-response a", "leave a", "hang a", "poll-timeout a"} {
		if enabledText(h, text) {
			t.Errorf("%s is enabled for a hung process", text)
		}
	}
	if enabledText(h, "session-expiry a#1") {
		t.Error("the hung member's session expires with no budget: its heartbeats keep it")
	}
	timed := step(t, h, "sync-timeout")
	if timed.Left != h.Left {
		t.Errorf("the sync timer waiting only for the hung member cost budget: %v -> %v", h.Left, timed.Left)
	}
	if _, ok := timed.Coord.Member("a#1"); ok {
		t.Error("the sync timer left the hung member in the group")
	}
	if crashed := step(t, h, "crash a"); crashed.Slots[0].Process != Crashed {
		t.Errorf("a hung process crashes to %s", crashed.Slots[0].Process)
	}

	c.Budget.SessionTimeouts = 1
	h = step(t, first(t, c, func(w World) bool { return w.Slots[0].Assigning != nil }), "hang a")
	if n := step(t, h, "session-expiry a#1"); n.Left.SessionTimeouts != 0 {
		t.Error("the hung member's session expiry is free; its heartbeats keep it alive, so it costs")
	}
}

func TestHangIsClassicOnly(t *testing.T) {
	_, err := ParseConfigString("kip848-hang", `protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 1
member a topics=t
budget hangs=1 crashes=1
`)
	if err == nil || !strings.Contains(err.Error(), "budget hangs") {
		t.Fatalf("protocol consumer with hangs: %v, want an error naming budget hangs", err)
	}
}
