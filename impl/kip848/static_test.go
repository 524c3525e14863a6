package kip848

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// staticPair: static member s1 (instance i1) and dynamic b, both STABLE at epoch 2.
func staticPair(t *testing.T) Group {
	t.Helper()
	g := New(Config{}, cluster)
	g, _ = step(t, g, staticJoin("s1", "i1", "t"), "")
	g, _ = step(t, g, joinReq("b", "t"), "")
	g, _ = step(t, g, hb("s1", 1, nil), "")
	g, _ = step(t, g, hb("s1", 1, setPtr(g.TargetOf("s1"))), "")
	g, _ = step(t, g, hb("b", 2, nil), "")
	if g.State() != StableGroup {
		t.Fatalf("setup: %s", g)
	}
	return g
}

func temporaryLeave(id impl.MemberID, inst impl.InstanceID) impl.ConsumerGroupHeartbeatRequest {
	r := hb(id, impl.EpochTemporaryLeave, nil)
	r.InstanceID = inst
	return r
}

// Reference: docs/protocol.md §3.6: -2 keeps the assigned partitions at partition epoch -2, does not
// bump the group epoch, and the partitions stay unassignable.
func TestStaticTemporaryLeave(t *testing.T) {
	g := staticPair(t)
	held := g.TargetOf("s1")
	g, out := g.Heartbeat(temporaryLeave("s1", "i1"), "")
	want := impl.ConsumerGroupHeartbeatResponse{MemberID: "s1", MemberEpoch: -2}
	if d := cmp.Diff(want, resp(t, out), cmpOpts); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
	if g.GroupEpoch() != 2 {
		t.Errorf("temporary leave bumped the group epoch to %d", g.GroupEpoch())
	}
	for _, tp := range held.Slice() {
		if e := g.PartitionEpoch(tp); e != -2 {
			t.Errorf("partition epoch of %s = %d, want -2", tp, e)
		}
	}
	if s := member(t, g, "s1"); s.MemberEpoch != -2 || !s.AssignedPartitions.Equal(held) {
		t.Errorf("s1 = %s", s)
	}
	// A heartbeat of the away member at its old epoch is fenced (received > -2).
	if _, out := g.Heartbeat(func() impl.ConsumerGroupHeartbeatRequest { r := hb("s1", 2, nil); r.InstanceID = "i1"; return r }(), ""); resp(t, out).Error != impl.FencedMemberEpoch {
		t.Errorf("heartbeat at epoch 2 after -2 not fenced")
	}
	// A new member cannot take the reserved partitions: a metadata bump puts a newcomer in.
	g, _ = step(t, g, joinReq("c", "t"), "")
	c := member(t, g, "c")
	if c.AssignedPartitions.Intersects(held) {
		t.Errorf("c got reserved partitions: %s", c)
	}
}

// Reference: docs/protocol.md §3.6: the instance returns with epoch 0 under a new member id: it
// replaces the old member, keeps subscription, assignment and target, and causes no bump.
func TestStaticRejoinReplaces(t *testing.T) {
	g := staticPair(t)
	held := g.TargetOf("s1")
	g, _ = step(t, g, temporaryLeave("s1", "i1"), "")
	g, r := step(t, g, staticJoin("", "i1", "t"), "s2")
	if r.MemberID != "s2" || r.MemberEpoch != 2 || r.Assignment == nil || !r.Assignment.Equal(held) {
		t.Errorf("rejoin response = %+v, want s2 at epoch 2 with %s", r, held)
	}
	if _, ok := g.Member("s1"); ok {
		t.Error("old member s1 still present")
	}
	if g.GroupEpoch() != 2 || !g.TargetOf("s2").Equal(held) || g.State() != StableGroup {
		t.Errorf("group = %s, want STABLE at 2 with the target transferred", g)
	}
	if s, _ := g.StaticMember("i1"); s.ID != "s2" {
		t.Errorf("instance i1 held by %q", s.ID)
	}
}

// Reference: docs/protocol.md §3.6: a replacement with another subscription bumps the epoch.
func TestStaticRejoinWithNewSubscriptionBumps(t *testing.T) {
	g := staticPair(t)
	g, _ = step(t, g, temporaryLeave("s1", "i1"), "")
	g, _ = step(t, g, staticJoin("s2", "i1", "t", "u"), "")
	if g.GroupEpoch() != 3 {
		t.Errorf("group epoch = %d, want 3", g.GroupEpoch())
	}
}

func TestStaticErrors(t *testing.T) {
	g := staticPair(t)
	away, _ := g.Heartbeat(temporaryLeave("s1", "i1"), "")
	withInst := func(r impl.ConsumerGroupHeartbeatRequest, inst impl.InstanceID) impl.ConsumerGroupHeartbeatRequest {
		r.InstanceID = inst
		return r
	}
	for _, tc := range []struct {
		name string
		g    Group
		req  impl.ConsumerGroupHeartbeatRequest
		want impl.ErrorCode
	}{
		// Reference: docs/protocol.md §3.6: join while the instance is held by an active member.
		{"join while held", g, staticJoin("s9", "i1", "t"), impl.UnreleasedInstanceID},
		// Kafka's own rule, not a model choice: GroupMetadataManager.
		// throwIfInstanceIdIsUnreleased (apache/kafka 1eb7644) reads only the holder's epoch,
		// so a client-generated id (KIP-1082) re-sent at epoch 0 is refused too (apache/kafka
		// PR #23542, open, would answer it like a dynamic rejoin).
		{"join while held, same member id", g, staticJoin("s1", "i1", "t"), impl.UnreleasedInstanceID},
		// Reference: docs/protocol.md §3.6: static non-join heartbeat rules.
		{"heartbeat of unknown instance", g, withInst(hb("s1", 2, nil), "i9"), impl.UnknownMemberID},
		{"heartbeat from another member id", g, withInst(hb("b", 2, nil), "i1"), impl.FencedInstanceID},
		{"temporary leave of unknown instance", g, temporaryLeave("s1", "i9"), impl.UnknownMemberID},
		{"temporary leave from another member id", g, temporaryLeave("b", "i1"), impl.FencedInstanceID},
		// Model-only guard: the replacing id belongs to another member.
		{"replacement with another member's id", away, staticJoin("b", "i1", "t"), impl.InvalidRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, out := tc.g.Heartbeat(tc.req, "")
			if got := resp(t, out).Error; got != tc.want {
				t.Errorf("error = %s, want %s", got, tc.want)
			}
		})
	}
}

// Reference: docs/protocol.md §3.6: epoch -1 from a static member leaves for good and bumps.
func TestStaticLeaveForGood(t *testing.T) {
	g := staticPair(t)
	r := hb("s1", -1, nil)
	r.InstanceID = "i1"
	g, resp1 := step(t, g, r, "")
	if resp1.MemberEpoch != -1 || g.GroupEpoch() != 3 {
		t.Errorf("response %+v, group %s", resp1, g)
	}
	if _, ok := g.StaticMember("i1"); ok {
		t.Error("instance still held")
	}
	// The instance can now join fresh.
	if _, out := g.Heartbeat(staticJoin("s3", "i1", "t"), ""); resp(t, out).Error != impl.None {
		t.Error("fresh static join refused after leave")
	}
}

// Reference: docs/protocol.md §3.6: the away member's session expires: it is fenced, the epoch bumps
// and its reserved partitions become free.
func TestStaticAwaySessionExpires(t *testing.T) {
	g := staticPair(t)
	held := g.TargetOf("s1")
	g, _ = step(t, g, temporaryLeave("s1", "i1"), "")
	g = g.SessionExpired("s1")
	if g.GroupEpoch() != 3 || g.State() != Assigning {
		t.Fatalf("group = %s, want ASSIGNING at 3", g)
	}
	for _, tp := range held.Slice() {
		if e := g.PartitionEpoch(tp); e != NoPartitionEpoch {
			t.Errorf("%s still at epoch %d", tp, e)
		}
	}
	g, r := step(t, g, hb("b", 2, nil), "")
	if r.Assignment == nil || r.Assignment.Len() != 4 {
		t.Errorf("b's response %+v, want all of t", r)
	}
}
