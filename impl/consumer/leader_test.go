package consumer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

var leaderMembers = []impl.JoinGroupMember{
	{MemberID: "m1", Metadata: impl.Subscription{Version: 2, Topics: []string{"t"}}},
	{MemberID: "m2", Metadata: impl.Subscription{Version: 2, Topics: []string{"u"}}},
}

func leaderJoined(t *testing.T) (Consumer, []Effect) {
	t.Helper()
	c := joiningConsumer(t, testConfig(impl.Kafka), P("t", 0))
	return c.Receive(impl.JoinGroupResponse{Generation: 4, ProtocolName: CooperativeSticky, Leader: "m1", MemberID: "m1", Members: leaderMembers})
}

func TestLeaderRunsAssignmentThenSyncs(t *testing.T) {
	// Reference: docs/protocol.md §1.11 (onJoinLeader), §2.4.
	c, effs := leaderJoined(t)
	wantRun := []Effect{RunAssignment{Generation: 4, ProtocolName: CooperativeSticky, Members: leaderMembers, Cluster: testCluster}}
	if d := cmp.Diff(wantRun, effs, cmpOpts); d != "" {
		t.Errorf("leader effects (-want +got):\n%s", d)
	}
	if !c.IsLeader() || !c.AwaitingAssignment || c.InFlight(KindSync) || !c.AssignmentSnapshot.Equal(testCluster) {
		t.Errorf("leader state: %v", c)
	}
	assignments := []impl.MemberAssignment{{MemberID: "m1", Assignment: impl.Assignment{Partitions: P("t", 0)}}}
	c, effs = c.Step(AssignmentComputed{Assignments: assignments})
	want := []impl.Request{impl.SyncGroupRequest{Conn: 7, MemberID: "m1", Generation: 4, ProtocolName: CooperativeSticky, Assignments: assignments}}
	if d := cmp.Diff(want, sent(effs), cmpOpts); d != "" {
		t.Errorf("leader sync (-want +got):\n%s", d)
	}
	// A second AssignmentComputed is not a second SyncGroup.
	if _, effs := c.Step(AssignmentComputed{Assignments: assignments}); len(effs) != 0 {
		t.Errorf("duplicate assignment sent %v", render(effs))
	}
}

func TestLeaderAssignmentFailed(t *testing.T) {
	// Reference: docs/protocol.md §2.4 step 4, docs/bugs.md B9 (KAFKA-13406): no SyncGroup; the next poll
	// sends a new JoinGroup without onJoinPrepare; owned partitions untouched.
	c, _ := leaderJoined(t)
	c, effs := c.Step(AssignmentFailed{})
	if len(effs) != 0 || c.State() != PreparingRebalance || !c.WantsToJoin() || !c.Owned().Equal(P("t", 0)) {
		t.Fatalf("after failure: %v %v", c, render(effs))
	}
	_, effs = c.PollTick()
	// The claim on t-0 (assigned in generation 3) is labelled 4: Java adopted generation 4
	// from the JoinGroup response before the assignor threw, nothing resets it, and the v2
	// GenerationId is the client's current generation (docs/protocol.md §2.2) — the same "newer
	// label, older content" claim as after REBALANCE_IN_PROGRESS on SyncGroup (docs/protocol.md §2.8).
	want := []string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=4`}
	if d := cmp.Diff(want, render(effs)); d != "" {
		t.Errorf("rejoin (-want +got):\n%s", d)
	}
}

func TestLeaderSkipAssignment(t *testing.T) {
	// Reference: docs/protocol.md §1.10, §2.4 step 2 (KIP-814): leader without assigning.
	c := joiningConsumer(t, testConfig(impl.Kafka), P("t", 0))
	c, effs := c.Receive(impl.JoinGroupResponse{Generation: 4, ProtocolName: CooperativeSticky, Leader: "m1", MemberID: "m1", Members: leaderMembers, SkipAssignment: true})
	want := []string{`send SyncGroup member="m1" gen=4 assignments=0`}
	if d := cmp.Diff(want, render(effs)); d != "" || !c.IsLeader() {
		t.Errorf("skip assignment (-want +got):\n%s leader=%v", d, c.IsLeader())
	}
}

func TestLeaderRejoinsOnMetadataChange(t *testing.T) {
	// Reference: docs/protocol.md §2.4 step 5 — the leader rejoins when its snapshot diverges; a
	// follower does not; a change to an unrelated topic does not.
	for _, tc := range []struct {
		name       string
		leader     bool
		cluster    impl.Cluster
		wantRejoin bool
	}{
		{"leader sees new partitions", true, impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 4}, impl.TopicMetadata{Name: "u", Partitions: 2}), true},
		{"leader ignores unrelated topics", true, impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 3}, impl.TopicMetadata{Name: "u", Partitions: 2}, impl.TopicMetadata{Name: "z", Partitions: 1}), false},
		{"follower never rejoins for metadata", false, impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 4}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := stableConsumer(testConfig(impl.Kafka), P("t", 0))
			if tc.leader {
				c.Leader = true
				c.GroupTopics = []string{"t", "u"}
				c.AssignmentSnapshot = snapshotOf(testCluster, c.GroupTopics)
			}
			c, effs := c.MetadataChanged(tc.cluster)
			if c.RejoinNeeded != tc.wantRejoin || len(effs) != 0 {
				t.Errorf("rejoin = %v, want %v (effects %v)", c.RejoinNeeded, tc.wantRejoin, render(effs))
			}
		})
	}
}

func TestFollowerDropsSnapshot(t *testing.T) {
	// Reference: docs/protocol.md §2.6 step 1 — non-leaders drop assignmentSnapshot.
	c := syncingConsumer(t, testConfig(impl.Kafka), P("t", 0))
	c.AssignmentSnapshot = testCluster
	c, _ = c.Receive(impl.SyncGroupResponse{Assignment: impl.Assignment{Partitions: P("t", 0)}})
	if len(c.AssignmentSnapshot.Topics) != 0 {
		t.Errorf("follower kept snapshot %v", c.AssignmentSnapshot)
	}
}
