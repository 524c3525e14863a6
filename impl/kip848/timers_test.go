package kip848

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// revoking: a in UNREVOKED_PARTITIONS at epoch 1 (timer@1), b UNRELEASED at 2.
func revoking(t *testing.T, cfg Config) Group {
	t.Helper()
	g := twoMembers(t, cfg)
	g, _ = step(t, g, hb("a", 1, nil), "")
	return g
}

func TestSessionExpired(t *testing.T) {
	g := revoking(t, Config{})
	if d := cmp.Diff([]impl.MemberID{"a", "b"}, g.SessionTimers()); d != "" {
		t.Errorf("SessionTimers (-want +got):\n%s", d)
	}
	// Reference: docs/protocol.md §3.5: expiry removes a with its partition epochs and target entry and bumps.
	ng := g.SessionExpired("a")
	if _, ok := ng.Member("a"); ok || ng.GroupEpoch() != 3 || ng.TargetOf("a").Len() != 0 {
		t.Errorf("after expiry: %s", ng)
	}
	if len(ng.PartitionEpochs()) != 0 {
		t.Errorf("partition epochs left: %v", ng.PartitionEpochs())
	}
	if ng.State() != Assigning {
		t.Errorf("state = %s, want ASSIGNING (lazy assignment)", ng.State())
	}
	// Reference: docs/protocol.md §3.5: unknown member — nothing happens.
	if d := cmp.Diff(g.AppendEncoding(nil), g.SessionExpired("zz").AppendEncoding(nil)); d != "" {
		t.Errorf("expiry of unknown member changed the group")
	}
}

func TestRebalanceTimeout(t *testing.T) {
	g := revoking(t, Config{})
	if d := cmp.Diff([]RebalanceTimerRef{{"a", 1}}, g.RebalanceTimers()); d != "" {
		t.Fatalf("RebalanceTimers (-want +got):\n%s", d)
	}
	acked, _ := step(t, g, hb("a", 1, setPtr(g.TargetOf("a"))), "")
	for _, tc := range []struct {
		name      string
		g         Group
		id        impl.MemberID
		epoch     impl.Epoch
		wantFence bool
	}{
		// Reference: docs/protocol.md §3.5: still at the armed epoch in UNREVOKED → fenced.
		{"armed and still revoking", g, "a", 1, true},
		// Reference: docs/protocol.md §3.5: a firing for another epoch is stale.
		{"stale epoch", g, "a", 0, false},
		// Reference: docs/protocol.md §3.5: cancelled when the member left UNREVOKED.
		{"after the acknowledgement", acked, "a", 1, false},
		{"member not revoking", g, "b", 2, false},
		{"unknown member", g, "zz", 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ng := tc.g.RebalanceTimeoutExpired(tc.id, tc.epoch)
			_, still := ng.Member(tc.id)
			_, was := tc.g.Member(tc.id)
			if fenced := was && !still; fenced != tc.wantFence {
				t.Errorf("fenced = %v, want %v", fenced, tc.wantFence)
			}
			if tc.wantFence && ng.GroupEpoch() != tc.g.GroupEpoch()+1 {
				t.Errorf("fence did not bump the group epoch")
			}
		})
	}
	if len(acked.RebalanceTimers()) != 0 {
		t.Errorf("timer still armed after ack: %v", acked.RebalanceTimers())
	}
}

// Reference: docs/protocol.md §3.5: waiting heartbeats do not reset the timer; re-entering
// UNREVOKED (E+1) re-arms it at the new epoch.
func TestRebalanceTimerRearmedOnReentry(t *testing.T) {
	g := New(Config{}, impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 6}))
	g, _ = step(t, g, joinReq("a", "t"), "")
	g, _ = step(t, g, joinReq("b", "t"), "")
	g, _ = step(t, g, hb("a", 1, nil), "")   // a UNREVOKED at 1 keeping 3
	g, _ = step(t, g, joinReq("c", "t"), "") // epoch 3: a's target shrinks to 2
	g, _ = step(t, g, hb("a", 1, nil), "")   // waiting: unchanged
	if d := cmp.Diff([]RebalanceTimerRef{{"a", 1}}, g.RebalanceTimers()); d != "" {
		t.Fatalf("timers (-want +got):\n%s", d)
	}
	a := member(t, g, "a")
	g, _ = step(t, g, hb("a", 1, setPtr(a.AssignedPartitions)), "")
	a = member(t, g, "a")
	if a.State != UnrevokedPartitions || a.MemberEpoch != 2 || a.RebalanceTimer != (RebalanceTimer{true, 2}) {
		t.Errorf("a after ack = %s, want UNREVOKED at 2 with timer@2", a)
	}
	if ng := g.RebalanceTimeoutExpired("a", 1); len(ng.Members()) != 3 {
		t.Errorf("the old timer fenced a")
	}
}

func TestMetadataChanged(t *testing.T) {
	g := New(Config{}, cluster)
	g, _ = step(t, g, joinReq("a", "t"), "")
	for _, tc := range []struct {
		name     string
		c        impl.Cluster
		wantBump bool
	}{
		// Reference: docs/protocol.md §3.3 step 4: only subscribed topics' partitions matter.
		{"unsubscribed topic grows", impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 4}, impl.TopicMetadata{Name: "u", Partitions: 9}), false},
		{"subscribed topic grows", impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 5}), true},
		{"subscribed topic deleted", impl.NewCluster(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ng := g.MetadataChanged(tc.c)
			if bumped := ng.GroupEpoch() == 2; bumped != tc.wantBump {
				t.Errorf("bumped = %v, want %v", bumped, tc.wantBump)
			}
			if !ng.Cluster().Equal(tc.c) {
				t.Errorf("cluster not installed")
			}
		})
	}
	// Reference: docs/protocol.md §3.3 step 5: the next heartbeat revokes a deleted topic's partitions.
	ng := g.MetadataChanged(impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 2}))
	ng, r := step(t, ng, hb("a", 1, nil), "")
	if a := member(t, ng, "a"); a.State != UnrevokedPartitions || !a.PartitionsPendingRevocation.Equal(ps("t-2 t-3")) || r.Assignment == nil {
		t.Errorf("after shrink: %s, response %+v", a, r)
	}
}
