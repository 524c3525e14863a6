package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestPollAgainFencesTwinInTurn: two processes share instance a (KIP-345). Under the default
// reaction the first one fenced stops; when the application catches what poll throws and polls
// again (on-fatal poll-again, Java's KafkaConsumer staying usable), a's heartbeat answered
// FENCED_INSTANCE_ID resets its member id, its next poll joins without one, and the
// coordinator's replacement fences a2 in turn (AbstractCoordinator.HeartbeatResponseHandler,
// pollHeartbeat; docs/protocol.md §1.10). no-fatal holds on every step: each FENCED answer is
// given while the other process holds the instance.
func TestPollAgainFencesTwinInTurn(t *testing.T) {
	script := []string{
		"poll a", "deliver-request a", "join-timeout", "deliver-response a", "assign a",
		"deliver-request a", "deliver-response a", // a leads gen 1 as a#1 and owns t-0, t-1
		"poll a2", "deliver-request a2", // a2 joins without a member id: a#1 is replaced by a2#1
		"heartbeat a", "deliver-request a", "deliver-response a", // a is fenced
		"poll a", "deliver-request a", // a joins without a member id and replaces a2#1
		"deliver-response a2", "deliver-request a2", "deliver-response a2", // a2 is fenced in turn
	}
	for _, tc := range []struct {
		reaction string
		aActive  bool
	}{{"", false}, {"on-fatal poll-again\n", true}} {
		c := config(t, twinClassic+tc.reaction)
		n := len(script)
		if !tc.aActive {
			n = 12 // a stopped: it polls no more
		}
		ws := walk(t, c, script[:n]...)
		for k := 1; k < len(ws); k++ {
			if why := noFatal.Step(&ws[k-1], nil, &ws[k]); why != "" {
				t.Errorf("%q, step %d: no-fatal: %s", tc.reaction, k, why)
			}
		}
		a := ws[12].Slots[0].Client
		if a.Active() != tc.aActive || (tc.aActive && a.MemberID() != impl.NoMemberID) {
			t.Fatalf("%q: a after FENCED_INSTANCE_ID: active %v, member id %q", tc.reaction, a.Active(), a.MemberID())
		}
		if !tc.aActive {
			continue
		}
		last := ws[len(ws)-1]
		if id, _ := last.Coord.StaticMember("a"); !strings.HasPrefix(string(id), "a#") {
			t.Errorf("instance a is held by %q, want a's new member id", id)
		}
		// a2's SyncGroup as a2#1 is answered FENCED_INSTANCE_ID; SyncGroupResponseHandler only
		// raises it, so a2 polls on under a2#1 and will rejoin under it.
		if !fencedReceived(t, ws[len(ws)-2], ws[len(ws)-1], 1) {
			t.Errorf("a2 is not answered FENCED_INSTANCE_ID:\n%s", last)
		}
		if a2 := last.Slots[1].Client; !a2.Active() || a2.MemberID() != "a2#1" || !a2.RejoinNeeded {
			t.Errorf("a2 after its own FENCED_INSTANCE_ID: active %v, member id %q, rejoin %v; want polling on under a2#1", a2.Active(), a2.MemberID(), a2.RejoinNeeded)
		}
	}
}

// fencedReceived reports whether slot i took a FENCED_INSTANCE_ID answer from pre to post.
func fencedReceived(t *testing.T, pre, post spec.World, i int) bool {
	t.Helper()
	in := pre.Slots[i].In
	return len(in) > 0 && len(post.Slots[i].In) == len(in)-1 && in[0].Code() == impl.FencedInstanceID
}
