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
// answers NONE without removing the member: docs/protocol.md §1.7, §3.1).
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
// no-fatal; the causes a config allows do not (docs/protocol.md §1.2, §1.10, KIP-389), and a
// world whose members share no assignor does reach INCONSISTENT_GROUP_PROTOCOL.
func TestNoFatal(t *testing.T) {
	ws := walk(t, config(t, twoMembers), stableScript...)
	stable := ws[len(ws)-1]
	stop := func(w spec.World, e impl.ErrorCode) spec.World {
		w = ownSlots(w)
		w.Slots[1].Client.FatalError = e
		return w
	}
	if got := noFatal.Step(&stable, nil, &stable); got != "" {
		t.Fatalf("stable world: %q", got)
	}
	for _, e := range []impl.ErrorCode{impl.UnknownMemberID, impl.FencedInstanceID, impl.InconsistentGroupProtocol, impl.GroupMaxSizeReached} {
		if got, want := noFatal.Step(&stable, nil, ptr(stop(stable, e))), "b stopped with fatal "+e.String(); !strings.HasPrefix(got, want) {
			t.Errorf("dynamic members with a common assignor, stopped by %s: %q, want %q...", e, got, want)
		}
	}
	// A static member alone is no cause: only another process with its instance id can fence
	// it (KIP-345), and here a restart replaces its process.
	if fatalAllowed(config(t, strings.Replace(twoMembers, "member b topics=t", "member b topics=t static", 1)), impl.FencedInstanceID) {
		t.Error("FENCED_INSTANCE_ID allowed where no two processes share an instance id")
	}
	allowed := []struct {
		world string
		err   impl.ErrorCode
	}{
		{twinClassic, impl.FencedInstanceID},
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

// TestNoFatalFencedOnlyByTwin: the coordinator may answer a live process FENCED_INSTANCE_ID
// only while its instance id is mapped to a member id another process was given (KIP-345;
// docs/protocol.md §1.10). Answered to a static member whose instance maps to its own slot's
// id, or to an instance nobody holds, it is a violation in a world without failovers, where
// nothing is expected; where another process (a2, instance a) took the instance it holds. The
// twin world reaches the answer and holds, and the failover scenario, where the reference
// fences the live replacement as Kafka does, is the expected finding.
func TestNoFatalFencedOnlyByTwin(t *testing.T) {
	fenced := func(slot int, name string) []spec.Event {
		return []spec.Event{spec.ReplyEvent{Slot: slot, Name: name, Response: impl.HeartbeatResponse{Error: impl.FencedInstanceID}}}
	}
	static := presetConfig(t, "static-slow-rejoin")
	if why := noFatal.ExpectedViolation(static); why != "" {
		t.Fatalf("expected without failovers: %q", why)
	}
	ws := walk(t, static, "poll a", "deliver-request a")
	w := ws[len(ws)-1]
	for _, tc := range []struct {
		slot       int
		name, want string
	}{{0, "a", "instance a is held by a#1, its own slot's"}, {1, "b", "no member holds instance b"}} {
		if got := noFatal.Step(&w, fenced(tc.slot, tc.name), &w); !strings.Contains(got, tc.want) {
			t.Errorf("coordinator fences %s: %q, want %q", tc.name, got, tc.want)
		}
	}
	twin := config(t, twinClassic)
	tws := walk(t, twin, "poll a", "deliver-request a", "poll a2", "deliver-request a2")
	tw := tws[len(tws)-1]
	if id, _ := tw.Coord.StaticMember("a"); id != "a2#1" {
		t.Fatalf("instance a is held by %q, want a2#1", id)
	}
	if got := noFatal.Step(&tw, fenced(0, "a"), &tw); got != "" {
		t.Errorf("a fenced while a2 holds its instance: %q", got)
	}
	reached := Property{Name: "fenced-answered", Kind: explorer.Sometimes, Step: func(_ *spec.World, ev []spec.Event, _ *spec.World) string {
		for _, e := range ev {
			if r, ok := e.(spec.ReplyEvent); ok && !r.Dropped && r.Response.Code() == impl.FencedInstanceID {
				return "a live process is answered FENCED_INSTANCE_ID"
			}
		}
		return ""
	}}
	m := NewModelWith(twin, []Property{noFatal, reached})
	r := explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{})
	if r.Properties[0].Status != explorer.Holds || r.Properties[1].Status != explorer.Holds {
		t.Errorf("twin world: no-fatal %v, FENCED_INSTANCE_ID answered %v; want holds and reached", r.Properties[0].Status, r.Properties[1].Status)
	}
	if why := noFatal.ExpectedViolation(config(t, strings.Replace(presetText(t, "static-kafka"), "budget ", "budget failovers=1 ", 1))); !strings.Contains(why, "failover") {
		t.Errorf("static members with a failover: expected %q", why)
	}
}
