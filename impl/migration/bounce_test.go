package migration

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
)

// A rolling bounce there and back, one member at a time, as an operator runs it: a dynamic
// member is closed (it leaves) and restarted on the other protocol; a static one is restarted
// without leaving and its new incarnation takes over its instance id. Each restart converts
// the group where Kafka converts it (docs/protocol.md §9.2, §9.4), and the group settles on
// the new protocol in between.
func TestRollingBounceThereAndBack(t *testing.T) {
	g := classicOf(stableClassic()) // gen 3: x t-0 t-1, y[iy] t-2 t-3
	// x closes (classic LeaveGroup) and comes back on the consumer protocol as k1.
	g, _ = g.Handle(impl.LeaveGroupRequest{Conn: 1, Members: []impl.LeaveMember{{MemberID: "x"}}}, "")
	g, out := g.Heartbeat(kjoin("", ""), "k1")
	if !g.IsConsumer() || code(out) != impl.None {
		t.Fatalf("k1's join did not upgrade: %v", out)
	}
	g = settle(t, g)
	// y restarts on the consumer protocol under its instance id: its classic record is replaced
	// whatever its epoch (a classic holder is never UNRELEASED_INSTANCE_ID).
	g, out = g.Heartbeat(kjoin("", "iy"), "k2")
	if code(out) != impl.None {
		t.Fatalf("k2's static join: %v", out)
	}
	g = settle(t, g)
	for _, m := range g.Consumer().Members() {
		if m.UsesClassicProtocol() {
			t.Errorf("after the upgrade bounce %s still speaks the classic protocol", m.ID)
		}
	}
	if n := len(g.Consumer().Members()); n != 2 {
		t.Errorf("%d members after the upgrade bounce, want k1 and k2", n)
	}
	// Back: k1 leaves and returns as the classic member x2 (two-step join, KIP-394).
	g, _ = g.Heartbeat(impl.ConsumerGroupHeartbeatRequest{Conn: 9, MemberID: "k1", MemberEpoch: impl.EpochLeave}, "")
	if !g.IsConsumer() {
		t.Fatalf("k2 still speaks the consumer protocol: no downgrade yet")
	}
	join := impl.JoinGroupRequest{Conn: 3, Version: 9, Protocols: []impl.GroupProtocol{{Name: coop, Metadata: sub(tps())}}}
	g, out = g.Handle(join, "x2")
	if r := out[0].Response.(impl.JoinGroupResponse); r.Error != impl.MemberIDRequired || r.MemberID != "x2" {
		t.Fatalf("x2's first join: %+v", r)
	}
	join.MemberID = "x2"
	g, _ = g.Handle(join, "")
	g = settle(t, g)
	before := g.Consumer()
	// k2 restarts on the classic protocol under iy: it replaces the last consumer-protocol
	// member, and the target being current the group becomes a Stable classic group.
	g, out = g.Handle(impl.JoinGroupRequest{Conn: 4, Version: 9, InstanceID: "iy",
		Protocols: []impl.GroupProtocol{{Name: coop, Metadata: sub(tps())}}}, "y2")
	if g.IsConsumer() {
		t.Fatalf("the last consumer-protocol member replaced: want a classic group, got %s", g.Consumer())
	}
	c := g.Classic()
	if c.State() != coordinator.Stable || c.Generation() != impl.Generation(before.GroupEpoch()) {
		t.Errorf("classic group = %s, want Stable at generation %d", c, before.GroupEpoch())
	}
	var all impl.PartitionSet
	for _, m := range c.AllMembers() {
		if all.Intersects(m.Assignment.Partitions) {
			t.Errorf("%s's assignment %s overlaps another's", m.ID, m.Assignment.Partitions)
		}
		all = all.Union(m.Assignment.Partitions)
	}
	if !all.Equal(tps(0, 1, 2, 3)) {
		t.Errorf("the classic group assigns %s, want every partition once", all)
	}
	if r := out[0].Response.(impl.JoinGroupResponse); r.Error != impl.None || r.MemberID != "y2" || r.Generation != c.Generation() {
		t.Errorf("y2's join answer %+v", r)
	}
}

// The static bounce back as the Java consumer runs it: a static KIP-848 member closes with a
// temporary leave (epoch -2, no fence, so no downgrade) and its classic restart takes over the
// instance id; being the last consumer-protocol member, its replacement converts the group.
// Reference: GroupMetadataManager.consumerGroupLeave (epoch -2 keeps the member),
// classicGroupJoinToConsumerGroup with validateOnlineDowngradeWithReplacedMember.
func TestStaticBounceBackAfterTemporaryLeave(t *testing.T) {
	g, _ := classicOf(stableClassic()).Heartbeat(kjoin("", "ik"), "k")
	g = settle(t, g)
	before := g.Consumer()
	g, out := g.Heartbeat(impl.ConsumerGroupHeartbeatRequest{Conn: 9, MemberID: "k", InstanceID: "ik", MemberEpoch: impl.EpochTemporaryLeave}, "")
	if code(out) != impl.None || !g.IsConsumer() {
		t.Fatalf("temporary leave: %v, consumer=%v", out, g.IsConsumer())
	}
	if k, _ := g.Consumer().Member("k"); k.MemberEpoch != impl.EpochTemporaryLeave {
		t.Fatalf("k = %s, want away at epoch -2", k)
	}
	g, out = g.Handle(impl.JoinGroupRequest{Conn: 4, Version: 9, InstanceID: "ik",
		Protocols: []impl.GroupProtocol{{Name: coop, Metadata: sub(tps())}}}, "k2")
	if g.IsConsumer() {
		t.Fatalf("the classic restart replaced the last consumer-protocol member: want a classic group")
	}
	c := g.Classic()
	k2, ok := c.Member("k2")
	if !ok || c.State() != coordinator.Stable || !k2.Assignment.Partitions.Equal(before.TargetOf("k")) || len(c.Members()) != 3 {
		t.Errorf("classic group = %s, want Stable with x, y and k2 holding k's target %s", c, before.TargetOf("k"))
	}
	if r := out[0].Response.(impl.JoinGroupResponse); r.Error != impl.None || r.MemberID != "k2" {
		t.Errorf("k2's join answer %+v", r)
	}
}
