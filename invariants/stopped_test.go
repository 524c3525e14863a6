package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// TestStoppedStaysStopped: stopped-stays-stopped holds on a close and on a later step of a
// closed member; it names a failed member whose generation, state or ownership changes
// afterwards or that sends a request or reports a fatal error again or still awaits its assignment, and a closed one that keeps its member id, its state,
// its leadership or a partition.
func TestStoppedStaysStopped(t *testing.T) {
	c := config(t, twoMembers+"budget leaves=1\n")
	script := append(slices.Clone(stableScript), "leave a", "deliver-request a", "deliver-request a")
	ws := walk(t, c, script...)
	n := len(stableScript)
	for k := n; k < len(script); k++ {
		if got := stoppedStaysStopped.Step(&ws[k], stepEvents(t, ws[k], script[k]), &ws[k+1]); got != "" {
			t.Fatalf("the model's %q: %s", script[k], got)
		}
	}

	stable := ws[n]
	failed := ownSlots(stable)
	failed.Slots[1].Client.FatalError = impl.FencedInstanceID
	change := func(f func(*consumer.Consumer)) spec.World {
		w := ownSlots(failed)
		f(w.Slots[1].Client)
		return w
	}
	for want, post := range map[string]spec.World{
		"its generation":                change(func(c *consumer.Consumer) { c.Gen.ID++ }),
		"its state (STABLE → UNJOINED)": change(func(c *consumer.Consumer) { c.Status = consumer.Unjoined }),
		"its ownership":                 change(func(c *consumer.Consumer) { c.OwnedPartitions = impl.PartitionSet{} }),
		"its rejoin flags":              change(func(c *consumer.Consumer) { c.RejoinNeeded = true }),
	} {
		if got := stoppedStaysStopped.Step(&failed, nil, &post); !strings.Contains(got, "b stopped (fatal FENCED_INSTANCE_ID) and "+want) {
			t.Errorf("want %q, got %q", want, got)
		}
	}
	send := []spec.Event{spec.SendEvent{Slot: 1, Name: "b", Request: impl.HeartbeatRequest{}}}
	if got := stoppedStaysStopped.Step(&failed, send, &failed); !strings.Contains(got, "b stopped (fatal FENCED_INSTANCE_ID) and sends Heartbeat") {
		t.Errorf("a failed member's heartbeat: %q", got)
	}
	if got := stoppedStaysStopped.Step(&stable, nil, ptr(change(func(c *consumer.Consumer) { c.AwaitingAssignment = true }))); !strings.Contains(got, "b failed (fatal FENCED_INSTANCE_ID) and still awaits its assignment") {
		t.Errorf("a failed leader still computing its assignment: %q", got)
	}
	again := []spec.Event{spec.FatalEvent{Slot: 1, Name: "b", Error: impl.FencedInstanceID}}
	if got := stoppedStaysStopped.Step(&failed, again, &failed); !strings.Contains(got, "b stopped (fatal FENCED_INSTANCE_ID) and reports fatal FENCED_INSTANCE_ID again") {
		t.Errorf("a failed member's second fatal error: %q", got)
	}

	closed := ws[n+1]
	keep := func(f func(*consumer.Consumer)) spec.World {
		w := ownSlots(closed)
		f(w.Slots[0].Client)
		return w
	}
	for want, post := range map[string]spec.World{
		"member id":    keep(func(c *consumer.Consumer) { c.Gen = stable.Slots[0].Client.Gen }),
		"state STABLE": keep(func(c *consumer.Consumer) { c.Status = consumer.Stable }),
		"leadership":   keep(func(c *consumer.Consumer) { c.Leader = true }),
		"(t-0)":        keep(func(c *consumer.Consumer) { c.OwnedPartitions = stable.Slots[0].Client.OwnedPartitions }),
	} {
		if got := stoppedStaysStopped.Step(&stable, nil, &post); !strings.Contains(got, "a closed and still holds "+want) {
			t.Errorf("want %q, got %q", want, got)
		}
	}
}
