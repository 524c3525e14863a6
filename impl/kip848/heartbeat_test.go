package kip848

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

func TestHeartbeatRequestValidation(t *testing.T) {
	g := twoMembers(t, Config{})
	for _, tc := range []struct {
		name string
		req  impl.ConsumerGroupHeartbeatRequest
		want impl.ErrorCode
	}{
		// Reference: docs/protocol.md §3.1 request validation.
		{"join without subscription", impl.ConsumerGroupHeartbeatRequest{MemberEpoch: 0, OwnedPartitions: owned("")}, impl.InvalidRequest},
		{"join with empty subscription", impl.ConsumerGroupHeartbeatRequest{MemberEpoch: 0, SubscribedTopicNames: []string{}, OwnedPartitions: owned("")}, impl.InvalidRequest},
		{"join without owned partitions", impl.ConsumerGroupHeartbeatRequest{MemberEpoch: 0, SubscribedTopicNames: []string{"t"}}, impl.InvalidRequest},
		{"join owning partitions", impl.ConsumerGroupHeartbeatRequest{MemberEpoch: 0, SubscribedTopicNames: []string{"t"}, OwnedPartitions: owned("t-0")}, impl.InvalidRequest},
		{"heartbeat without member id", impl.ConsumerGroupHeartbeatRequest{MemberEpoch: 2}, impl.InvalidRequest},
		{"leave without member id", impl.ConsumerGroupHeartbeatRequest{MemberEpoch: -1}, impl.InvalidRequest},
		{"temporary leave without instance id", impl.ConsumerGroupHeartbeatRequest{MemberID: "a", MemberEpoch: -2}, impl.InvalidRequest},
		{"epoch -3", impl.ConsumerGroupHeartbeatRequest{MemberID: "a", MemberEpoch: -3}, impl.InvalidRequest},
		{"unknown server assignor", func() impl.ConsumerGroupHeartbeatRequest {
			r := joinReq("c", "t")
			r.ServerAssignor = "sticky"
			return r
		}(), impl.UnsupportedAssignor},
		// Reference: docs/protocol.md §3.3 step 3: non-join heartbeats need a known member.
		{"heartbeat from unknown member", hb("zz", 3, nil), impl.UnknownMemberID},
		{"leave of unknown member", hb("zz", -1, nil), impl.UnknownMemberID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ng, out := g.Heartbeat(tc.req, "fresh")
			if got := resp(t, out); got.Error != tc.want {
				t.Errorf("error = %s, want %s", got.Error, tc.want)
			}
			if d := cmp.Diff(g.AppendEncoding(nil), ng.AppendEncoding(nil)); d != "" {
				t.Errorf("a refused request changed the group:\n%s", d)
			}
		})
	}
}

// Reference: docs/protocol.md §3.3 steps 2–7: the first member joins, the group epoch is bumped, the
// target is computed, the member reconciles straight to it and gets the full assignment.
func TestHeartbeatFirstJoin(t *testing.T) {
	g := New(Config{}, cluster)
	g, out := g.Heartbeat(joinReq("", "t"), "a")
	want := impl.ConsumerGroupHeartbeatResponse{MemberID: "a", MemberEpoch: 1, Assignment: owned("t-0 t-1 t-2 t-3")}
	if d := cmp.Diff(want, resp(t, out), cmpOpts); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
	if out[0].To != 1 {
		t.Errorf("reply to conn %d, want 1", out[0].To)
	}
	if g.GroupEpoch() != 1 || g.AssignmentEpoch() != 1 || g.State() != StableGroup {
		t.Errorf("group = %s, want STABLE at epoch 1", g)
	}
	if e := g.PartitionEpoch(impl.TP("t", 2)); e != 1 {
		t.Errorf("partition epoch of t-2 = %d, want 1", e)
	}
}

// Reference: docs/protocol.md §3.3–3.4: a second member joins; the first must revoke before the
// second gets those partitions; the ack releases them; both end STABLE at epoch 2.
func TestHeartbeatSecondJoinFullRebalance(t *testing.T) {
	g := twoMembers(t, Config{})
	if b := member(t, g, "b"); b.State != UnreleasedPartitions || !b.AssignedPartitions.IsEmpty() || b.MemberEpoch != 2 {
		t.Fatalf("b after join = %s, want UNRELEASED at 2 with nothing", b)
	}
	if got := g.TargetOf("a").Union(g.TargetOf("b")); !got.Equal(ps("t-0 t-1 t-2 t-3")) || g.TargetOf("a").Len() != 2 {
		t.Fatalf("target = %v, want a balanced split of t", g.Target())
	}
	g, r := step(t, g, hb("a", 1, nil), "")
	a := member(t, g, "a")
	if a.State != UnrevokedPartitions || a.MemberEpoch != 1 || !a.RebalanceTimer.Armed || a.RebalanceTimer.Epoch != 1 {
		t.Fatalf("a = %s, want UNREVOKED at 1 with timer@1", a)
	}
	if r.Assignment == nil || !r.Assignment.Equal(g.TargetOf("a")) || r.MemberEpoch != 1 {
		t.Fatalf("a's response = %+v, want its kept partitions at epoch 1", r)
	}
	// b heartbeats again: still unreleased.
	g, r = step(t, g, hb("b", 2, nil), "")
	if r.Assignment != nil {
		t.Errorf("b got an unchanged assignment in a non-full response: %v", r.Assignment)
	}
	// a acknowledges.
	g, r = step(t, g, hb("a", 1, setPtr(g.TargetOf("a"))), "")
	if a := member(t, g, "a"); !a.IsStableAt(2) || a.RebalanceTimer.Armed {
		t.Fatalf("a after ack = %s, want STABLE at 2, timer cancelled", a)
	}
	if r.Assignment != nil {
		t.Errorf("a's assignment did not change but was sent: %v", r.Assignment)
	}
	g, r = step(t, g, hb("b", 2, nil), "")
	if r.Assignment == nil || !r.Assignment.Equal(g.TargetOf("b")) {
		t.Errorf("b's response = %+v, want its target", r)
	}
	if g.State() != StableGroup {
		t.Errorf("group = %s, want STABLE", g)
	}
}

func TestHeartbeatMemberEpochValidation(t *testing.T) {
	// a: STABLE at 2, previous 1, assigned two partitions of t after the second join settled.
	g := twoMembers(t, Config{})
	g, _ = step(t, g, hb("a", 1, nil), "")
	g, _ = step(t, g, hb("a", 1, setPtr(g.TargetOf("a"))), "")
	mine := g.TargetOf("a")
	for _, tc := range []struct {
		name  string
		epoch impl.Epoch
		owned *impl.PartitionSet
		want  impl.ErrorCode
	}{
		// Reference: docs/protocol.md §3.3 step 3 (throwIfConsumerGroupMemberEpochIsInvalid).
		{"current epoch", 2, nil, impl.None},
		{"epoch from the future", 3, nil, impl.FencedMemberEpoch},
		{"previous epoch, owned ⊆ assigned (lost response)", 1, setPtr(mine), impl.None},
		{"previous epoch, owned empty", 1, owned(""), impl.None},
		{"previous epoch, owned unknown", 1, nil, impl.FencedMemberEpoch},
		{"previous epoch, owns someone else's partition", 1, setPtr(g.TargetOf("b")), impl.FencedMemberEpoch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := hb("a", tc.epoch, tc.owned)
			want := tc.want
			_, out := g.Heartbeat(req, "")
			if got := resp(t, out).Error; got != want {
				t.Errorf("error = %s, want %s", got, want)
			}
		})
	}
}

// Reference: docs/protocol.md §3.3 step 3 note / KAFKA-19233: an existing member rejoining with epoch
// 0 is accepted in the correct reference (both variants); the response is full.
func TestHeartbeatRejoinWithEpochZero(t *testing.T) {
	for _, v := range []impl.Variant{impl.Kafka, impl.KIP} {
		t.Run(v.String(), func(t *testing.T) {
			g := twoMembers(t, Config{Variant: v})
			g, _ = step(t, g, hb("a", 1, nil), "")
			g, _ = step(t, g, hb("a", 1, setPtr(g.TargetOf("a"))), "") // a STABLE at 2, previous 1
			g, r := step(t, g, joinReq("a", "t"), "")
			if r.MemberEpoch != 2 || r.Assignment == nil || !r.Assignment.Equal(g.TargetOf("a")) {
				t.Errorf("rejoin response = %+v, want epoch 2 with a's assignment", r)
			}
			if g.GroupEpoch() != 2 {
				t.Errorf("rejoin with the same subscription bumped the group epoch to %d", g.GroupEpoch())
			}
		})
	}
}

// Reference: docs/protocol.md §3.3 step 4: a subscription change bumps the group epoch and the next
// target follows it; an unchanged subscription does not.
func TestHeartbeatSubscriptionChange(t *testing.T) {
	g := New(Config{}, cluster)
	g, _ = step(t, g, joinReq("a", "t"), "")
	req := hb("a", 1, nil)
	req.SubscribedTopicNames = []string{"t"}
	g, _ = step(t, g, req, "")
	if g.GroupEpoch() != 1 {
		t.Fatalf("unchanged subscription bumped to %d", g.GroupEpoch())
	}
	req.SubscribedTopicNames = []string{"u", "t", "u"}
	g, r := step(t, g, req, "")
	if g.GroupEpoch() != 2 || !g.TargetOf("a").Equal(ps("t-0 t-1 t-2 t-3 u-0 u-1")) {
		t.Fatalf("after subscribing to u: %s", g)
	}
	if r.MemberEpoch != 2 || r.Assignment == nil || r.Assignment.Len() != 6 {
		t.Errorf("response = %+v, want epoch 2 with 6 partitions", r)
	}
	if got := member(t, g, "a").SubscribedTopics; !cmp.Equal(got, []string{"t", "u"}) {
		t.Errorf("subscription = %v, want sorted, deduplicated", got)
	}
	// Unsubscribing from everything revokes everything.
	req = hb("a", 2, nil)
	req.SubscribedTopicNames = []string{}
	g, r = step(t, g, req, "")
	if a := member(t, g, "a"); a.State != UnrevokedPartitions || !a.AssignedPartitions.IsEmpty() || a.PartitionsPendingRevocation.Len() != 6 {
		t.Errorf("after unsubscribing: %s", a)
	}
	if r.Assignment == nil || !r.Assignment.IsEmpty() {
		t.Errorf("response assignment = %v, want empty", r.Assignment)
	}
}

// Reference: docs/protocol.md §3.3 step 2: group.consumer.max.size.
func TestHeartbeatMaxSize(t *testing.T) {
	g := New(Config{MaxSize: 1}, cluster)
	g, _ = step(t, g, joinReq("a", "t"), "")
	if _, out := g.Heartbeat(joinReq("b", "t"), ""); resp(t, out).Error != impl.GroupMaxSizeReached {
		t.Errorf("second member admitted beyond max size")
	}
	if _, out := g.Heartbeat(joinReq("a", "t"), ""); resp(t, out).Error != impl.None {
		t.Errorf("existing member refused at max size")
	}
}

// Reference: the reference never invents member ids (doc.go): a join without id needs one.
func TestHeartbeatFreshIDContract(t *testing.T) {
	g := New(Config{}, cluster)
	g, _ = step(t, g, joinReq("a", "t"), "")
	for name, fresh := range map[string]impl.MemberID{"empty": "", "reused": "a"} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			g.Heartbeat(joinReq("", "t"), fresh)
		})
	}
}

// Reference: docs/protocol.md §3.3 step 5: HeartbeatAssign installs the given assignor's target, and
// an invalid one is a broken contract.
func TestHeartbeatAssign(t *testing.T) {
	g := New(Config{}, cluster)
	var seen AssignmentSpec
	pick := func(s AssignmentSpec) Target { seen = s; return AllTargets(s)[0] }
	g, _ = g.HeartbeatAssign(joinReq("a", "t"), "", pick)
	if len(seen.Members) != 1 || seen.Members[0].ID != "a" {
		t.Errorf("assignor saw %+v", seen)
	}
	defer func() {
		if recover() == nil {
			t.Error("invalid target accepted")
		}
	}()
	g.HeartbeatAssign(joinReq("b", "t"), "", func(s AssignmentSpec) Target { return nil })
}

// Reference: docs/protocol.md §3.3 step 3: an epoch older than the previous one is fenced even with
// owned ⊆ assigned.
func TestHeartbeatEpochOlderThanPrevious(t *testing.T) {
	g := New(Config{}, cluster)
	g, _ = step(t, g, joinReq("a", "t"), "")                                             // a at 1
	g = g.MetadataChanged(impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 5})) // epoch 2
	g, _ = step(t, g, hb("a", 1, nil), "")                                               // a at 2, prev 1
	g = g.MetadataChanged(impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 6})) // epoch 3
	g, _ = step(t, g, hb("a", 2, nil), "")                                               // a at 3, prev 2
	if a := member(t, g, "a"); a.MemberEpoch != 3 || a.PreviousMemberEpoch != 2 {
		t.Fatalf("setup: a = %s", a)
	}
	if _, out := g.Heartbeat(hb("a", 1, owned("")), ""); resp(t, out).Error != impl.FencedMemberEpoch {
		t.Errorf("epoch 1 at member epoch 3 (previous 2) accepted")
	}
	if _, out := g.Heartbeat(hb("a", 2, owned("t-0")), ""); resp(t, out).Error != impl.None {
		t.Errorf("previous epoch 2 with owned ⊆ assigned refused")
	}
}
