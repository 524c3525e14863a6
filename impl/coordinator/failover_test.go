package coordinator

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/groupcheck/groupcheck/impl"
)

var persisting = Config{Variant: impl.Kafka, Persist: true}

// roundOf runs one full round from New: a joins (two-step, v9), the initial delay fires, the
// leader syncs assigning t-0 and t-1 to itself. It returns the Stable group at generation 1.
func roundOf(t *testing.T, cfg Config) Group {
	t.Helper()
	ps := protos("cooperative-sticky", "range")
	g, _ := New(cfg).JoinGroup(jgr(1, 9, "", "", ps), "a")
	g, _ = g.JoinGroup(jgr(1, 9, "a", "", ps), "")
	g, _ = g.JoinPhaseTimeout()
	if g.State() != CompletingRebalance {
		t.Fatalf("setup: %v", g)
	}
	if _, ok := g.Log(); ok {
		t.Fatalf("a join completion with members wrote a record: %v", g)
	}
	g, _ = g.SyncGroup(impl.SyncGroupRequest{Conn: 1, MemberID: "a", Generation: 1,
		Assignments: []impl.MemberAssignment{{MemberID: "a", Assignment: asg(0, 1)}}})
	if g.State() != Stable {
		t.Fatalf("setup: %v", g)
	}
	return g
}

// TestLogHoldsTheLastStableGeneration: the leader's SyncGroup writes the record (storeGroup
// before → Stable), with each member's subscription for the selected protocol only; a
// rebalance under way writes nothing, so the log still holds the Stable generation.
// Reference: docs/protocol.md §1.3, §1.5.
func TestLogHoldsTheLastStableGeneration(t *testing.T) {
	g := roundOf(t, persisting)
	want := Record{Generation: 1, Protocol: "cooperative-sticky", Leader: "a",
		Members: []RecordMember{{ID: "a", Subscription: subOf("t"), Assignment: asg(0, 1)}}}
	got, ok := g.Log()
	if d := cmp.Diff(want, got, cmpOpts); !ok || d != "" {
		t.Fatalf("after the sync (ok=%v) (-want +got):\n%s", ok, d)
	}
	// b joins: PreparingRebalance, then CompletingRebalance at generation 2.
	ps := protos("cooperative-sticky", "range")
	g, _ = g.JoinGroup(jgr(2, 9, "", "", ps), "b")
	g, _ = g.JoinGroup(jgr(2, 9, "b", "", ps), "")
	g, _ = g.JoinGroup(jgr(1, 9, "a", "", ps), "")
	if g.State() != CompletingRebalance || g.Generation() != 2 {
		t.Fatalf("setup: %v", g)
	}
	if got, _ := g.Log(); got.Generation != 1 || len(got.Members) != 1 {
		t.Errorf("log during the rebalance: %+v, want generation 1 with a alone", got)
	}
}

// TestLogOffKeepsNothing: without Persist no record is kept (worlds without failovers).
func TestLogOffKeepsNothing(t *testing.T) {
	if _, ok := roundOf(t, Config{Variant: impl.Kafka}).Log(); ok {
		t.Error("a record was kept with Persist off")
	}
}

// TestLogEmptyGroupRecord: a join phase that ends with nobody writes the empty group record.
// Reference: docs/protocol.md §1.3 (PreparingRebalance → Empty: "empty group record written").
func TestLogEmptyGroupRecord(t *testing.T) {
	g := roundOf(t, persisting)
	g, _ = g.LeaveGroup(impl.LeaveGroupRequest{Conn: 1, Members: []impl.LeaveMember{{MemberID: "a"}}})
	if g.State() != Empty {
		t.Fatalf("setup: %v", g)
	}
	want := Record{Generation: 2}
	if got, ok := g.Log(); !ok || !cmp.Equal(want, got, cmpOpts) {
		t.Errorf("log %+v (ok=%v), want %+v", got, ok, want)
	}
}

// TestLogStaticReplacement: a static member replaced in Stable without a rebalance is
// written with its new member id (KIP-345: the new mapping is persisted).
// Reference: docs/protocol.md §1.10.
func TestLogStaticReplacement(t *testing.T) {
	g := stable(static("a1", "a"), dyn("b"))
	g.cfg = persisting
	g, _ = g.JoinGroup(jgr(5, 9, "", "a", rng), "a2")
	if g.State() != Stable || g.Generation() != 2 {
		t.Fatalf("setup: %v", g)
	}
	got, ok := g.Log()
	if !ok || len(got.Members) != 2 || got.Members[0].ID != "a2" || got.Members[0].InstanceID != "a" || got.Leader != "a2" {
		t.Errorf("log %+v (ok=%v): want a2 holding instance a and leading", got, ok)
	}
}

// TestLoad: a loaded group is Stable at the record's generation (Empty without members), its
// members carry only the selected protocol, nothing is parked or pending, nobody is new; no
// record gives a new group. Reference: docs/protocol.md §1.3; GroupMetadata.loadGroup.
func TestLoad(t *testing.T) {
	rec := Record{Generation: 4, Protocol: "range", Leader: "b",
		Members: []RecordMember{{ID: "b", Subscription: subOf("t"), Assignment: asg(1)}, {ID: "a", InstanceID: "i", Subscription: subOf("t"), Assignment: asg(0)}}}
	for _, tc := range []struct {
		name string
		rec  Record
		ok   bool
		cfg  Config
		want Group
	}{
		{"members: Stable", rec, true, Config{},
			Group{state: Stable, generation: 4, protocol: "range", leader: "b", members: []Member{
				{ID: "a", InstanceID: "i", Protocols: rng, Assignment: asg(0)}, {ID: "b", Protocols: rng, Assignment: asg(1)}}}},
		{"no members: Empty", Record{Generation: 3}, true, Config{}, Group{generation: 3}},
		{"no record: a new group", Record{}, false, Config{}, Group{}},
		{"persisting: the record is the new log", Record{Generation: 3}, true, persisting,
			Group{cfg: persisting, generation: 3, log: &Record{Generation: 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, Load(tc.cfg, tc.rec, tc.ok), cmpOpts); d != "" {
				t.Errorf("Load (-want +got):\n%s", d)
			}
		})
	}
}

// TestLoadAfterRoundTrip: loading what a Stable group wrote gives the same group, minus the
// protocols other than the selected one.
func TestLoadAfterRoundTrip(t *testing.T) {
	g := roundOf(t, persisting)
	rec, _ := g.Log()
	want := mod(g, func(w *Group) { at(w, "a").Protocols = protos("cooperative-sticky") })
	if d := cmp.Diff(want, Load(persisting, rec, true), cmpOpts); d != "" {
		t.Errorf("Load(Log) (-want +got):\n%s", d)
	}
}

// TestFailoverReplies: what each request gets from a broker that no longer leads the group's
// partition, and from the new coordinator while it loads (validateGroupStatus).
// Reference: docs/protocol.md §1.4 (JoinGroup), §1.5 (SyncGroup: REBALANCE_IN_PROGRESS while
// loading), §1.6 (Heartbeat: NONE while loading), §1.7, §1.8.
func TestFailoverReplies(t *testing.T) {
	join := jgr(3, 9, "m", "", rng)
	sync := impl.SyncGroupRequest{Conn: 3, MemberID: "m", Generation: 2}
	hb := impl.HeartbeatRequest{Conn: 3, MemberID: "m", Generation: 2}
	leave := impl.LeaveGroupRequest{Conn: 3, Members: []impl.LeaveMember{{MemberID: "m"}}}
	commit := impl.OffsetCommitRequest{Conn: 3, MemberID: "m", Generation: 2}
	for _, tc := range []struct {
		req          impl.Request
		moved, loads impl.Response
	}{
		{join, impl.JoinGroupResponse{Error: impl.NotCoordinator, Generation: impl.NoGeneration, MemberID: "m"},
			impl.JoinGroupResponse{Error: impl.CoordinatorLoadInProgress, Generation: impl.NoGeneration, MemberID: "m"}},
		{sync, impl.SyncGroupResponse{Error: impl.NotCoordinator}, impl.SyncGroupResponse{Error: impl.RebalanceInProgress}},
		{hb, impl.HeartbeatResponse{Error: impl.NotCoordinator}, impl.HeartbeatResponse{Error: impl.None}},
		{leave, impl.LeaveGroupResponse{Error: impl.NotCoordinator}, impl.LeaveGroupResponse{Error: impl.CoordinatorLoadInProgress}},
		{commit, impl.OffsetCommitResponse{Error: impl.NotCoordinator}, impl.OffsetCommitResponse{Error: impl.CoordinatorLoadInProgress}},
	} {
		if d := cmp.Diff(reply(3, tc.moved), NotCoordinatorReply(tc.req), cmpOpts); d != "" {
			t.Errorf("NotCoordinatorReply(%T) (-want +got):\n%s", tc.req, d)
		}
		if d := cmp.Diff(reply(3, tc.loads), LoadingReply(tc.req), cmpOpts); d != "" {
			t.Errorf("LoadingReply(%T) (-want +got):\n%s", tc.req, d)
		}
	}
}
