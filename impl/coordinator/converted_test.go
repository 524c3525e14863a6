package coordinator

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// Reference: ClassicGroup.fromConsumerGroup and GroupMetadataManager.convertToClassicGroup
// (apache/kafka group-coordinator 4.4.0).
func TestFromConsumerGroup(t *testing.T) {
	t0 := impl.NewPartitionSet(impl.TP("t", 0))
	t1 := impl.NewPartitionSet(impl.TP("t", 1))
	members := []ConvertedMember{
		{ID: "c", InstanceID: "i1", Protocols: protos("range", "sticky"), Assignment: t1},
		{ID: "b", Protocols: protos("sticky", "range"), Assignment: t0},
	}
	g, err := FromConsumerGroup(Config{Persist: true}, 5, members, false)
	if err != nil {
		t.Fatal(err)
	}
	// Stable at the group epoch, leader the first member, the protocol voted (a tie: smallest name).
	if g.State() != Stable || g.Generation() != 5 || g.Leader() != "b" || g.ProtocolName() != "range" {
		t.Errorf("group = %s, want Stable gen 5 leader b protocol range", g)
	}
	c, _ := g.Member("c")
	if !c.Assignment.Partitions.Equal(t1) || c.InstanceID != "i1" || c.PendingSync || c.IsNew || c.Join.Parked {
		t.Errorf("c = %s, want its target t-1, instance i1, nothing pending", c)
	}
	if id, ok := g.StaticMember("i1"); !ok || id != "c" {
		t.Errorf("static mapping i1 → %q %v", id, ok)
	}
	// createClassicGroupRecords: the conversion is written to the log.
	if r, ok := g.Log(); !ok || r.Generation != 5 || len(r.Members) != 2 || r.Leader != "b" {
		t.Errorf("log = %+v %v", r, ok)
	}
	if got := g.ExpirableMembers(); len(got) != 2 {
		t.Errorf("every member's session timer runs (rescheduleClassicGroupMemberHeartbeat): %v", got)
	}
	// A downgrade after a leave prepares a rebalance: members learn it from their heartbeat.
	r, _ := FromConsumerGroup(Config{}, 5, members, true)
	if r.State() != PreparingRebalance || r.Generation() != 5 || !r.JoinTimerArmed() {
		t.Errorf("rebalancing conversion = %s, want PreparingRebalance at 5", r)
	}
	if _, out := r.Heartbeat(impl.HeartbeatRequest{MemberID: "b", Generation: 5}); out[0].Response.Code() != impl.RebalanceInProgress {
		t.Errorf("heartbeat after the downgrade: %v, want REBALANCE_IN_PROGRESS", out)
	}
	if _, ok := r.Log(); ok {
		t.Errorf("Persist off: nothing logged")
	}
	// The members' generation is the consumer group's epoch: a heartbeat at it is accepted.
	if _, out := g.Heartbeat(impl.HeartbeatRequest{MemberID: "c", Generation: 5}); out[0].Response.Code() != impl.None {
		t.Errorf("heartbeat of c at generation 5: %v", out)
	}
	for name, ms := range map[string][]ConvertedMember{
		"no members":            nil,
		"member twice":          {members[0], members[0]},
		"instance twice":        {members[0], {ID: "d", InstanceID: "i1", Protocols: protos("range")}},
		"no protocol in common": {members[0], {ID: "d", Protocols: protos("roundrobin")}},
	} {
		if _, err := FromConsumerGroup(Config{}, 5, ms, true); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

// Reference: ClassicGroup.completeAllJoinFutures / completeAllSyncFutures.
func TestAnswerParked(t *testing.T) {
	g := New(Config{})
	g, _ = g.JoinGroup(impl.JoinGroupRequest{Conn: 4, Version: 3, Protocols: rng}, "a")
	g, _ = g.JoinGroup(impl.JoinGroupRequest{Conn: 5, Version: 3, Protocols: rng}, "b")
	joins := g                  // both JoinGroups parked (the initial delayed join)
	g, _ = g.JoinPhaseTimeout() // CompletingRebalance, generation 1, leader a
	g, _ = g.SyncGroup(impl.SyncGroupRequest{Conn: 6, MemberID: "b", Generation: 1})
	syncs := g // b's SyncGroup parked until the leader's
	for name, tc := range map[string]struct {
		g    Group
		want []impl.Reply
	}{
		"joins": {joins, []impl.Reply{
			{To: 4, Response: impl.JoinGroupResponse{Error: impl.RebalanceInProgress, Generation: impl.NoGeneration, MemberID: "a"}},
			{To: 5, Response: impl.JoinGroupResponse{Error: impl.RebalanceInProgress, Generation: impl.NoGeneration, MemberID: "b"}}}},
		"syncs": {syncs, []impl.Reply{{To: 6, Response: impl.SyncGroupResponse{Error: impl.RebalanceInProgress}}}},
	} {
		ng, out := tc.g.AnswerParked(impl.RebalanceInProgress)
		if d := cmp.Diff(tc.want, out, cmpOpts); d != "" {
			t.Errorf("%s: replies (-want +got):\n%s", name, d)
		}
		if len(ng.Parked()) != 0 || ng.State() != tc.g.State() || ng.Generation() != tc.g.Generation() {
			t.Errorf("%s: after: %s, want nothing parked, state and generation kept", name, ng)
		}
	}
	if _, out := New(Config{}).AnswerParked(impl.RebalanceInProgress); out != nil {
		t.Errorf("nothing parked: %v", out)
	}
}
