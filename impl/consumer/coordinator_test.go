package consumer

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// TestCoordinatorErrorsKeepIdentity: every answer a failover produces (NOT_COORDINATOR from
// the old broker, COORDINATOR_LOAD_IN_PROGRESS / REBALANCE_IN_PROGRESS / NONE from the new
// one while it loads) keeps the member id and the generation; a failed JoinGroup or
// SyncGroup round is retried at the next poll, a heartbeat or commit just fails.
// Reference: docs/protocol.md §1.11 (COORDINATOR_NOT_AVAILABLE / NOT_COORDINATOR row; KAFKA-13214),
// §1.5 (SyncGroup while loading), §1.6 (Heartbeat while loading).
func TestCoordinatorErrorsKeepIdentity(t *testing.T) {
	cfg := testConfig(impl.Kafka)
	owned := P("t", 0)
	for _, tc := range []struct {
		name       string
		start      func(*testing.T) Consumer
		resp       impl.Response
		wantStatus ClientState
		wantJoin   bool // the next poll sends a JoinGroup
	}{
		{"join NOT_COORDINATOR", func(t *testing.T) Consumer { return joiningConsumer(t, cfg, owned) },
			impl.JoinGroupResponse{Error: impl.NotCoordinator, Generation: impl.NoGeneration, MemberID: "m1"}, PreparingRebalance, true},
		{"join COORDINATOR_NOT_AVAILABLE", func(t *testing.T) Consumer { return joiningConsumer(t, cfg, owned) },
			impl.JoinGroupResponse{Error: impl.CoordinatorNotAvailable, Generation: impl.NoGeneration, MemberID: "m1"}, PreparingRebalance, true},
		{"join COORDINATOR_LOAD_IN_PROGRESS", func(t *testing.T) Consumer { return joiningConsumer(t, cfg, owned) },
			impl.JoinGroupResponse{Error: impl.CoordinatorLoadInProgress, Generation: impl.NoGeneration, MemberID: "m1"}, PreparingRebalance, true},
		{"sync NOT_COORDINATOR", func(t *testing.T) Consumer { return syncingConsumer(t, cfg, owned) },
			impl.SyncGroupResponse{Error: impl.NotCoordinator}, PreparingRebalance, true},
		{"sync REBALANCE_IN_PROGRESS (loading)", func(t *testing.T) Consumer { return syncingConsumer(t, cfg, owned) },
			impl.SyncGroupResponse{Error: impl.RebalanceInProgress}, PreparingRebalance, true},
		{"heartbeat NOT_COORDINATOR", func(t *testing.T) Consumer {
			c, _ := stableConsumer(cfg, owned).HeartbeatTick()
			return c
		}, impl.HeartbeatResponse{Error: impl.NotCoordinator}, Stable, false},
		{"heartbeat NONE (loading)", func(t *testing.T) Consumer {
			c, _ := stableConsumer(cfg, owned).HeartbeatTick()
			return c
		}, impl.HeartbeatResponse{Error: impl.None}, Stable, false},
		{"commit NOT_COORDINATOR", func(t *testing.T) Consumer {
			c, _ := stableConsumer(cfg, owned).CommitTick()
			return c
		}, impl.OffsetCommitResponse{Error: impl.NotCoordinator}, Stable, false},
		{"commit COORDINATOR_LOAD_IN_PROGRESS", func(t *testing.T) Consumer {
			c, _ := stableConsumer(cfg, owned).CommitTick()
			return c
		}, impl.OffsetCommitResponse{Error: impl.CoordinatorLoadInProgress}, Stable, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.start(t)
			after, effs := before.Receive(tc.resp)
			if after.Gen != before.Gen {
				t.Errorf("generation %v -> %v: a coordinator error must keep it", before.Gen, after.Gen)
			}
			if after.Status != tc.wantStatus {
				t.Errorf("status %v, want %v", after.Status, tc.wantStatus)
			}
			if got := after.WantsToJoin(); got != tc.wantJoin {
				t.Errorf("WantsToJoin = %v, want %v", got, tc.wantJoin)
			}
			if !after.OwnedPartitions.Equal(owned) || !after.Active() {
				t.Errorf("owned %v active %v: nothing is lost or fatal; effects %v", after.OwnedPartitions, after.Active(), render(effs))
			}
			code := tc.resp.Code()
			if want := code == impl.NotCoordinator || code == impl.CoordinatorNotAvailable; MarksCoordinatorUnknown(code) != want {
				t.Errorf("MarksCoordinatorUnknown(%v) = %v, want %v", code, !want, want)
			}
		})
	}
}
