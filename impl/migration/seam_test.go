package migration

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
)

// An upgrade between a cooperative leader's SyncGroup and its followers' revocations frees
// the partitions the leader withheld. The classic group stores the new (first-round)
// assignment at the leader's SyncGroup, which withholds the partitions still to be revoked
// (KIP-429); ConsumerGroup.fromClassicGroup makes those stored assignments the members'
// current ones, so a withheld partition has no partition epoch in the consumer group and the
// KIP-848 joiner's target can hand it over at once, while its classic owner, which has not
// yet received (or applied) its SyncGroup answer, still owns it. In the classic group the
// partition would wait for the owner's next JoinGroup without it.
// Reference: ConsumerGroup.fromClassicGroup (setAssignedPartitions from
// classicGroupMember.assignment()), GroupMetadataManager.convertToConsumerGroup (no check of
// the classic group's state), apache/kafka group-coordinator 4.4.0.
func TestUpgradeFreesWithheldPartitions(t *testing.T) {
	c := stableClassic() // gen 3: x t-0 t-1, y t-2 t-3 (both applied)
	join := func(c coordinator.Group, id impl.MemberID, inst impl.InstanceID, owned impl.PartitionSet, fresh impl.MemberID) coordinator.Group {
		c, _ = c.JoinGroup(impl.JoinGroupRequest{Conn: 1, Version: 3, MemberID: id, InstanceID: inst,
			Protocols: []impl.GroupProtocol{{Name: coop, Metadata: sub(owned)}}}, fresh)
		return c
	}
	c = join(c, "", "", tps(), "z")
	c = join(c, "x", "", tps(0, 1), "")
	c = join(c, "y", "iy", tps(2, 3), "")
	if c.State() != coordinator.CompletingRebalance || c.Generation() != 4 || c.Leader() != "x" {
		t.Fatalf("setup: %s", c)
	}
	// The leader's first cooperative round: t-1 and t-3 withheld until x and y revoke them.
	c, _ = c.SyncGroup(impl.SyncGroupRequest{Conn: 1, MemberID: "x", Generation: 4, ProtocolName: coop,
		Assignments: []impl.MemberAssignment{
			{MemberID: "x", Assignment: impl.Assignment{Partitions: tps(0)}},
			{MemberID: "y", Assignment: impl.Assignment{Partitions: tps(2)}},
			{MemberID: "z", Assignment: impl.Assignment{Partitions: tps()}},
		}})
	if c.State() != coordinator.Stable {
		t.Fatalf("setup: %s", c)
	}
	// y has not sent its SyncGroup: it still owns t-2 t-3 (its generation-3 assignment).
	_, converted, _, code0 := Upgrade(c, Config{Cluster: cluster})
	if code0 != impl.None {
		t.Fatalf("upgrade refused: %s", code0)
	}
	for _, tp := range []impl.TopicPartition{impl.TP("t", 1), impl.TP("t", 3)} {
		if e := converted.PartitionEpoch(tp); e != -1 {
			t.Errorf("%s has partition epoch %d after the conversion, want free", tp, e)
		}
	}
	g, out := classicOf(c).Heartbeat(kjoin("", ""), "k")
	if !g.IsConsumer() || code(out) != impl.None {
		t.Fatalf("upgrade refused: %v", out)
	}
	km, _ := g.Consumer().Member("k")
	if !km.AssignedPartitions.Intersects(tps(1, 3)) {
		t.Fatalf("k = %s: want a withheld partition handed over at once", km)
	}
	// The classic owner learns only from its next SyncGroup or Heartbeat (REBALANCE_IN_PROGRESS),
	// and keeps owning across that answer (cooperative: it rejoins with what it owns).
	if _, out := g.Handle(impl.SyncGroupRequest{Conn: 2, MemberID: "y", InstanceID: "iy", Generation: 4, ProtocolName: coop}, ""); code(out) != impl.RebalanceInProgress {
		t.Errorf("y's SyncGroup after the upgrade: %s", code(out))
	}
}
