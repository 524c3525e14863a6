package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// kip848Pair is two KIP-848 members of one two-partition topic.
const kip848Pair = "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t\nmember b topics=t\n"

// callbackOf is a step's predicate: slot i calls a callback of kind k in it.
func callbackOf(k consumer.CallbackKind) func(*spec.World, []spec.Event, *spec.World) bool {
	return func(_ *spec.World, ev []spec.Event, _ *spec.World) bool {
		return slices.ContainsFunc(ev, func(e spec.Event) bool {
			cb, ok := e.(spec.CallbackEvent)
			return ok && cb.Kind == k && !cb.Partitions.IsEmpty()
		})
	}
}

// forge rewrites a step's callbacks with f (nil drops one).
func forge(ev []spec.Event, f func(spec.CallbackEvent) *spec.CallbackEvent) []spec.Event {
	var out []spec.Event
	for _, e := range ev {
		if cb, ok := e.(spec.CallbackEvent); ok {
			if n := f(cb); n != nil {
				out = append(out, *n)
			}
			continue
		}
		out = append(out, e)
	}
	return out
}

// TestKIP848Listener: kip848-listener holds on the real steps of KIP-848 worlds (a join, a
// leave, a fencing, a rebalance that only revokes) and names each forged breach of the
// listener contract: a join without its closing onPartitionsAssigned, an empty revocation,
// a leave reported lost, a revoke-only reconciliation without onPartitionsAssigned.
func TestKIP848Listener(t *testing.T) {
	// The first assignment after joining (a's join, which adds both partitions).
	c := config(t, kip848Pair)
	pre, ev, post, _ := shortestStep(t, c, kip848Listener, callbackOf(consumer.Assigned))
	if got := kip848Listener.Step(&pre, ev, &post); got != "" {
		t.Fatalf("the real join: %s", got)
	}
	if got := kip848Listener.Step(&pre, withoutAssigned(ev), &post); !strings.Contains(got, "without onPartitionsAssigned") {
		t.Errorf("join without onPartitionsAssigned: %q", got)
	}
	emptyRevoke := append(slices.Clone(ev), spec.CallbackEvent{Slot: 0, Name: "a", Kind: consumer.Revoked})
	if got := kip848Listener.Step(&pre, emptyRevoke, &post); !strings.Contains(got, "with no partitions") {
		t.Errorf("empty revocation: %q", got)
	}

	// A leave: a owns a partition and closes; onPartitionsRevoked, never lost.
	c = config(t, kip848Pair+"budget leaves=1\n")
	pre, ev, post, _ = shortestStep(t, c, kip848Listener, func(pre *spec.World, ev []spec.Event, post *spec.World) bool {
		return callbackOf(consumer.Revoked)(pre, ev, post) && slices.ContainsFunc(ev, func(e spec.Event) bool {
			s, ok := e.(spec.SendEvent)
			h, hb := s.Request.(impl.ConsumerGroupHeartbeatRequest)
			return ok && hb && h.MemberEpoch < 0
		})
	})
	if got := kip848Listener.Step(&pre, ev, &post); got != "" {
		t.Fatalf("the real leave: %s", got)
	}
	lost := forge(ev, func(cb spec.CallbackEvent) *spec.CallbackEvent { cb.Kind = consumer.Lost; return &cb })
	if got := kip848Listener.Step(&pre, lost, &post); !strings.Contains(got, "neither fenced nor failed") {
		t.Errorf("a leave reported lost: %q", got)
	}

	// A fencing (a session expiry): onPartitionsLost is due there.
	c = config(t, kip848Pair+"budget session-timeouts=1\n")
	pre, ev, post, _ = shortestStep(t, c, kip848Listener, callbackOf(consumer.Lost))
	if got := kip848Listener.Step(&pre, ev, &post); got != "" {
		t.Fatalf("the real fencing: %s", got)
	}

	// A rebalance that only revokes (b joins, a gives a partition up): its reconciliation
	// ends with onPartitionsAssigned of nothing.
	c = config(t, strings.Replace(kip848Pair, "member b topics=t\n", "member b topics=t absent\n", 1)+"budget joins=1\n")
	pre, ev, post, _ = shortestStep(t, c, kip848Listener, func(pre *spec.World, ev []spec.Event, post *spec.World) bool {
		return callbackOf(consumer.Revoked)(pre, ev, post) && post.Slots[0].Process == spec.Running
	})
	if got := kip848Listener.Step(&pre, ev, &post); got != "" {
		t.Fatalf("the real revocation: %s", got)
	}
	if got := kip848Listener.Step(&pre, withoutAssigned(ev), &post); !strings.Contains(got, "ends without onPartitionsAssigned") {
		t.Errorf("a revocation without onPartitionsAssigned: %q", got)
	}
}

// withoutAssigned drops a step's onPartitionsAssigned callbacks.
func withoutAssigned(ev []spec.Event) []spec.Event {
	return forge(ev, func(cb spec.CallbackEvent) *spec.CallbackEvent {
		if cb.Kind == consumer.Assigned {
			return nil
		}
		return &cb
	})
}

// without is ev less its events of type T.
func without[T spec.Event](ev []spec.Event) []spec.Event {
	var out []spec.Event
	for _, e := range ev {
		if _, ok := e.(T); !ok {
			out = append(out, e)
		}
	}
	return out
}
