package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// withJoinReason returns ev with every JoinGroup's reason replaced by r.
func withJoinReason(ev []spec.Event, r impl.JoinReason) []spec.Event {
	out := slices.Clone(ev)
	for k, e := range out {
		if s, ok := e.(spec.SendEvent); ok {
			if j, ok := s.Request.(impl.JoinGroupRequest); ok {
				j.Reason = r
				s.Request = j
				out[k] = s
			}
		}
	}
	return out
}

// rejoinSent says whether ev has a JoinGroup sent by a member that joined before (pre).
func rejoinSent(pre *spec.World, ev []spec.Event) bool {
	return slices.ContainsFunc(ev, func(e spec.Event) bool {
		s, ok := e.(spec.SendEvent)
		_, isJoin := s.Request.(impl.JoinGroupRequest)
		return ok && isJoin && pre.Slots[s.Slot].Client.HasJoined
	})
}

// TestJoinReason: the KIP variant's leader that sees a partition added rejoins with
// TOPIC_METADATA_CHANGE, a member asked for a follow-up with UPGRADE, and a first join says
// RESTART (the property holds on the way); the same JoinGroups with another reason are named,
// and so is a Kafka JoinGroup that carries a KIP-423 reason.
func TestJoinReason(t *testing.T) {
	const kipOne = `protocol cooperative
consumer kip
coordinator kip423
assignor cooperative-sticky
topic t 1
member a topics=t
`
	for _, tc := range []struct {
		budget string
		want   impl.JoinReason
	}{
		{"budget partition-additions=1\n", impl.ReasonTopicMetadataChange},
		{"budget followups=1\n", impl.ReasonUpgrade},
	} {
		c := config(t, kipOne+tc.budget)
		pre, ev, post, _ := shortestStep(t, c, joinReason, func(pre *spec.World, ev []spec.Event, _ *spec.World) bool {
			return rejoinSent(pre, ev) && slices.ContainsFunc(ev, func(e spec.Event) bool {
				s, ok := e.(spec.SendEvent)
				j, isJoin := s.Request.(impl.JoinGroupRequest)
				return ok && isJoin && j.Reason == tc.want
			})
		})
		for _, wrong := range []impl.JoinReason{impl.ReasonUnspecified, impl.ReasonRestart} {
			if got := joinReason.Step(&pre, withJoinReason(ev, wrong), &post); !strings.Contains(got, "rejoins with reason "+wrong.String()) {
				t.Errorf("%s rejoin sent with %s: %q", tc.want, wrong, got)
			}
		}
	}
	c := config(t, kipOne)
	pre, ev, post, _ := shortestStep(t, c, joinReason, func(_ *spec.World, ev []spec.Event, _ *spec.World) bool {
		return slices.ContainsFunc(ev, func(e spec.Event) bool {
			s, ok := e.(spec.SendEvent)
			_, j := s.Request.(impl.JoinGroupRequest)
			return ok && j
		})
	})
	if got := joinReason.Step(&pre, withJoinReason(ev, impl.ReasonUnspecified), &post); !strings.Contains(got, "its cause says "+impl.ReasonRestart.String()) {
		t.Errorf("first join without RESTART: %q", got)
	}
	k := config(t, twoMembers)
	pre, ev, post, _ = shortestStep(t, k, joinReason, func(_ *spec.World, ev []spec.Event, _ *spec.World) bool {
		return slices.ContainsFunc(ev, func(e spec.Event) bool {
			s, ok := e.(spec.SendEvent)
			_, j := s.Request.(impl.JoinGroupRequest)
			return ok && j
		})
	})
	if got := joinReason.Step(&pre, withJoinReason(ev, impl.ReasonRestart), &post); !strings.Contains(got, "its cause says "+impl.ReasonUnspecified.String()) {
		t.Errorf("Kafka JoinGroup with RESTART: %q", got)
	}
}
