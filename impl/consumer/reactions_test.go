package consumer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// TestKafkaReactionTable walks every row of docs/protocol.md §1.11's reaction table for the variant
// Kafka (cooperative member owning t-0).
func TestKafkaReactionTable(t *testing.T) {
	cfg := testConfig(impl.Kafka)
	owned := P("t", 0)
	gen3 := GroupGeneration{ID: 3, MemberID: "m1", ProtocolName: CooperativeSticky}
	gen4 := GroupGeneration{ID: 4, MemberID: "m1", ProtocolName: CooperativeSticky}
	keepMember := GroupGeneration{ID: impl.NoGeneration, MemberID: "m1"}
	fresh := func(t *testing.T) Consumer {
		c, _ := New(cfg, testCluster).Subscribe([]string{"t"})
		c, _ = c.PollTick()
		return c
	}
	joining := func(t *testing.T) Consumer { return joiningConsumer(t, cfg, owned) }
	syncing := func(t *testing.T) Consumer { return syncingConsumer(t, cfg, owned) }
	heartbeating := func(*testing.T) Consumer { return heartbeatingConsumer(cfg, owned) }
	committing := func(*testing.T) Consumer { return committingConsumer(cfg, owned) }
	// committedThenRejoined: the commit was sent at generation 3, then the member joined
	// generation 4 and its SyncGroup failed, so it is PREPARING_REBALANCE at generation 4.
	committedThenRejoined := func(t *testing.T) Consumer {
		c := committing(t)
		c.RejoinNeeded = true
		c, _ = c.PollTick()
		c, _ = c.Step(Received{Response: impl.JoinGroupResponse{Generation: 4, ProtocolName: CooperativeSticky, Leader: "m0", MemberID: "m1"}})
		c, _ = c.Step(Received{Response: impl.SyncGroupResponse{Error: impl.RebalanceInProgress}})
		return c
	}
	committedThenStable := func(t *testing.T) Consumer {
		c := committing(t)
		c.RejoinNeeded = true
		c, _ = c.PollTick()
		c, _ = c.Step(Received{Response: impl.JoinGroupResponse{Generation: 4, ProtocolName: CooperativeSticky, Leader: "m0", MemberID: "m1"}})
		c, _ = c.Step(Received{Response: impl.SyncGroupResponse{Assignment: impl.Assignment{Partitions: owned}}})
		return c
	}
	heartbeatThenJoined := func(t *testing.T) Consumer {
		c := heartbeating(t)
		c.RejoinNeeded = true
		c, _ = c.PollTick()
		c, _ = c.Step(Received{Response: impl.JoinGroupResponse{Generation: 4, ProtocolName: CooperativeSticky, Leader: "m0", MemberID: "m1"}})
		return c
	}
	syncHeartbeating := func(t *testing.T) Consumer {
		c, _ := syncing(t).HeartbeatTick()
		return c
	}
	commitResult := func(e impl.ErrorCode, gen int) string {
		return CommitResult{Accepted: e == impl.None, Error: e, Partitions: owned, Generation: impl.Generation(gen)}.String()
	}

	for _, tc := range []struct {
		name     string
		start    func(*testing.T) Consumer
		resp     impl.Response
		want     summary
		wantEffs []string
	}{
		// JoinGroup rows.
		{"join member id required adopts the id and re-sends at once", fresh,
			impl.JoinGroupResponse{Error: impl.MemberIDRequired, MemberID: "m9", Generation: impl.NoGeneration},
			summary{PreparingRebalance, GroupGeneration{ID: impl.NoGeneration, MemberID: "m9"}, impl.PartitionSet{}, true, false, impl.None},
			[]string{`send JoinGroup v9 member="m9" topics=[t] owned=() gen=-1`}},
		{"join unknown member id resets generation and member id", joining,
			impl.JoinGroupResponse{Error: impl.UnknownMemberID},
			summary{Unjoined, NoGeneration, owned, true, true, impl.None}, nil},
		{"join illegal generation keeps the member id", joining,
			impl.JoinGroupResponse{Error: impl.IllegalGeneration},
			summary{Unjoined, keepMember, owned, true, true, impl.None}, nil},
		{"join rebalance in progress retries without reset", joining,
			impl.JoinGroupResponse{Error: impl.RebalanceInProgress},
			summary{PreparingRebalance, gen3, owned, true, false, impl.None}, nil},
		{"join coordinator not available retries without reset", joining,
			impl.JoinGroupResponse{Error: impl.CoordinatorNotAvailable},
			summary{PreparingRebalance, gen3, owned, true, false, impl.None}, nil},
		{"join not coordinator retries without reset", joining,
			impl.JoinGroupResponse{Error: impl.NotCoordinator},
			summary{PreparingRebalance, gen3, owned, true, false, impl.None}, nil},
		{"join fenced instance id is fatal", joining,
			impl.JoinGroupResponse{Error: impl.FencedInstanceID},
			summary{PreparingRebalance, gen3, owned, true, false, impl.FencedInstanceID}, []string{"fatal FENCED_INSTANCE_ID"}},
		{"join inconsistent group protocol is fatal", joining,
			impl.JoinGroupResponse{Error: impl.InconsistentGroupProtocol},
			summary{PreparingRebalance, gen3, owned, true, false, impl.InconsistentGroupProtocol}, []string{"fatal INCONSISTENT_GROUP_PROTOCOL"}},
		{"join invalid session timeout is fatal", joining,
			impl.JoinGroupResponse{Error: impl.InvalidSessionTimeout},
			summary{PreparingRebalance, gen3, owned, true, false, impl.InvalidSessionTimeout}, []string{"fatal INVALID_SESSION_TIMEOUT"}},
		{"join group max size reached is fatal", joining,
			impl.JoinGroupResponse{Error: impl.GroupMaxSizeReached},
			summary{PreparingRebalance, gen3, owned, true, false, impl.GroupMaxSizeReached}, []string{"fatal GROUP_MAX_SIZE_REACHED"}},
		// SyncGroup rows.
		{"sync rebalance in progress keeps the joined generation and the old partitions", syncing,
			impl.SyncGroupResponse{Error: impl.RebalanceInProgress},
			summary{PreparingRebalance, gen4, owned, true, false, impl.None}, nil},
		{"sync unknown member id resets generation and member id", syncing,
			impl.SyncGroupResponse{Error: impl.UnknownMemberID},
			summary{Unjoined, NoGeneration, owned, true, true, impl.None}, nil},
		{"sync illegal generation keeps the member id", syncing,
			impl.SyncGroupResponse{Error: impl.IllegalGeneration},
			summary{Unjoined, keepMember, owned, true, true, impl.None}, nil},
		{"sync fenced instance id is fatal", syncing,
			impl.SyncGroupResponse{Error: impl.FencedInstanceID},
			summary{CompletingRebalance, gen4, owned, true, false, impl.FencedInstanceID}, []string{"fatal FENCED_INSTANCE_ID"}},
		{"sync coordinator error fails the round", syncing,
			impl.SyncGroupResponse{Error: impl.NotCoordinator},
			summary{PreparingRebalance, gen4, owned, true, false, impl.None}, nil},
		// Heartbeat rows.
		{"heartbeat rebalance in progress when stable requests a rejoin", heartbeating,
			impl.HeartbeatResponse{Error: impl.RebalanceInProgress},
			summary{Stable, gen3, owned, true, true, impl.None}, nil},
		{"heartbeat rebalance in progress while completing is ignored", syncHeartbeating,
			impl.HeartbeatResponse{Error: impl.RebalanceInProgress},
			summary{CompletingRebalance, gen4, owned, true, false, impl.None}, nil},
		{"heartbeat illegal generation resets but keeps the member id", heartbeating,
			impl.HeartbeatResponse{Error: impl.IllegalGeneration},
			summary{Unjoined, keepMember, owned, true, true, impl.None}, nil},
		{"heartbeat unknown member id resets generation and member id", heartbeating,
			impl.HeartbeatResponse{Error: impl.UnknownMemberID},
			summary{Unjoined, NoGeneration, owned, true, true, impl.None}, nil},
		// AbstractCoordinator.HeartbeatThread stores the FencedInstanceIdException; the next
		// poll throws it (another process holds the instance id, KIP-345).
		{"heartbeat fenced instance id is fatal", heartbeating,
			impl.HeartbeatResponse{Error: impl.FencedInstanceID},
			summary{Unjoined, NoGeneration, owned, true, true, impl.FencedInstanceID}, []string{"fatal FENCED_INSTANCE_ID"}},
		{"heartbeat stale fenced instance id is ignored", heartbeatThenJoined,
			impl.HeartbeatResponse{Error: impl.FencedInstanceID},
			summary{CompletingRebalance, gen4, owned, true, false, impl.None}, nil},
		{"heartbeat stale illegal generation is ignored", heartbeatThenJoined,
			impl.HeartbeatResponse{Error: impl.IllegalGeneration},
			summary{CompletingRebalance, gen4, owned, true, false, impl.None}, nil},
		{"heartbeat none changes nothing", heartbeating,
			impl.HeartbeatResponse{},
			summary{Stable, gen3, owned, false, true, impl.None}, nil},
		// OffsetCommit rows.
		{"commit accepted", committing,
			impl.OffsetCommitResponse{},
			summary{Stable, gen3, owned, false, true, impl.None}, []string{commitResult(impl.None, 3)}},
		{"commit rebalance in progress requests a rejoin without reset", committing,
			impl.OffsetCommitResponse{Error: impl.RebalanceInProgress},
			summary{Stable, gen3, owned, true, true, impl.None}, []string{commitResult(impl.RebalanceInProgress, 3)}},
		{"commit illegal generation resets but keeps the member id", committing,
			impl.OffsetCommitResponse{Error: impl.IllegalGeneration},
			summary{Unjoined, keepMember, owned, true, true, impl.None}, []string{commitResult(impl.IllegalGeneration, 3)}},
		{"commit unknown member id resets generation and member id", committing,
			impl.OffsetCommitResponse{Error: impl.UnknownMemberID},
			summary{Unjoined, NoGeneration, owned, true, true, impl.None}, []string{commitResult(impl.UnknownMemberID, 3)}},
		{"commit illegal generation after a new generation while rebalancing only fails", committedThenRejoined,
			impl.OffsetCommitResponse{Error: impl.IllegalGeneration},
			summary{PreparingRebalance, gen4, owned, true, false, impl.None}, []string{commitResult(impl.IllegalGeneration, 3)}},
		{"commit illegal generation after a new generation when stable resets", committedThenStable,
			impl.OffsetCommitResponse{Error: impl.IllegalGeneration},
			summary{Unjoined, keepMember, owned, true, true, impl.None}, []string{commitResult(impl.IllegalGeneration, 3)}},
		{"commit fenced instance id with the same generation is fatal", committing,
			impl.OffsetCommitResponse{Error: impl.FencedInstanceID},
			summary{Stable, gen3, owned, false, true, impl.FencedInstanceID},
			[]string{commitResult(impl.FencedInstanceID, 3), "fatal FENCED_INSTANCE_ID"}},
		{"commit fenced instance id with a stale generation only fails", committedThenStable,
			impl.OffsetCommitResponse{Error: impl.FencedInstanceID},
			summary{Stable, gen4, owned, false, true, impl.None}, []string{commitResult(impl.FencedInstanceID, 3)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Reference: docs/protocol.md §1.11 reaction table.
			c, effs := tc.start(t).Receive(tc.resp)
			if d := cmp.Diff(tc.want, summarize(c), cmpOpts); d != "" {
				t.Errorf("state (-want +got):\n%s\n%v", d, c)
			}
			if d := cmp.Diff(tc.wantEffs, render(effs), cmpOpts); d != "" {
				t.Errorf("effects (-want +got):\n%s", d)
			}
			for _, k := range AllKinds() {
				if c.InFlight(k) && k.String() == responseKind(tc.resp) && len(sent(effs)) == 0 {
					t.Errorf("%v marker still set after its response", k)
				}
			}
		})
	}
}

func responseKind(r impl.Response) string {
	switch r.(type) {
	case impl.JoinGroupResponse:
		return "JoinGroup"
	case impl.SyncGroupResponse:
		return "SyncGroup"
	case impl.HeartbeatResponse:
		return "Heartbeat"
	case impl.OffsetCommitResponse:
		return "OffsetCommit"
	}
	return "LeaveGroup"
}

func TestResponseWithoutRequestIsIgnored(t *testing.T) {
	// Reference: docs/protocol.md §1.11 — one request per kind; a late duplicate answers nothing.
	c := stableConsumer(testConfig(impl.Kafka), P("t", 0))
	for _, r := range []impl.Response{
		impl.JoinGroupResponse{Error: impl.UnknownMemberID},
		impl.SyncGroupResponse{Error: impl.UnknownMemberID},
		impl.HeartbeatResponse{Error: impl.UnknownMemberID},
		impl.OffsetCommitResponse{Error: impl.UnknownMemberID},
		impl.LeaveGroupResponse{Error: impl.UnknownMemberID},
	} {
		got, effs := c.Receive(r)
		if d := cmp.Diff(summarize(c), summarize(got), cmpOpts); d != "" || len(effs) != 0 {
			t.Errorf("%T changed an idle consumer: %s %v", r, d, render(effs))
		}
	}
}

func TestJoinResponseAfterResetIsDiscarded(t *testing.T) {
	// Reference: docs/protocol.md §1.11 — the generation was reset by the heartbeat thread while the
	// JoinGroup was in flight: its answer is discarded and the member rejoins.
	c := joiningConsumer(t, testConfig(impl.Kafka), P("t", 0))
	c, _ = c.PollTimeout()
	c, effs := c.Receive(impl.JoinGroupResponse{Generation: 4, Leader: "m1", MemberID: "m1"})
	if len(effs) != 0 || c.State() != Unjoined || c.Generation() != impl.NoGeneration || c.InFlight(KindJoin) {
		t.Errorf("stale join answer applied: %v %v", c, render(effs))
	}
}

func TestSyncResponseAfterResetIsDiscarded(t *testing.T) {
	// Reference: docs/protocol.md §1.11 — "If the generation was reset concurrently by the heartbeat
	// thread before onJoinComplete, the round is discarded and the client resets and rejoins."
	c, _ := syncingConsumer(t, testConfig(impl.Kafka), P("t", 0)).HeartbeatTick()
	c, _ = c.Receive(impl.HeartbeatResponse{Error: impl.UnknownMemberID})
	c, effs := c.Receive(impl.SyncGroupResponse{Assignment: impl.Assignment{Partitions: P("t", 0, 1)}})
	if len(effs) != 0 || c.State() != Unjoined || !c.Owned().Equal(P("t", 0)) || !c.WantsToJoin() {
		t.Errorf("stale sync answer applied: %v %v", c, render(effs))
	}
	// The next poll loses the partitions (generation reset) before rejoining.
	_, effs = c.PollTick()
	want := []string{"callback lost (t-0)", `send JoinGroup v9 member="" topics=[t u] owned=() gen=-1`}
	if d := cmp.Diff(want, render(effs)); d != "" {
		t.Errorf("rejoin (-want +got):\n%s", d)
	}
}

func TestJoinResponseContract(t *testing.T) {
	// A JoinGroup NONE always carries the bumped generation and a member id (docs/protocol.md §1.3,
	// §1.4); anything else is a broken contract and panics naming the transition.
	defer func() {
		if r := recover(); r == nil {
			t.Error("no panic")
		}
	}()
	c := joiningConsumer(t, testConfig(impl.Kafka), P("t", 0))
	c.Receive(impl.JoinGroupResponse{Generation: impl.NoGeneration, MemberID: "m1"})
}
