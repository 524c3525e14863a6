package traces

import (
	"testing"

	"github.com/groupcheck/groupcheck/spec"
)

// TestMermaidActor: the coordinator's timers and the cluster's changes are drawn on the
// coordinator, a member's actions on the member; a KIP-848 rebalance timeout (which names a
// member id, not a slot) was drawn on the first member.
func TestMermaidActor(t *testing.T) {
	tr := &Trace{Config: spec.Config{Members: []spec.MemberConfig{{Name: "a"}, {Name: "b"}}}}
	for _, tc := range []struct {
		a    spec.Action
		want string
	}{
		{spec.Action{Kind: spec.RebalanceTimeout, Member: "b#1"}, "coord"},
		{spec.Action{Kind: spec.SessionExpiry, Member: "b#1"}, "coord"},
		{spec.Action{Kind: spec.AddPartition, Topic: "t"}, "coord"},
		{spec.Action{Kind: spec.Crash, Slot: 1}, "m_b"},
		{spec.Action{Kind: spec.Poll, Slot: 0}, "m_a"},
	} {
		if got := actor(tr, tc.a); got != tc.want {
			t.Errorf("%s: drawn on %s, want %s", tc.a.Kind, got, tc.want)
		}
	}
}
