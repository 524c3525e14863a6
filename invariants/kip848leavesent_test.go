package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848client"
	"github.com/groupcheck/groupcheck/spec"
)

// sendsLeave is a step's predicate: some client sends a leave heartbeat in it.
func sendsLeave(_ *spec.World, ev []spec.Event, _ *spec.World) bool {
	return slices.ContainsFunc(ev, func(e spec.Event) bool {
		s, ok := e.(spec.SendEvent)
		h, hb := s.Request.(impl.ConsumerGroupHeartbeatRequest)
		return ok && hb && h.MemberEpoch < 0
	})
}

// forgeSends rewrites a step's heartbeat sends with f (nil drops one).
func forgeSends(ev []spec.Event, f func(impl.ConsumerGroupHeartbeatRequest) *impl.ConsumerGroupHeartbeatRequest) []spec.Event {
	var out []spec.Event
	for _, e := range ev {
		if s, ok := e.(spec.SendEvent); ok {
			if h, ok := s.Request.(impl.ConsumerGroupHeartbeatRequest); ok {
				if n := f(h); n != nil {
					s.Request = *n
					out = append(out, s)
				}
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// TestKIP848LeaveSent: kip848-leave-sent holds on the real close of a dynamic and of a static
// member; a close that sends nothing, a dynamic leave with -2, a static one with -1 and a
// heartbeat at a member epoch from a client without a subscription are named.
func TestKIP848LeaveSent(t *testing.T) {
	static := strings.ReplaceAll(kip848Pair, "topics=t\n", "topics=t static\n")
	for _, world := range []string{kip848Pair, static} {
		c := config(t, world+"budget leaves=1\n")
		pre, ev, post, _ := shortestStep(t, c, kip848LeaveSent, sendsLeave)
		if got := kip848LeaveSent.Step(&pre, ev, &post); got != "" {
			t.Fatalf("the real leave: %s", got)
		}
		silent := forgeSends(ev, func(impl.ConsumerGroupHeartbeatRequest) *impl.ConsumerGroupHeartbeatRequest { return nil })
		if got := kip848LeaveSent.Step(&pre, silent, &post); !strings.Contains(got, "neither sends its leave") {
			t.Errorf("%s: a close without its leave: %q", world, got)
		}
		other := forgeSends(ev, func(h impl.ConsumerGroupHeartbeatRequest) *impl.ConsumerGroupHeartbeatRequest {
			h.MemberEpoch = impl.EpochLeave + impl.EpochTemporaryLeave - h.MemberEpoch // -1 ↔ -2
			return &h
		})
		if got := kip848LeaveSent.Step(&pre, other, &post); !strings.Contains(got, "leaves with epoch") {
			t.Errorf("%s: the other leave epoch: %q", world, got)
		}
		stays := forgeSends(ev, func(h impl.ConsumerGroupHeartbeatRequest) *impl.ConsumerGroupHeartbeatRequest {
			h.MemberEpoch = 1
			return &h
		})
		if got := kip848LeaveSent.Step(&pre, stays, &post); !strings.Contains(got, "has no subscription") {
			t.Errorf("%s: a heartbeat without subscription: %q", world, got)
		}
	}
}

// TestKIP848LeaveSentNotWhenFenced: a member whose session expires while its leave waits for
// the heartbeat in flight is answered UNKNOWN_MEMBER_ID and completes its leave without
// sending it; kip848-leave-sent holds there and names the same step with the leave sent.
func TestKIP848LeaveSentNotWhenFenced(t *testing.T) {
	c := config(t, kip848Pair+"budget leaves=1 session-timeouts=1\n")
	pre, ev, post, _ := shortestStep(t, c, kip848LeaveSent, func(pre *spec.World, ev []spec.Event, _ *spec.World) bool {
		return slices.ContainsFunc(ev, func(e spec.Event) bool {
			r, ok := e.(spec.ReceiveEvent)
			return ok && fencedBy(ev, r.Slot) && pre.Slots[r.Slot].Member.Status == kip848client.Leaving
		})
	})
	if got := kip848LeaveSent.Step(&pre, ev, &post); got != "" {
		t.Fatalf("the real fencing: %s", got)
	}
	var i int
	for _, e := range ev {
		if r, ok := e.(spec.ReceiveEvent); ok {
			i = r.Slot
		}
	}
	m := pre.Slots[i].Member
	leave := spec.SendEvent{Slot: i, Name: name(&pre, i), Request: impl.ConsumerGroupHeartbeatRequest{MemberID: m.ID, MemberEpoch: impl.EpochLeave}}
	if got := kip848LeaveSent.Step(&pre, append(slices.Clone(ev), leave), &post); !strings.Contains(got, "told it is fenced and still sends its leave") {
		t.Errorf("a fenced member's leave: %q", got)
	}
}
