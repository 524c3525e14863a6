package coordinator

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// TestFaultJoinTimerZero: with the join timer at zero, a rebalance started by one member's
// JoinGroup completes at once with that member alone; the others are evicted while alive.
// Reference: docs/bugs.md B1 (KAFKA-8653).
func TestFaultJoinTimerZero(t *testing.T) {
	abc := stable(dyn("a"), dyn("b"), dyn("c"))
	req := jgr(2, 0, "b", "", protosU("range"))
	rebalancing := mod(abc, func(g *Group) {
		g.state = PreparingRebalance
		at(g, "b").Protocols, at(g, "b").Join = protosU("range"), ParkedJoin{Parked: true, Conn: 2}
	})
	bAlone := Member{ID: "b", Protocols: protosU("range"), PendingSync: true, Assignment: asg(1)}
	for _, tc := range []struct {
		name   string
		faults impl.Faults
		want   Group
		out    []impl.Reply
	}{
		{"correct: the others get the rebalance timeout to rejoin", 0, rebalancing, nil},
		{"faulty: the others are evicted at once", impl.Faults(0).With(impl.FaultJoinTimerZero),
			Group{state: CompletingRebalance, generation: 3, protocol: "range", leader: "b", members: []Member{bAlone}},
			[]impl.Reply{reply(2, impl.JoinGroupResponse{Generation: 3, ProtocolName: "range", Leader: "b", MemberID: "b",
				Members: []impl.JoinGroupMember{{MemberID: "b", Metadata: subOf("u")}}})}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := abc
			g.cfg.Faults, tc.want.cfg.Faults = tc.faults, tc.faults
			got, out := g.JoinGroup(req, "")
			check(t, "JoinGroup", got, out, tc.want, tc.out)
		})
	}
	// The initial delay from Empty is not the rebalance timeout: unaffected.
	g := New(Config{Faults: impl.Faults(0).With(impl.FaultJoinTimerZero)})
	if g, _ = g.JoinGroup(jgr(1, 3, "", "", rng), "m1"); g.State() != PreparingRebalance || !g.InitialJoin() {
		t.Errorf("initial join under fault: %v", g)
	}
}

// TestFaultNoSyncTimer: without the sync timer, a member that never sends SyncGroup keeps
// the group in CompletingRebalance while heartbeats succeed. Reference: docs/bugs.md B3 (KAFKA-12890).
func TestFaultNoSyncTimer(t *testing.T) {
	completing := mod(stable(dyn("a"), dyn("b")), func(g *Group) {
		g.state, g.generation = CompletingRebalance, 3
		for i := range g.members {
			g.members[i].PendingSync = true
		}
	})
	for _, tc := range []struct {
		name    string
		faults  impl.Faults
		enabled bool
		after   State
	}{
		{"correct: the sync timer evicts the laggards", 0, true, Empty},
		{"faulty: stuck in CompletingRebalance", impl.Faults(0).With(impl.FaultNoSyncTimer), false, CompletingRebalance},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := completing
			g.cfg.Faults = tc.faults
			if g.EnabledSyncPhaseTimeout() != tc.enabled || g.SyncTimerArmed() != tc.enabled {
				t.Fatalf("EnabledSyncPhaseTimeout = %v, want %v", g.EnabledSyncPhaseTimeout(), tc.enabled)
			}
			_, out := g.Heartbeat(impl.HeartbeatRequest{MemberID: "a", Generation: 3})
			if out[0].Response.Code() != impl.None {
				t.Fatalf("heartbeat in CompletingRebalance: %v", out)
			}
			if got, _ := g.SyncPhaseTimeout(); got.State() != tc.after {
				t.Errorf("after SyncPhaseTimeout: %v, want %v", got, tc.after)
			}
		})
	}
}
