package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestLeaveApplied: in a classic and a KIP-848 two-member world with a leave, the coordinator
// does answer a leave as accepted (the property is not vacuous: the answer is dropped, as the
// process is gone, but the step shows it), leave-applied holds, and it names the member when
// the coordinator is put back to the state before it handled the leave (a coordinator that
// answers NONE without removing the member: KAFKA.md §1.7, §3.1).
func TestLeaveApplied(t *testing.T) {
	kip848 := "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t\nmember b topics=t\n"
	for _, tc := range []struct {
		name, world string
		steps       int // of the shortest path to an accepted leave
	}{
		{"classic", twoMembers + "budget leaves=1\n", 6},
		{"KIP-848", kip848 + "budget leaves=1\n", 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(t, tc.world)
			pre, ev, post, n := shortestStep(t, c, leaveApplied, func(_ *spec.World, ev []spec.Event, _ *spec.World) bool {
				return slices.ContainsFunc(ev, func(e spec.Event) bool {
					r, ok := e.(spec.ReplyEvent)
					return ok && acceptedLeave(r.Response) != ""
				})
			})
			if n != tc.steps {
				t.Errorf("shortest path to an accepted leave: %d steps, want %d", n, tc.steps)
			}
			forged := post
			forged.Coord, forged.Group = pre.Coord, pre.Group
			if got := leaveApplied.Step(&pre, ev, &forged); !strings.Contains(got, "is answered as accepted, but the coordinator still holds") {
				t.Errorf("forged world (the coordinator kept the member): %q", got)
			}
		})
	}
	if leaveApplied.Applies(config(t, twoMembers+"budget failovers=1\n")) {
		t.Error("leave-applied applies to a failover world, where the log may predate the leave")
	}
}

// TestNoFatal: a classic member stopped by an error its config cannot provoke violates
// no-fatal; the causes a config allows do not (KAFKA.md §1.2, §1.10, KIP-389), and a world
// whose members share no assignor does reach INCONSISTENT_GROUP_PROTOCOL.
func TestNoFatal(t *testing.T) {
	ws := walk(t, config(t, twoMembers), stableScript...)
	stable := ws[len(ws)-1]
	stop := func(w spec.World, e impl.ErrorCode) spec.World {
		w = ownSlots(w)
		w.Slots[1].Client.FatalError = e
		return w
	}
	if got := noFatal.State(&stable); got != "" {
		t.Fatalf("stable world: %q", got)
	}
	for _, e := range []impl.ErrorCode{impl.UnknownMemberID, impl.FencedInstanceID, impl.InconsistentGroupProtocol, impl.GroupMaxSizeReached} {
		if got, want := noFatal.State(ptr(stop(stable, e))), "b stopped with fatal "+e.String(); !strings.HasPrefix(got, want) {
			t.Errorf("dynamic members with a common assignor, stopped by %s: %q, want %q...", e, got, want)
		}
	}
	allowed := []struct {
		world string
		err   impl.ErrorCode
	}{
		{strings.Replace(twoMembers, "member b topics=t", "member b topics=t static", 1), impl.FencedInstanceID},
		{twoMembers + "group-max-size 1\n", impl.GroupMaxSizeReached},
		{strings.Replace(twoMembers, "member b topics=t", "member b topics=t assignors=range", 1), impl.InconsistentGroupProtocol},
	}
	for _, tc := range allowed {
		c := config(t, tc.world)
		if !fatalAllowed(c, tc.err) {
			t.Errorf("%s not allowed in\n%s", tc.err, tc.world)
		}
	}
	c := config(t, allowed[2].world)
	m := NewModelWith(c, []Property{noFatal, {Name: "nobody-stops", Kind: explorer.Always, State: func(w *spec.World) string {
		for _, s := range w.Slots {
			if s.Client.Fatal() != impl.None {
				return "a member stopped"
			}
		}
		return ""
	}}})
	r := explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{})
	if r.Properties[0].Status != explorer.Holds || r.Properties[1].Status != explorer.Violated {
		t.Errorf("no-fatal %v, a member stopped %v: want holds and violated (INCONSISTENT_GROUP_PROTOCOL)", r.Properties[0].Status, r.Properties[1].Status)
	}
}
