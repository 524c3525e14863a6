package migration

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/impl/kip848"
)

const coop = "cooperative-sticky"

var cluster = impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 4})

func tps(ns ...int32) impl.PartitionSet {
	var out []impl.TopicPartition
	for _, n := range ns {
		out = append(out, impl.TP("t", n))
	}
	return impl.NewPartitionSet(out...)
}

func sub(owned impl.PartitionSet) impl.Subscription {
	return impl.NewSubscription(2, []string{"t"}, owned, impl.NoGeneration)
}

// stableClassic: a classic group Stable at generation 3, x holding t-0 t-1 and y t-2 t-3,
// loaded as a coordinator loads it from its log.
func stableClassic() coordinator.Group {
	return coordinator.Load(coordinator.Config{}, coordinator.Record{Generation: 3, Protocol: coop, Leader: "x",
		Members: []coordinator.RecordMember{
			{ID: "x", Subscription: sub(tps(0, 1)), Assignment: impl.Assignment{Partitions: tps(0, 1)}},
			{ID: "y", InstanceID: "iy", Subscription: sub(tps(2, 3)), Assignment: impl.Assignment{Partitions: tps(2, 3)}},
		}}, true)
}

func kjoin(id impl.MemberID, inst impl.InstanceID) impl.ConsumerGroupHeartbeatRequest {
	none := impl.NewPartitionSet()
	return impl.ConsumerGroupHeartbeatRequest{Conn: 9, MemberID: id, InstanceID: inst, MemberEpoch: impl.EpochJoin,
		SubscribedTopicNames: []string{"t"}, OwnedPartitions: &none}
}

func classicOf(c coordinator.Group) Group {
	return New(Config{Cluster: cluster}).withClassic(c)
}

func code(out []impl.Reply) impl.ErrorCode { return out[len(out)-1].Response.Code() }

// Reference: GroupMetadataManager.getOrMaybeCreateConsumerGroup → validateOnlineUpgrade →
// convertToConsumerGroup → ConsumerGroup.fromClassicGroup (apache/kafka group-coordinator
// 4.4.0): a KIP-848 join to a Stable classic group converts it; the join bumps the epoch and
// the classic members learn of the rebalance from their next heartbeat.
func TestUpgradeOnConsumerJoin(t *testing.T) {
	g, out := classicOf(stableClassic()).Heartbeat(kjoin("", ""), "k")
	if !g.IsConsumer() || len(out) != 1 || code(out) != impl.None {
		t.Fatalf("after the join: consumer=%v replies=%v", g.IsConsumer(), out)
	}
	k := g.Consumer()
	if k.GroupEpoch() != 4 || len(k.Members()) != 3 {
		t.Errorf("group = %s, want epoch 4 (generation 3 + the join) with x, y, k", k)
	}
	x, _ := k.Member("x")
	if !x.UsesClassicProtocol() || x.MemberEpoch != 3 || !x.AssignedPartitions.Equal(tps(0, 1)) {
		t.Errorf("x = %s, want classic at epoch 3 holding t-0 t-1", x)
	}
	g, out = g.Handle(impl.HeartbeatRequest{Conn: 1, MemberID: "x", Generation: 3}, "")
	if code(out) != impl.RebalanceInProgress {
		t.Errorf("x's heartbeat at generation 3: %s, want REBALANCE_IN_PROGRESS", code(out))
	}
	// x rejoins owning what it has; it keeps what the new target leaves it.
	g, out = g.Handle(impl.JoinGroupRequest{Conn: 1, Version: 9, MemberID: "x",
		Protocols: []impl.GroupProtocol{{Name: coop, Metadata: sub(tps(0, 1))}}}, "")
	r := out[0].Response.(impl.JoinGroupResponse)
	if r.Error != impl.None || r.Leader != "" || r.Members != nil || r.ProtocolName != coop {
		t.Errorf("x's rejoin: %+v", r)
	}
	if !g.IsConsumer() {
		t.Fatalf("the group went classic")
	}
}

func TestUpgradeRefusals(t *testing.T) {
	c := stableClassic()
	first, _ := coordinator.New(coordinator.Config{}).JoinGroup(impl.JoinGroupRequest{Conn: 1, Version: 3,
		Protocols: []impl.GroupProtocol{{Name: coop, Metadata: sub(tps())}}}, "x")
	for _, tc := range []struct {
		name string
		g    Group
		req  impl.ConsumerGroupHeartbeatRequest
		want impl.ErrorCode
	}{
		// validateOnlineUpgrade.
		{"policy downgrade", withPolicy(classicOf(c), kip848.MigrationDowngrade), kjoin("", ""), impl.GroupIDNotFound},
		{"policy disabled", withPolicy(classicOf(c), kip848.MigrationDisabled), kjoin("", ""), impl.GroupIDNotFound},
		{"beyond group.consumer.max.size", withMaxSize(classicOf(c), 1), kjoin("", ""), impl.GroupIDNotFound},
		// getOrMaybeCreateConsumerGroup without createIfNotExists.
		{"not a join", classicOf(c), impl.ConsumerGroupHeartbeatRequest{Conn: 9, MemberID: "k", MemberEpoch: 4}, impl.GroupIDNotFound},
		{"a leave", classicOf(c), impl.ConsumerGroupHeartbeatRequest{Conn: 9, MemberID: "k", MemberEpoch: -1}, impl.GroupIDNotFound},
		// The converted group refuses the join: the group stays classic.
		{"the heartbeat itself refused", classicOf(c), func() impl.ConsumerGroupHeartbeatRequest { r := kjoin("", ""); r.ServerAssignor = "nope"; return r }(), impl.UnsupportedAssignor},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ng, out := tc.g.Heartbeat(tc.req, "k")
			if len(out) != 1 || code(out) != tc.want || ng.IsConsumer() {
				t.Errorf("got %v (consumer=%v), want only %s and the group classic", out, ng.IsConsumer(), tc.want)
			}
		})
	}
	// ConsumerGroup.fromClassicGroup: protocolName().get() before the first join phase completed
	// throws; convertToConsumerGroup has already answered the parked JoinGroup, which stays
	// answered: x no longer counts as rejoined in the classic group.
	ng, out := classicOf(first).Heartbeat(kjoin("", ""), "k")
	if ng.IsConsumer() || len(out) != 2 || code(out) != impl.UnknownServerError {
		t.Fatalf("first join phase: %v consumer=%v, want x's join answered and UNKNOWN_SERVER_ERROR", out, ng.IsConsumer())
	}
	if r, ok := out[0].Response.(impl.JoinGroupResponse); !ok || r.Error != impl.RebalanceInProgress || r.MemberID != "x" || out[0].To != 1 {
		t.Errorf("x's parked join answered %+v", out[0].Response)
	}
	if len(ng.Classic().Parked()) != 0 || ng.Classic().State() != coordinator.PreparingRebalance {
		t.Errorf("classic group after the failed upgrade: %s", ng.Classic())
	}
	// A refusal by validateOnlineUpgrade answers nothing parked.
	if _, out := withPolicy(classicOf(first), kip848.MigrationDisabled).Heartbeat(kjoin("", ""), "k"); len(out) != 1 {
		t.Errorf("policy refusal: %v, want the heartbeat's answer alone", out)
	}
	// Refused inside the write operation, after the conversion began: the group stays classic and
	// its parked requests stay answered. Two members within group.consumer.max.size 2 convert;
	// the joiner, a third, is then refused GROUP_MAX_SIZE_REACHED (throwIfConsumerGroupIsFull).
	mid, _ := c.JoinGroup(impl.JoinGroupRequest{Conn: 5, Version: 9, MemberID: "x",
		Protocols: []impl.GroupProtocol{{Name: coop, Metadata: sub(tps(0))}}}, "")
	ng, out = withMaxSize(classicOf(mid), 2).Heartbeat(kjoin("", ""), "k")
	if ng.IsConsumer() || len(out) != 2 || code(out) != impl.GroupMaxSizeReached || out[0].To != 5 || len(ng.Classic().Parked()) != 0 {
		t.Errorf("full after the conversion: %v consumer=%v parked=%v", out, ng.IsConsumer(), ng.Classic().Parked())
	}
	// An invalid request is refused before the group is looked up: nothing answered, nothing converted.
	bad := kjoin("", "")
	bad.ServerAssignor = "nope"
	if ng, out := classicOf(mid).Heartbeat(bad, "k"); len(out) != 1 || code(out) != impl.UnsupportedAssignor || len(ng.Classic().Parked()) != 1 {
		t.Errorf("invalid request: %v, parked %v", out, ng.Classic().Parked())
	}
	// Within the limit: converted.
	if g, _ := withMaxSize(classicOf(c), 3).Heartbeat(kjoin("", ""), "k"); !g.IsConsumer() {
		t.Errorf("3 members within group.consumer.max.size 3: want converted")
	}
	// An empty classic group becomes a consumer group whatever the policy (maybeDeleteEmptyClassicGroup).
	if g, out := withPolicy(New(Config{Cluster: cluster}), kip848.MigrationDisabled).Heartbeat(kjoin("", ""), "k"); !g.IsConsumer() || code(out) != impl.None {
		t.Errorf("empty classic group: %v consumer=%v", out, g.IsConsumer())
	}
}

func withPolicy(g Group, p kip848.MigrationPolicy) Group {
	g.cfg.Consumer.MigrationPolicy = p
	return g
}

func withMaxSize(g Group, n int) Group {
	g.cfg.Consumer.MaxSize = n
	return g
}

// Reference: convertToConsumerGroup: completeAllJoinFutures / completeAllSyncFutures
// (REBALANCE_IN_PROGRESS) for a group converted mid-rebalance.
func TestUpgradeAnswersParkedRequests(t *testing.T) {
	c := stableClassic()
	c, _ = c.JoinGroup(impl.JoinGroupRequest{Conn: 5, Version: 9, MemberID: "x",
		Protocols: []impl.GroupProtocol{{Name: coop, Metadata: impl.NewSubscription(2, []string{"t"}, tps(0), impl.NoGeneration)}}}, "")
	if c.State() != coordinator.PreparingRebalance || len(c.Parked()) != 1 {
		t.Fatalf("setup: %s", c)
	}
	g, out := classicOf(c).Heartbeat(kjoin("", ""), "k")
	if !g.IsConsumer() || len(out) != 2 {
		t.Fatalf("want the parked join answered and the heartbeat: %v", out)
	}
	if r, ok := out[0].Response.(impl.JoinGroupResponse); !ok || out[0].To != 5 || r.Error != impl.RebalanceInProgress || r.MemberID != "x" {
		t.Errorf("parked join answer: %+v to %d", out[0].Response, out[0].To)
	}
}

// Reference: consumerGroupFenceMembers → validateOnlineDowngradeWithFencedMembers →
// convertToClassicGroup: when the last consumer-protocol member leaves, the group becomes a
// classic group at the group epoch, rebalancing, each member holding its target.
func TestDowngradeOnLastConsumerLeave(t *testing.T) {
	g, _ := classicOf(stableClassic()).Heartbeat(kjoin("", ""), "k") // epoch 4: x, y classic; k
	k := g.Consumer()
	for name, leave := range map[string]func(Group) (Group, []impl.Reply){
		"leave heartbeat": func(g Group) (Group, []impl.Reply) {
			return g.Heartbeat(impl.ConsumerGroupHeartbeatRequest{Conn: 9, MemberID: "k", MemberEpoch: impl.EpochLeave}, "")
		},
		"classic LeaveGroup naming k": func(g Group) (Group, []impl.Reply) {
			return g.Handle(impl.LeaveGroupRequest{Conn: 9, Members: []impl.LeaveMember{{MemberID: "k"}}}, "")
		},
		"session expiry": func(g Group) (Group, []impl.Reply) { return g.SessionExpired("k") },
	} {
		t.Run(name, func(t *testing.T) {
			ng, _ := leave(g)
			if ng.IsConsumer() {
				t.Fatalf("still a consumer group: %s", ng.Consumer())
			}
			c := ng.Classic()
			if c.State() != coordinator.PreparingRebalance || c.Generation() != impl.Generation(k.GroupEpoch()) || len(c.Members()) != 2 {
				t.Errorf("classic group = %s, want PreparingRebalance at generation %d with x, y", c, k.GroupEpoch())
			}
			x, _ := c.Member("x")
			if !x.Assignment.Partitions.Equal(k.TargetOf("x")) {
				t.Errorf("x holds %s, want its target %s", x.Assignment.Partitions, k.TargetOf("x"))
			}
		})
	}
	// A classic member leaving while k stays: an ordinary fence.
	ng, _ := g.Handle(impl.LeaveGroupRequest{Conn: 9, Members: []impl.LeaveMember{{MemberID: "x"}}}, "")
	if !ng.IsConsumer() || len(ng.Consumer().Members()) != 2 {
		t.Errorf("x left, k stays: want a consumer group of y, k")
	}
	// Policy upgrade: k leaves, the group stays a consumer group.
	gu, _ := withPolicy(classicOf(stableClassic()), kip848.MigrationUpgrade).Heartbeat(kjoin("", ""), "k")
	ng, _ = gu.SessionExpired("k")
	if !ng.IsConsumer() {
		t.Errorf("policy upgrade: no downgrade")
	}
}

// Reference: classicGroupJoinToConsumerGroup with validateOnlineDowngradeWithReplacedMember:
// a static member restarted on the classic protocol replacing the last consumer-protocol
// member converts the group; the target being current, without a rebalance.
func TestDowngradeOnStaticReplacement(t *testing.T) {
	g, _ := classicOf(stableClassic()).Heartbeat(kjoin("", "ik"), "k")
	// Settle: x and y rejoin (cooperative: they revoke first), k reconciles.
	g = settle(t, g)
	k := g.Consumer()
	ng, out := g.Handle(impl.JoinGroupRequest{Conn: 2, Version: 9, InstanceID: "ik",
		Protocols: []impl.GroupProtocol{{Name: coop, Metadata: sub(tps())}}}, "k2")
	if ng.IsConsumer() {
		t.Fatalf("still a consumer group")
	}
	c := ng.Classic()
	if c.State() != coordinator.Stable || c.Generation() != impl.Generation(k.GroupEpoch()) {
		t.Errorf("classic group = %s, want Stable at %d", c, k.GroupEpoch())
	}
	if len(c.Members()) != 3 {
		t.Errorf("classic members %v, want x, y and the joiner k2", c.Members())
	}
	k2, ok := c.Member("k2")
	if !ok || k2.InstanceID != "ik" || !k2.Assignment.Partitions.Equal(k.TargetOf("k")) {
		t.Errorf("k2 = %+v, want instance ik with k's target %s", k2, k.TargetOf("k"))
	}
	if r := out[0].Response.(impl.JoinGroupResponse); r.Error != impl.None || r.MemberID != "k2" || r.Generation != impl.Generation(k.GroupEpoch()) {
		t.Errorf("join answer %+v", r)
	}
	// k2's SyncGroup to the classic group gets the assignment it took over.
	_, out = ng.Handle(impl.SyncGroupRequest{Conn: 2, MemberID: "k2", InstanceID: "ik", Generation: impl.Generation(k.GroupEpoch()), ProtocolName: coop}, "")
	if s := out[0].Response.(impl.SyncGroupResponse); s.Error != impl.None || !s.Assignment.Partitions.Equal(k.TargetOf("k")) {
		t.Errorf("k2's sync: %+v", s)
	}
}

// settle runs the classic members' join/sync rounds and k's heartbeats until every member is
// STABLE at the assignment epoch (bounded: a broken model fails instead of looping).
func settle(t *testing.T, g Group) Group {
	t.Helper()
	for round := 0; round < 6; round++ {
		k := g.Consumer()
		if k.State() == kip848.StableGroup {
			return g
		}
		for _, m := range k.Members() {
			if m.UsesClassicProtocol() {
				g, _ = g.Handle(impl.JoinGroupRequest{Conn: 1, Version: 9, MemberID: m.ID, InstanceID: m.InstanceID,
					Protocols: []impl.GroupProtocol{{Name: coop, Metadata: sub(m.AssignedPartitions)}}}, "")
				continue
			}
			held := m.AssignedPartitions
			g, _ = g.Heartbeat(impl.ConsumerGroupHeartbeatRequest{Conn: 9, MemberID: m.ID, InstanceID: m.InstanceID, MemberEpoch: m.MemberEpoch, OwnedPartitions: &held}, "")
		}
	}
	t.Fatalf("did not settle: %s", g.Consumer())
	return g
}

// Reference: classicGroupJoin: a JoinGroup to an empty consumer group goes to
// classicGroupJoinToClassicGroup, which replaces the empty group by a classic one.
func TestClassicJoinToEmptyConsumerGroup(t *testing.T) {
	g, _ := New(Config{Cluster: cluster}).Heartbeat(kjoin("", ""), "k")
	g, _ = g.Heartbeat(impl.ConsumerGroupHeartbeatRequest{Conn: 9, MemberID: "k", MemberEpoch: impl.EpochLeave}, "")
	if !g.IsConsumer() || len(g.Consumer().Members()) != 0 {
		t.Fatalf("setup: want an empty consumer group")
	}
	g, out := g.Handle(impl.JoinGroupRequest{Conn: 1, Version: 3, Protocols: []impl.GroupProtocol{{Name: coop, Metadata: sub(tps())}}}, "x")
	if g.IsConsumer() || g.Classic().State() != coordinator.PreparingRebalance || len(out) != 0 {
		t.Errorf("want a classic group in its first join phase, got consumer=%v %v", g.IsConsumer(), out)
	}
}

// Reference: classicGroupSyncToConsumerGroup, classicGroupHeartbeatToConsumerGroup,
// ConsumerGroup.validateOffsetCommit: a consumer group answers its classic members.
func TestConsumerGroupAnswersClassicRequests(t *testing.T) {
	g, _ := classicOf(stableClassic()).Heartbeat(kjoin("", ""), "k")
	for name, tc := range map[string]struct {
		req  impl.Request
		want impl.ErrorCode
	}{
		"sync behind the assignment epoch": {impl.SyncGroupRequest{Conn: 1, MemberID: "x", Generation: 3}, impl.RebalanceInProgress},
		"heartbeat of an unknown member":   {impl.HeartbeatRequest{Conn: 1, MemberID: "zz", Generation: 3}, impl.UnknownMemberID},
		"commit at the member epoch":       {impl.OffsetCommitRequest{Conn: 1, MemberID: "x", Generation: 3, Partitions: tps(0)}, impl.None},
		"commit at another generation":     {impl.OffsetCommitRequest{Conn: 1, MemberID: "x", Generation: 5, Partitions: tps(0)}, impl.IllegalGeneration},
	} {
		if ng, out := g.Handle(tc.req, ""); code(out) != tc.want || !ng.IsConsumer() {
			t.Errorf("%s: %s, want %s", name, code(out), tc.want)
		}
	}
}

// Reference: scheduleConsumerGroupJoinTimeoutIfAbsent / scheduleConsumerGroupSyncTimeout and
// the consumer protocol's rebalance timeout fence through consumerGroupFenceMember, so each
// may downgrade; a timer that fences nobody changes nothing.
func TestTimersFenceAndMayDowngrade(t *testing.T) {
	g, _ := classicOf(stableClassic()).Heartbeat(kjoin("", ""), "k") // x, y classic at 3; k at 4
	// x rejoins: its sync timer runs.
	g, _ = g.Handle(impl.JoinGroupRequest{Conn: 1, Version: 9, MemberID: "x",
		Protocols: []impl.GroupProtocol{{Name: coop, Metadata: sub(tps(0, 1))}}}, "")
	if ng := g.ClassicSyncTimeoutExpired("x"); !ng.IsConsumer() || len(ng.Consumer().Members()) != 2 {
		t.Errorf("x's sync timeout with k present: want x fenced, the group a consumer group")
	}
	if ng := g.ClassicJoinTimeoutExpired("x"); !ng.IsConsumer() || len(ng.Consumer().Members()) != 3 {
		t.Errorf("x's join timer does not run: want no change")
	}
	// y's heartbeat arms its join timer; its expiry with k present is an ordinary fence.
	g, _ = g.Handle(impl.HeartbeatRequest{Conn: 1, MemberID: "y", InstanceID: "iy", Generation: 3}, "")
	if ng := g.ClassicJoinTimeoutExpired("y"); !ng.IsConsumer() || len(ng.Consumer().Members()) != 2 {
		t.Errorf("y's join timeout: want y fenced")
	}
	// k revoking past its rebalance timeout, the others classic: the fence downgrades.
	g, _ = classicOf(stableClassic()).Heartbeat(kjoin("", ""), "k")
	g = settle(t, g)
	g, _ = g.Handle(impl.LeaveGroupRequest{Conn: 1, Members: []impl.LeaveMember{{InstanceID: "iy"}}}, "")
	g = g.OnConsumer(func(k kip848.Group) kip848.Group {
		k = k.WithTarget(kip848.NewTarget(kip848.MemberTarget{ID: "k"}, kip848.MemberTarget{ID: "x", Partitions: tps(0, 1, 2, 3)}))
		m, _ := k.Member("k")
		held := m.AssignedPartitions
		k, _ = k.Heartbeat(impl.ConsumerGroupHeartbeatRequest{Conn: 9, MemberID: "k", MemberEpoch: m.MemberEpoch, OwnedPartitions: &held}, "")
		return k
	})
	rt := g.Consumer().RebalanceTimers()
	if len(rt) != 1 || rt[0].Member != "k" {
		t.Fatalf("want k's rebalance timer alone, got %v in %s", rt, g.Consumer())
	}
	if ng := g.RebalanceTimeoutExpired("k", rt[0].Epoch); ng.IsConsumer() {
		t.Errorf("k's rebalance timeout, the others classic: want a downgrade")
	}
	if ng := g.RebalanceTimeoutExpired("k", 99); !ng.IsConsumer() {
		t.Errorf("a stale rebalance timer: want no change")
	}
	// The never-converting transitions reach only their own half.
	c := classicOf(stableClassic())
	if ng, out := c.OnClassic(func(c coordinator.Group) (coordinator.Group, []impl.Reply) { return c.Unload() }); ng.IsConsumer() || ng.Classic().State() != coordinator.Dead || len(out) != 0 {
		t.Errorf("OnClassic(Unload): %s", ng.Classic())
	}
	if ng := c.OnConsumer(func(k kip848.Group) kip848.Group { t.Error("OnConsumer ran on a classic group"); return k }); ng.IsConsumer() {
		t.Errorf("OnConsumer changed a classic group")
	}
	if ng := g.OnConsumer(func(k kip848.Group) kip848.Group {
		return k.MetadataChanged(impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 5}))
	}); ng.Consumer().GroupEpoch() != g.Consumer().GroupEpoch()+1 {
		t.Errorf("OnConsumer(MetadataChanged): want a bump")
	}
	if ng, _ := g.OnClassic(func(c coordinator.Group) (coordinator.Group, []impl.Reply) {
		t.Error("OnClassic ran on a consumer group")
		return c, nil
	}); !ng.IsConsumer() {
		t.Errorf("OnClassic changed a consumer group")
	}
	if ng := c.RebalanceTimeoutExpired("x", 3); ng.IsConsumer() || ng.ClassicJoinTimeoutExpired("x").IsConsumer() || ng.ClassicSyncTimeoutExpired("x").IsConsumer() {
		t.Errorf("consumer-group timers on a classic group: want no change")
	}
	if ng, _ := c.SessionExpired("x"); ng.IsConsumer() || len(ng.Classic().Members()) != 1 {
		t.Errorf("classic session expiry: want x removed by the classic coordinator")
	}
}

// Reference: the downgrade needs every remaining member classic (a broken contract otherwise).
func TestDowngradeErrors(t *testing.T) {
	g, _ := classicOf(stableClassic()).Heartbeat(kjoin("", ""), "k")
	if _, err := Downgrade(g.Consumer(), kip848.Downgrade{Leaving: []impl.MemberID{"x"}, Rebalance: true}, coordinator.Config{}); err == nil {
		t.Errorf("k speaks the consumer protocol: want an error")
	}
	c, err := Downgrade(g.Consumer(), kip848.Downgrade{Leaving: []impl.MemberID{"k"}, Rebalance: true}, coordinator.Config{})
	if err != nil || len(c.Members()) != 2 {
		t.Errorf("leaving k: %v %s", err, c)
	}
}
