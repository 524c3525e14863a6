package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl/kip848client"
	"github.com/groupcheck/groupcheck/spec"
)

// TestPromptKIP848HeldHeartbeat: prompt's KIP-848 half bites on a member that is JOINING
// with no heartbeat in flight — the world the reference never rests in, since the client
// sends the join heartbeat at once (docs/protocol.md §3.7, shouldHeartbeatNow). The world is
// the reference's initial one, with the in-flight marker taken away.
func TestPromptKIP848HeldHeartbeat(t *testing.T) {
	c := config(t, twoKIP848)
	joining := spec.Init(c)
	if s := joining.Slots[0].Member; s.State() != kip848client.Joining || !s.InFlight() {
		t.Fatalf("a starts %s, in flight %v; want JOINING with its heartbeat sent", s.State(), s.InFlight())
	}
	if why := prompt.State(&joining); why != "" {
		t.Fatalf("the reference's JOINING world: %s", why)
	}
	held := joining
	held.Slots = slices.Clone(joining.Slots)
	for i, s := range held.Slots {
		if s.Member.State() == kip848client.Joining {
			cp, m := *s, *s.Member
			m.Heartbeat.Active = false
			cp.Member = &m
			held.Slots[i] = &cp
		}
	}
	if why := prompt.State(&held); !strings.Contains(why, "is JOINING with no heartbeat in flight") {
		t.Errorf("a held join heartbeat: %q", why)
	}
}
