package consumer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// TestKIPJoinTriggers drives each docs/protocol.md §7.1 trigger from a STABLE cooperative member of the
// variant KIP owning t-0 and u-0, up to and including its next JoinGroup.
func TestKIPJoinTriggers(t *testing.T) {
	cfg := testConfig(impl.KIP)
	owned := P("t", 0).Union(P("u", 0))
	commit := `send OffsetCommit member="m1" gen=3 (t-0 u-0)`
	for _, tc := range []struct {
		name   string
		inputs []Input
		want   []string // effects of all inputs, in order
		owned  impl.PartitionSet
	}{
		// Reference: KIP-429 §1.a — revoke all, join with empty owned partitions.
		{"a subscription change revokes all", []Input{SubscriptionChanged{Topics: []string{"t"}}, PollTick{}},
			[]string{commit, "callback revoked (t-0 u-0)", `send JoinGroup v9 member="m1" topics=[t] owned=() gen=3`},
			impl.PartitionSet{}},
		// Reference: KIP-429 §1.b — a follower loses vanished partitions and does not rejoin.
		{"b metadata change on a follower loses vanished partitions only", []Input{
			MetadataChanged{Cluster: impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 3})}, PollTick{}},
			[]string{"callback lost (u-0)"}, P("t", 0)},
		// Reference: KIP-429 §1.c (heartbeat)
		{"c heartbeat rebalance in progress revokes all", []Input{HeartbeatTick{},
			Received{Response: impl.HeartbeatResponse{Error: impl.RebalanceInProgress}}, PollTick{}},
			[]string{`send Heartbeat member="m1" gen=3`, commit, "callback revoked (t-0 u-0)",
				`send JoinGroup v9 member="m1" topics=[t u] owned=() gen=3`},
			impl.PartitionSet{}},
		// Reference: KIP-429 §1.c (commit)
		{"c commit rebalance in progress revokes all", []Input{CommitTick{},
			Received{Response: impl.OffsetCommitResponse{Error: impl.RebalanceInProgress}}, PollTick{}},
			[]string{commit, `commit-result refused error=REBALANCE_IN_PROGRESS gen=3 (t-0 u-0)`, commit,
				"callback revoked (t-0 u-0)", `send JoinGroup v9 member="m1" topics=[t u] owned=() gen=3`},
			impl.PartitionSet{}},
		// Reference: KIP-429 §1.d — revoke all, re-send with the new member id at once.
		{"d member id required revokes all", []Input{PollTimeout{}, PollTick{},
			Received{Response: impl.JoinGroupResponse{Error: impl.MemberIDRequired, MemberID: "m2"}}},
			[]string{`send LeaveGroup members=1`, "callback lost (t-0 u-0)",
				`send JoinGroup v9 member="" topics=[t u] owned=() gen=-1`,
				`send JoinGroup v9 member="m2" topics=[t u] owned=() gen=-1`},
			impl.PartitionSet{}},
		// Reference: KIP-429 §1.e — lose all, join with empty owned partitions.
		{"e unknown member id loses all", []Input{HeartbeatTick{},
			Received{Response: impl.HeartbeatResponse{Error: impl.UnknownMemberID}}, PollTick{}},
			[]string{`send Heartbeat member="m1" gen=3`, "callback lost (t-0 u-0)",
				`send JoinGroup v9 member="" topics=[t u] owned=() gen=-1`},
			impl.PartitionSet{}},
		// Reference: KIP-429 §1.e — ILLEGAL_GENERATION keeps the member id.
		{"e illegal generation loses all and keeps the member id", []Input{HeartbeatTick{},
			Received{Response: impl.HeartbeatResponse{Error: impl.IllegalGeneration}}, PollTick{}},
			[]string{`send Heartbeat member="m1" gen=3`, "callback lost (t-0 u-0)",
				`send JoinGroup v9 member="m1" topics=[t u] owned=() gen=-1`},
			impl.PartitionSet{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := stableConsumer(cfg, owned)
			var all []Effect
			for _, in := range tc.inputs {
				var effs []Effect
				c, effs = c.Step(in)
				all = append(all, effs...)
			}
			if d := cmp.Diff(tc.want, render(all)); d != "" {
				t.Errorf("effects (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.owned, c.Owned(), cmpOpts); d != "" {
				t.Errorf("owned (-want +got):\n%s", d)
			}
		})
	}
}

func TestKIPLeaderMetadataChangeRejoinsKeepingOwned(t *testing.T) {
	// Reference: KIP-429 §1.b — the leader keeps its (still existing) partitions, loses the
	// vanished ones and sends JoinGroup with reason TOPIC_METADATA_CHANGE (KIP-423).
	c := stableConsumer(testConfig(impl.KIP), P("t", 0, 2))
	c.Leader = true
	c.GroupTopics = []string{"t", "u"}
	c.AssignmentSnapshot = snapshotOf(testCluster, c.GroupTopics)
	c, effs := c.MetadataChanged(impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 2}, impl.TopicMetadata{Name: "u", Partitions: 2}))
	if d := cmp.Diff([]string{"callback lost (t-2)"}, render(effs)); d != "" {
		t.Errorf("metadata change effects (-want +got):\n%s", d)
	}
	c, effs = c.PollTick()
	reqs := sent(effs)
	join, ok := reqs[len(reqs)-1].(impl.JoinGroupRequest)
	if !ok || join.Reason != impl.ReasonTopicMetadataChange || !join.Protocols[0].Metadata.OwnedPartitions.Equal(P("t", 0)) {
		t.Errorf("leader rejoin = %+v", reqs)
	}
	if len(callbacks(effs)) != 0 {
		t.Errorf("metadata rejoin revoked: %v", callbacks(effs))
	}
}

func TestKIPFirstJoinReasonIsRestart(t *testing.T) {
	// Reference: KIP-423 (docs/protocol.md §4) — RESTART from a restarted/new consumer; Kafka sends none.
	for _, v := range []impl.Variant{impl.KIP, impl.Kafka} {
		c, _ := New(testConfig(v), testCluster).Subscribe([]string{"t"})
		_, effs := c.PollTick()
		want := impl.ReasonUnspecified
		if v == impl.KIP {
			want = impl.ReasonRestart
		}
		if got := sent(effs)[0].(impl.JoinGroupRequest).Reason; got != want {
			t.Errorf("%v first join reason = %v, want %v", v, got, want)
		}
	}
}

func TestApplySyncGroup(t *testing.T) {
	for _, tc := range []struct {
		name            string
		owned, assigned impl.PartitionSet
		want            SyncPlan
	}{
		// Reference: KIP-429 §3.1–3.2
		{"first assignment adds everything", impl.PartitionSet{}, P("t", 0, 1), SyncPlan{Added: P("t", 0, 1), Owned: P("t", 0, 1)}},
		{"moved partitions are revoked and new ones added", P("t", 0, 1), P("t", 1, 2),
			SyncPlan{Added: P("t", 2), Revoked: P("t", 0), Owned: P("t", 1, 2)}},
		{"same assignment changes nothing", P("t", 0), P("t", 0), SyncPlan{Owned: P("t", 0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, ApplySyncGroup(tc.owned, tc.assigned), cmpOpts); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestKIPSync(t *testing.T) {
	for _, tc := range []struct {
		name       string
		assignment impl.Assignment
		want       []string
		wantState  ClientState
	}{
		// Reference: KIP-429 §3.3–3.5.1 — Assigned, then Revoked; NONE completes the round.
		{"none completes the round", impl.Assignment{Partitions: P("t", 1, 2)},
			[]string{"callback assigned (t-2)", "callback revoked (t-0)"}, Stable},
		// Reference: KIP-429 §3.5.2, §1.f — rejoin at once with the updated owned partitions.
		{"needs rejoin rejoins at once with the updated owned partitions",
			impl.Assignment{Partitions: P("t", 1, 2), Error: impl.NeedsRejoin},
			[]string{"callback assigned (t-2)", "callback revoked (t-0)",
				`send JoinGroup v9 member="m1" topics=[t u] owned=(t-1 t-2) gen=4`}, PreparingRebalance},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := syncingConsumer(t, testConfig(impl.KIP), P("t", 0, 1))
			c, effs := c.Receive(impl.SyncGroupResponse{Assignment: tc.assignment})
			if d := cmp.Diff(tc.want, render(effs)); d != "" {
				t.Errorf("effects (-want +got):\n%s", d)
			}
			if c.State() != tc.wantState || !c.Owned().Equal(P("t", 1, 2)) || c.Generation() != 4 {
				t.Errorf("state after sync: %v", c)
			}
		})
	}
}

func protocolPtr(p impl.RebalanceProtocol) *impl.RebalanceProtocol { return &p }

// TestKIPRebalanceProtocolOverride: KIP-429's rebalance.protocol config decides the member's
// protocol, whatever its assignors support. A KIP member with only range, owning t-0 and t-1
// from generation 3, rejoins (no §1 trigger pending), is a follower of generation 4 and gets
// (t-1 t-2).
// Reference: KIP-429, docs/protocol.md §7.4 (rebalance.protocol), §2 (cooperative members
// keep their partitions and send them as owned), §3 (sync), docs/protocol.md §2.2 (owned list v1+,
// generation v2+).
func TestKIPRebalanceProtocolOverride(t *testing.T) {
	for _, tc := range []struct {
		name       string
		assignors  []string
		override   *impl.RebalanceProtocol
		version    int8
		assignment impl.Assignment
		join, sync []string
		owned      impl.PartitionSet // after the sync
	}{
		{"cooperative override on range keeps and sends owned (v2)", []string{Range}, protocolPtr(impl.Cooperative), 2,
			impl.Assignment{Partitions: P("t", 1, 2)},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0 t-1) gen=3`},
			[]string{"callback assigned (t-2)", "callback revoked (t-0)"}, P("t", 1, 2)},
		// v1 carries the owned list but no generation field (docs/protocol.md §2.2).
		{"cooperative override on range keeps and sends owned (v1)", []string{Range}, protocolPtr(impl.Cooperative), 1,
			impl.Assignment{Partitions: P("t", 1, 2)},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0 t-1) gen=-1`},
			[]string{"callback assigned (t-2)", "callback revoked (t-0)"}, P("t", 1, 2)},
		// v0 cannot carry the owned list (KIP-429's upgrade hazard), but the member still
		// keeps its partitions and applies the cooperative sync.
		{"cooperative override on range keeps owned but cannot send it (v0)", []string{Range}, protocolPtr(impl.Cooperative), 0,
			impl.Assignment{Partitions: P("t", 1, 2)},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=() gen=-1`},
			[]string{"callback assigned (t-2)", "callback revoked (t-0)"}, P("t", 1, 2)},
		// docs/protocol.md §7.3.5.2 / §7.1.f: NEEDS_REJOIN rejoins at once with the updated owned set.
		{"cooperative override on range rejoins at once on needs rejoin", []string{Range}, protocolPtr(impl.Cooperative), 2,
			impl.Assignment{Partitions: P("t", 1, 2), Error: impl.NeedsRejoin},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0 t-1) gen=3`},
			[]string{"callback assigned (t-2)", "callback revoked (t-0)", `send JoinGroup v9 member="m1" topics=[t u] owned=(t-1 t-2) gen=4`},
			P("t", 1, 2)},
		{"eager override revokes all", []string{Range}, protocolPtr(impl.Eager), 2,
			impl.Assignment{Partitions: P("t", 1, 2)},
			[]string{"callback revoked (t-0 t-1)", `send JoinGroup v9 member="m1" topics=[t u] owned=() gen=3`},
			[]string{"callback assigned (t-1 t-2)"}, P("t", 1, 2)},
		// docs/protocol.md §7.1.f: "revoke partitions as required before sending the join-group request";
		// an eager member revokes everything before any join, this one too.
		{"eager member revokes all on needs rejoin", []string{Range}, protocolPtr(impl.Eager), 2,
			impl.Assignment{Partitions: P("t", 1, 2), Error: impl.NeedsRejoin},
			[]string{"callback revoked (t-0 t-1)", `send JoinGroup v9 member="m1" topics=[t u] owned=() gen=3`},
			[]string{"callback assigned (t-1 t-2)", "callback revoked (t-1 t-2)", `send JoinGroup v9 member="m1" topics=[t u] owned=() gen=4`},
			impl.PartitionSet{}},
		// A v0 member is pre-KIP-429 code: the v0 assignment it reads has no error field.
		{"v0 member does not see needs rejoin", []string{Range}, protocolPtr(impl.Eager), 0,
			impl.Assignment{Partitions: P("t", 1, 2), Error: impl.NeedsRejoin},
			[]string{"callback revoked (t-0 t-1)", `send JoinGroup v9 member="m1" topics=[t u] owned=() gen=-1`},
			[]string{"callback assigned (t-1 t-2)"}, P("t", 1, 2)},
		// The override wins over the assignors in both directions.
		{"eager override on cooperative-sticky revokes all", []string{CooperativeSticky}, protocolPtr(impl.Eager), 2,
			impl.Assignment{Partitions: P("t", 1, 2)},
			[]string{"callback revoked (t-0 t-1)", `send JoinGroup v9 member="m1" topics=[t u] owned=() gen=3`},
			[]string{"callback assigned (t-1 t-2)"}, P("t", 1, 2)},
		{"no override on range is eager", []string{Range}, nil, 2,
			impl.Assignment{Partitions: P("t", 1, 2)},
			[]string{"callback revoked (t-0 t-1)", `send JoinGroup v9 member="m1" topics=[t u] owned=() gen=3`},
			[]string{"callback assigned (t-1 t-2)"}, P("t", 1, 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(impl.KIP, tc.assignors...)
			cfg.RebalanceProtocol = tc.override
			cfg.SubscriptionVersion = tc.version
			c := stableConsumer(cfg, P("t", 0, 1))
			c.RejoinNeeded = true
			c, effs := c.PollTick()
			if d := cmp.Diff(tc.join, render(withoutCommits(effs))); d != "" {
				t.Errorf("join (-want +got):\n%s", d)
			}
			c, _ = c.Receive(impl.JoinGroupResponse{Generation: 4, ProtocolName: tc.assignors[0], Leader: "m0", MemberID: "m1"})
			if !c.InFlight(KindSync) {
				t.Fatalf("no SyncGroup in flight: %v", c)
			}
			c, effs = c.Receive(impl.SyncGroupResponse{Assignment: tc.assignment})
			if d := cmp.Diff(tc.sync, render(effs)); d != "" {
				t.Errorf("sync (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.owned, c.Owned(), cmpOpts); d != "" {
				t.Errorf("owned after sync (-want +got):\n%s", d)
			}
		})
	}
}

// TestKindOf: each classic response names the request it answers, so that a lost one times
// that request out (docs/protocol.md §1.11).
func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		r    impl.Response
		want RequestKind
	}{
		{impl.JoinGroupResponse{}, KindJoin}, {impl.SyncGroupResponse{}, KindSync}, {impl.HeartbeatResponse{}, KindHeartbeat},
		{impl.OffsetCommitResponse{}, KindCommit}, {impl.LeaveGroupResponse{}, KindLeave},
	} {
		if got := KindOf(tc.r); got != tc.want {
			t.Errorf("KindOf(%T) = %s, want %s", tc.r, got, tc.want)
		}
	}
}
