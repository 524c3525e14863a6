package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// TestCallbackContract: with one partition for two members, the member assigned nothing is
// still called onPartitionsAssigned (docs/protocol.md §2.6 step 4) and callback-contract holds on the
// SyncGroup answers' steps; without that call, with an empty onPartitionsLost, with a revoke
// from a member without a generation or from one closing mid-rebalance, it names the member.
func TestCallbackContract(t *testing.T) {
	c := config(t, strings.Replace(twoMembers, "topic t 2", "topic t 1", 1)+"budget leaves=1\n")
	ws := walk(t, c, stableScript...)
	var emptyAssigned bool
	for k := len(stableScript) - 2; k < len(stableScript); k++ {
		pre, post := ws[k], ws[k+1]
		ev := stepEvents(t, pre, stableScript[k])
		if got := callbackContract.Step(&pre, ev, &post); got != "" {
			t.Fatalf("the model's %q: %s", stableScript[k], got)
		}
		without := slices.DeleteFunc(slices.Clone(ev), func(e spec.Event) bool {
			cb, ok := e.(spec.CallbackEvent)
			emptyAssigned = emptyAssigned || ok && cb.Partitions.IsEmpty()
			return ok && cb.Kind == consumer.Assigned
		})
		if got := callbackContract.Step(&pre, without, &post); !strings.Contains(got, "without calling onPartitionsAssigned") {
			t.Errorf("%q without onPartitionsAssigned: %q", stableScript[k], got)
		}
		empty := append(slices.Clone(ev), spec.CallbackEvent{Slot: 0, Name: "a", Kind: consumer.Lost})
		if got := callbackContract.Step(&pre, empty, &post); !strings.Contains(got, "on-partitions-lost with nothing") {
			t.Errorf("an empty onPartitionsLost: %q", got)
		}
	}
	if !emptyAssigned {
		t.Fatal("no member was assigned nothing: the empty onPartitionsAssigned is not exercised")
	}

	stable := ws[len(ws)-1]
	ev := stepEvents(t, stable, "leave a")
	closed := walk(t, c, append(slices.Clone(stableScript), "leave a")...)
	post := closed[len(closed)-1]
	if !slices.ContainsFunc(ev, func(e spec.Event) bool {
		cb, ok := e.(spec.CallbackEvent)
		return ok && cb.Kind == consumer.Revoked && cb.Slot == 0
	}) {
		t.Fatal("a's close revokes nothing: give a a partition")
	}
	if got := callbackContract.Step(&stable, ev, &post); got != "" {
		t.Fatalf("the model's close: %s", got)
	}
	forge := func(f func(*consumer.Consumer)) spec.World {
		w := ownSlots(stable)
		f(w.Slots[0].Client)
		return w
	}
	for want, pre := range map[string]spec.World{
		"without a generation":        forge(func(c *consumer.Consumer) { c.Gen.ID = impl.NoGeneration }),
		"a close mid-rebalance loses": forge(func(c *consumer.Consumer) { c.Status = consumer.CompletingRebalance }),
	} {
		if got := callbackContract.Step(&pre, ev, &post); !strings.Contains(got, want) {
			t.Errorf("want %q, got %q", want, got)
		}
	}
}
