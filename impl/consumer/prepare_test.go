package consumer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

func TestProtocol(t *testing.T) {
	for _, tc := range []struct {
		name      string
		assignors []string
		want      impl.RebalanceProtocol
	}{
		// Reference: docs/protocol.md §2.1 — the highest protocol supported by all assignors.
		{"cooperative-sticky alone is cooperative", []string{CooperativeSticky}, impl.Cooperative},
		// Reference: docs/protocol.md §2.7 bounce 1 — a listed eager assignor keeps the member eager.
		{"upgrade bounce one is eager", []string{CooperativeSticky, Range}, impl.Eager},
		{"range is eager", []string{Range}, impl.Eager},
		{"sticky is eager", []string{Sticky, RoundRobin}, impl.Eager},
		{"no assignor is eager", nil, impl.Eager},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Protocol(tc.assignors); got != tc.want {
				t.Errorf("Protocol(%v) = %v, want %v", tc.assignors, got, tc.want)
			}
		})
	}
}

func TestConfigProtocol(t *testing.T) {
	coop, eagerP := impl.Cooperative, impl.Eager
	for _, tc := range []struct {
		name      string
		variant   impl.Variant
		assignors []string
		override  *impl.RebalanceProtocol
		want      impl.RebalanceProtocol
	}{
		// Reference: docs/protocol.md §2.1 — without an override, the assignors decide.
		{"kip without override follows the assignors", impl.KIP, []string{CooperativeSticky}, nil, impl.Cooperative},
		{"kafka follows the assignors", impl.Kafka, []string{Range}, nil, impl.Eager},
		// Reference: KIP-429, docs/protocol.md §7.4 — rebalance.protocol is its own config.
		{"kip cooperative override on range", impl.KIP, []string{Range}, &coop, impl.Cooperative},
		{"kip eager override on cooperative-sticky", impl.KIP, []string{CooperativeSticky}, &eagerP, impl.Eager},
		// Reference: docs/protocol.md §2.1 — Kafka never shipped rebalance.protocol (New refuses it).
		{"kafka ignores the override", impl.Kafka, []string{Range}, &coop, impl.Eager},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Variant: tc.variant, Assignors: tc.assignors, RebalanceProtocol: tc.override}
			if got := cfg.Protocol(); got != tc.want {
				t.Errorf("Protocol() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestNewRejectsBrokenProtocolOverride(t *testing.T) {
	// The override is KIP-429's config: setting it under Kafka, or to a value that is no
	// protocol, is a broken contract.
	coop, bogus := impl.Cooperative, impl.RebalanceProtocol(7)
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"override under kafka", Config{Variant: impl.Kafka, Assignors: []string{Range}, RebalanceProtocol: &coop}},
		{"invalid override", Config{Variant: impl.KIP, Assignors: []string{Range}, RebalanceProtocol: &bogus}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%+v) did not panic", tc.cfg)
				}
			}()
			New(tc.cfg, testCluster)
		})
	}
}

func TestNewCopiesProtocolOverride(t *testing.T) {
	// Config is fixed per incarnation: changing the caller's variable afterwards changes nothing.
	p := impl.Cooperative
	c := New(Config{Variant: impl.KIP, Assignors: []string{Range}, RebalanceProtocol: &p}, testCluster)
	p = impl.Eager
	if got := c.Config.Protocol(); got != impl.Cooperative {
		t.Errorf("Protocol() = %v after the caller's change, want cooperative", got)
	}
}

func TestPlanJoinTrigger(t *testing.T) {
	owned := P("t", 0, 2).Union(P("u", 1))
	shrunk := impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 2}) // t-2 and u gone
	for _, tc := range []struct {
		name    string
		trigger JoinTrigger
		want    TriggerPlan
	}{
		// Reference: KIP-429 §1.a
		{"subscription change revokes all", TriggerSubscriptionChange, TriggerPlan{Revoked: owned}},
		// Reference: KIP-429 §1.b
		{"metadata change loses vanished partitions only", TriggerMetadataChange,
			TriggerPlan{Keep: P("t", 0), Lost: P("t", 2).Union(P("u", 1))}},
		// Reference: KIP-429 §1.c
		{"rebalance in progress revokes all", TriggerRebalanceInProgress, TriggerPlan{Revoked: owned}},
		// Reference: KIP-429 §1.d
		{"member id required revokes all", TriggerMemberIDRequired, TriggerPlan{Revoked: owned}},
		// Reference: KIP-429 §1.e
		{"fenced loses all", TriggerFenced, TriggerPlan{Lost: owned}},
		// Reference: KIP-429 §1.f
		{"needs rejoin keeps the updated owned set", TriggerNeedsRejoin, TriggerPlan{Keep: owned}},
		{"no trigger keeps everything", TriggerNone, TriggerPlan{Keep: owned}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := PlanJoinTrigger(tc.trigger, owned, shrunk)
			if d := cmp.Diff(tc.want, got, cmpOpts); d != "" {
				t.Errorf("PlanJoinTrigger(%v) (-want +got):\n%s", tc.trigger, d)
			}
		})
	}
}

func TestOnJoinPrepare(t *testing.T) {
	owned := P("t", 0, 1).Union(P("u", 0))
	commit := "send OffsetCommit member=\"m1\" gen=3 (t-0 t-1 u-0)"
	for _, tc := range []struct {
		name      string
		cfg       Config
		setup     func(c Consumer) Consumer
		wantEffs  []string
		wantOwned impl.PartitionSet
	}{
		// Reference: docs/protocol.md §2.3 steps 1, 3 (EAGER) — commit while STABLE, revoke all.
		{"eager commits then revokes everything", testConfig(impl.Kafka, eager...), nil,
			[]string{commit, "callback revoked (t-0 t-1 u-0)"}, impl.PartitionSet{}},
		// Reference: docs/protocol.md §2.3 step 3 (COOPERATIVE) — only unsubscribed topics.
		{"cooperative revokes only unsubscribed topics", testConfig(impl.Kafka),
			func(c Consumer) Consumer { c.Topics = []string{"t"}; return c },
			[]string{commit, "callback revoked (u-0)"}, P("t", 0, 1)},
		// Reference: docs/protocol.md §2.3 step 3 (COOPERATIVE) — nothing to revoke.
		{"cooperative with unchanged subscription keeps everything", testConfig(impl.Kafka), nil,
			[]string{commit}, owned},
		// Reference: docs/protocol.md §2.3 step 2 — a reset generation loses, never revokes.
		{"reset generation loses everything without commit", testConfig(impl.Kafka),
			func(c Consumer) Consumer { c.resetGeneration(false); return c },
			[]string{"callback lost (t-0 t-1 u-0)"}, impl.PartitionSet{}},
		// Reference: docs/protocol.md §1.11 — no commit outside STABLE (generationIfStable).
		{"no commit when not stable", testConfig(impl.Kafka, eager...),
			func(c Consumer) Consumer { c.Status = PreparingRebalance; return c },
			[]string{"callback revoked (t-0 t-1 u-0)"}, impl.PartitionSet{}},
		// Reference: docs/protocol.md §1.11 — one commit in flight at a time.
		{"no second commit while one is in flight", testConfig(impl.Kafka, eager...),
			func(c Consumer) Consumer { c.mark(KindCommit, c.OwnedPartitions); return c },
			[]string{"callback revoked (t-0 t-1 u-0)"}, impl.PartitionSet{}},
		// Reference: KIP-429 §1.a — the variant KIP revokes all on a subscription change.
		{"kip subscription change revokes all", testConfig(impl.KIP),
			func(c Consumer) Consumer { c.Trigger = TriggerSubscriptionChange; return c },
			[]string{commit, "callback revoked (t-0 t-1 u-0)"}, impl.PartitionSet{}},
		// Reference: KIP-429 §1.f — a KIP-only trigger outside a fresh rebalance: no commit.
		{"kip trigger alone does not commit", testConfig(impl.KIP),
			func(c Consumer) Consumer {
				c.NeedsJoinPrepare = false
				c.Trigger = TriggerRebalanceInProgress
				return c
			},
			[]string{"callback revoked (t-0 t-1 u-0)"}, impl.PartitionSet{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := stableConsumer(tc.cfg, owned)
			c.Leader = true
			if tc.setup != nil {
				c = tc.setup(c)
			}
			got, effs := OnJoinPrepare(c)
			if d := cmp.Diff(tc.wantEffs, render(effs), cmpOpts); d != "" {
				t.Errorf("effects (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.wantOwned, got.Owned(), cmpOpts); d != "" {
				t.Errorf("owned (-want +got):\n%s", d)
			}
			if got.NeedsJoinPrepare || got.IsLeader() {
				t.Errorf("after onJoinPrepare: needsJoinPrepare=%v leader=%v, want both false", got.NeedsJoinPrepare, got.IsLeader())
			}
		})
	}
}

func TestPollTickSendsJoinGroup(t *testing.T) {
	// Reference: docs/protocol.md §1.11 (initiateJoinGroup), §2.2 (subscription v2 carries owned
	// partitions and the generation).
	c := stableConsumer(testConfig(impl.Kafka), P("t", 1))
	c.RejoinNeeded = true
	c, effs := c.PollTick()
	want := []impl.Request{
		impl.OffsetCommitRequest{Conn: 7, MemberID: "m1", Generation: 3, Partitions: P("t", 1)},
		impl.JoinGroupRequest{Conn: 7, Version: 9, MemberID: "m1", Protocols: []impl.GroupProtocol{{
			Name: CooperativeSticky,
			Metadata: impl.Subscription{Version: 2, Topics: []string{"t", "u"}, OwnedPartitions: P("t", 1),
				Generation: 3, UserData: impl.UserData{Generation: 3}},
		}}},
	}
	if d := cmp.Diff(want, sent(effs), cmpOpts); d != "" {
		t.Errorf("requests (-want +got):\n%s", d)
	}
	if c.State() != PreparingRebalance || !c.InFlight(KindJoin) || !c.InFlight(KindCommit) {
		t.Errorf("after poll: %v", c)
	}
	// A second poll while the JoinGroup is in flight sends nothing.
	if _, effs := c.PollTick(); len(effs) != 0 {
		t.Errorf("second poll sent %v", render(effs))
	}
}

func TestPollTickNeedsSubscription(t *testing.T) {
	// Reference: docs/protocol.md §1.11 — nothing to join without a subscription.
	c := New(testConfig(impl.Kafka), testCluster)
	if c.WantsToJoin() {
		t.Fatal("unsubscribed consumer wants to join")
	}
	if _, effs := c.PollTick(); len(effs) != 0 {
		t.Errorf("poll sent %v", render(effs))
	}
	c, _ = c.Subscribe([]string{"t"})
	_, effs := c.PollTick()
	want := []string{`send JoinGroup v9 member="" topics=[t] owned=() gen=-1`}
	if d := cmp.Diff(want, render(effs)); d != "" {
		t.Errorf("first join (-want +got):\n%s", d)
	}
}

func TestSubscriptionVersions(t *testing.T) {
	// Reference: docs/protocol.md §2.2 — v0 carries no owned partitions, v1 no generation.
	for _, tc := range []struct {
		version   int8
		wantOwned impl.PartitionSet
		wantGen   impl.Generation
	}{
		{0, impl.PartitionSet{}, impl.NoGeneration},
		{1, P("t", 0), impl.NoGeneration},
		{2, P("t", 0), 3},
	} {
		cfg := testConfig(impl.Kafka)
		cfg.SubscriptionVersion = tc.version
		s := stableConsumer(cfg, P("t", 0)).Subscription(CooperativeSticky)
		if !s.OwnedPartitions.Equal(tc.wantOwned) || s.Generation != tc.wantGen || s.Version != tc.version {
			t.Errorf("v%d subscription = %+v, want owned %v gen %d", tc.version, s, tc.wantOwned, tc.wantGen)
		}
	}
}

func TestUserData(t *testing.T) {
	// Reference: docs/protocol.md §2.2 (cooperative-sticky user data: generation), docs/bugs.md B11 /
	// KIP-341 (sticky user data: previous assignment and generation).
	c := stableConsumer(testConfig(impl.Kafka, Sticky, CooperativeSticky, Range), P("t", 0))
	want := []impl.UserData{
		{Previous: P("t", 0), Generation: 3},
		{Generation: 3},
		{Generation: impl.NoGeneration},
	}
	var got []impl.UserData
	for _, a := range c.Config.Assignors {
		got = append(got, c.Subscription(a).UserData)
	}
	if d := cmp.Diff(want, got, cmpOpts); d != "" {
		t.Errorf("user data (-want +got):\n%s", d)
	}
}
