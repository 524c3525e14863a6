package kip848

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// B17 (KAFKA-16249): member a revokes and acknowledges once, but a new target was installed
// meanwhile. Correct: the ack counts and a moves on; its old rebalance timer still fences it.
// Faulty: the coordinator recomputes from the new target ignoring the ack; a's later
// heartbeats carry no owned partitions (unchanged), so it waits forever, and the timer was
// re-armed for the new target, so it never fences a either.
func TestFaultRecomputeWhileRevoking(t *testing.T) {
	c := impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 6})
	run := func(f impl.Faults) (Group, Member) {
		g := New(Config{Faults: f}, c)
		g, _ = step(t, g, joinReq("a", "t"), "")
		g, _ = step(t, g, joinReq("b", "t"), "")
		g, _ = step(t, g, hb("a", 1, nil), "")   // a UNREVOKED at 1
		g, _ = step(t, g, joinReq("c", "t"), "") // new target at epoch 3
		a := member(t, g, "a")
		g, _ = step(t, g, hb("a", 1, setPtr(a.AssignedPartitions)), "") // the ack
		for range 3 {
			g, _ = step(t, g, hb("a", member(t, g, "a").MemberEpoch, nil), "")
		}
		return g, member(t, g, "a")
	}
	g, a := run(0)
	if a.State == UnrevokedPartitions && a.MemberEpoch == 1 {
		t.Errorf("correct: a still waiting on the acknowledged revocation: %s", a)
	}
	fg, fa := run(impl.Faults(0).With(impl.FaultRecomputeWhileRevoking))
	if fa.State != UnrevokedPartitions || fa.MemberEpoch != 1 || fa.PartitionsPendingRevocation.IsEmpty() {
		t.Fatalf("faulty: a = %s, want stuck in UNREVOKED at 1", fa)
	}
	// The rebalance timer: correct → a's timer at its epoch fences; faulty → ineffective.
	for _, r := range fg.RebalanceTimers() {
		if ng := fg.RebalanceTimeoutExpired(r.Member, r.Epoch); len(ng.Members()) != len(fg.Members()) {
			t.Errorf("faulty: timer %v fenced %s", r, r.Member)
		}
	}
	stuck := revoking(t, Config{})
	if ng := stuck.RebalanceTimeoutExpired("a", 1); len(ng.Members()) != 1 {
		t.Errorf("correct: timer did not fence a stuck revoker")
	}
	_ = g
}

// B18 (KAFKA-19233): a fenced member (server epoch 2, previous 1) rejoins with epoch 0 and the
// same id. Correct: accepted, full response. Faulty: FENCED_MEMBER_EPOCH again, so its
// partitions stay held until the session expires.
func TestFaultStaleCheckOnRejoin(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faults impl.Faults
		want   impl.ErrorCode
	}{
		{"correct", 0, impl.None},
		{"faulty", impl.Faults(0).With(impl.FaultStaleCheckOnRejoin), impl.FencedMemberEpoch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := twoMembers(t, Config{Faults: tc.faults})
			g, _ = step(t, g, hb("a", 1, nil), "")
			g, _ = step(t, g, hb("a", 1, setPtr(g.TargetOf("a"))), "")
			g = g.MetadataChanged(impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 6}))
			g, _ = step(t, g, hb("a", 2, nil), "") // a at 3, previous 2: epoch 0 is neither
			ng, out := g.Heartbeat(joinReq("a", "t"), "")
			if got := resp(t, out).Error; got != tc.want {
				t.Errorf("rejoin error = %s, want %s", got, tc.want)
			}
			if tc.want != impl.None && member(t, ng, "a").AssignedPartitions.IsEmpty() {
				t.Errorf("faulty: a's partitions were released")
			}
		})
	}
	// The fault keeps the previous-epoch tolerance: a member that joined at 0 → 1 may still
	// come back with 0 while its previous epoch is 0.
	g := New(Config{Faults: impl.Faults(0).With(impl.FaultStaleCheckOnRejoin)}, cluster)
	g, _ = step(t, g, joinReq("a", "t"), "")
	if _, out := g.Heartbeat(joinReq("a", "t"), ""); resp(t, out).Error != impl.None {
		t.Errorf("faulty: rejoin at the previous epoch refused")
	}
}
