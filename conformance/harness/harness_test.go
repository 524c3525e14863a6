package harness

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// The harness refuses what a script gets wrong, naming it, and a settle that cannot happen
// fails after SettleMax instead of hanging.
func TestHarnessRefusals(t *testing.T) {
	ctx := context.Background()
	tm := DefaultTiming
	tm.SettleMax, tm.Quiet = 300*time.Millisecond, 100*time.Millisecond
	h, err := New(ctx, Config{Protocol: Protocol{Name: "none", Proto: history.Classic}, Timing: tm})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, tc := range []struct {
		step Step
		want string
	}{
		{Step{Op: "bogus"}, `unknown op "bogus"`},
		{Step{Op: OpLeave, Node: "nobody"}, `no node "nobody"`},
		{Step{Op: OpCrash, Node: "nobody"}, `no node "nobody"`},
		{Step{Op: OpCut, Node: "nobody"}, `no node "nobody"`},
		{Step{Op: OpHeal, Node: "nobody"}, `no node "nobody"`},
		{Step{Op: OpFence, Node: "nobody"}, `no node "nobody"`},
		{Step{Op: OpStart, Node: Coordinator}, `node name "coordinator" is taken`},
		{Step{Op: OpSettle}, "not settled after 300ms: t1/0 owned by []"},
	} {
		err := h.Do(ctx, tc.step)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.step, err, tc.want)
		}
	}
	if err := h.Run(ctx, Scenario{Name: "x", Steps: []Step{{Op: "bogus"}}}); err == nil ||
		!strings.Contains(err.Error(), "step 1 (bogus)") {
		t.Errorf("Run names the failing step: %v", err)
	}
	h.Close()
	hist := h.History()
	if err := hist.Validate(); err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, e := range hist {
		if e.Kind == history.Mark {
			notes = append(notes, e.Note)
		}
	}
	if !strings.Contains(strings.Join(notes, "\n"), "not settled") {
		t.Errorf("the failed settle is not marked in the history: %q", notes)
	}
}

func TestNames(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{NoFault.String(), "none"},
		{EarlyRevokeAck.String(), "early-revoke-ack"},
		{SkipLost.String(), "skip-lost"},
		{Fault(9).String(), "fault?"},
		{Step{Op: OpSettle}.String(), "settle"},
		{Step{Op: OpStart, Node: "a"}.String(), "start a"},
		{Step{Op: OpStart, Node: "a", Fault: SkipLost}.String(), "start a fault=skip-lost"},
		{short("0123456789"), "23456789"},
		{short("abc"), "abc"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
