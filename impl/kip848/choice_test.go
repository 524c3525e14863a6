package kip848

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// HeartbeatTargeting reconciles the member against the entry it is given, whatever the
// configured assignor would compute, and keeps the target one assignment.
func TestHeartbeatTargeting(t *testing.T) {
	g := twoMembers(t, Config{}) // a STABLE at 1 holding t-0..t-3; group epoch 2
	for _, tc := range []struct {
		name      string
		id        impl.MemberID
		x         string
		epoch     impl.Epoch
		state     MemberState
		assigned  string
		aTargeted string // a's target entry afterwards
	}{
		// The uniform assignor gave a (t-2 t-3) at epoch 2. b may have only what nobody
		// holds: a holds everything, so b waits, and a's entry loses t-2 to b.
		{"b targeted held partitions", "b", "t-0 t-2", 2, UnreleasedPartitions, "", "t-3"},
		{"b targeted nothing", "b", "", 2, Stable, "", "t-2 t-3"},
		// a keeps its target: stable at the new epoch with all four.
		{"a targeted all it holds", "a", "t-0 t-1 t-2 t-3", 2, Stable, "t-0 t-1 t-2 t-3", "t-0 t-1 t-2 t-3"},
		// a told to give up t-3 while owning it: it revokes at its epoch.
		{"a targeted three", "a", "t-0 t-1 t-2", 1, UnrevokedPartitions, "t-0 t-1 t-2", "t-0 t-1 t-2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := hb(tc.id, 1, owned("t-0 t-1 t-2 t-3"))
			if tc.id == "b" {
				req = hb("b", 2, owned(""))
			}
			ng, out := g.HeartbeatTargeting(req, "", ps(tc.x), false)
			if r := resp(t, out); r.Error != impl.None {
				t.Fatalf("error %s", r.Error)
			}
			m := member(t, ng, tc.id)
			if m.MemberEpoch != tc.epoch || m.State != tc.state || !m.AssignedPartitions.Equal(ps(tc.assigned)) {
				t.Errorf("%s = %s, want epoch %d %s assigned (%s)", tc.id, m, tc.epoch, tc.state, tc.assigned)
			}
			if got := ng.TargetOf("a"); !got.Equal(ps(tc.aTargeted)) {
				t.Errorf("a's target entry = %s, want (%s)", got, tc.aTargeted)
			}
		})
	}
}

// A deferred target leaves the group Assigning and answers a joiner at the old assignment
// epoch; a new group may start at epoch 1 (KAFKA-20268).
func TestHeartbeatTargetingDeferred(t *testing.T) {
	g := New(Config{}, cluster).StartingAt(1)
	g, out := g.HeartbeatTargeting(joinReq("a", "t"), "", ps("t-0 t-1 t-2 t-3"), false)
	if r := resp(t, out); r.MemberEpoch != 2 || !r.Assignment.Equal(ps("t-0 t-1 t-2 t-3")) {
		t.Fatalf("first join = %+v, want epoch 2 with all of t", r)
	}
	g, out = g.HeartbeatTargeting(joinReq("b", "t"), "", ps(""), true)
	if r := resp(t, out); r.MemberEpoch != 2 || !r.Assignment.IsEmpty() || g.State() != Assigning || g.GroupEpoch() != 3 {
		t.Fatalf("deferred join = %+v in %s, want epoch 2, nothing, group Assigning at 3", r, g)
	}
}
