package coordinator

import (
	"bytes"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// TestTwoStepJoinToStable drives two v9 dynamic members through the KIP-394 two-step join,
// the initial delay, and the SyncGroup round, via Handle.
// Reference: docs/protocol.md §1.4 (two-step join), §1.3, §1.5.
func TestTwoStepJoinToStable(t *testing.T) {
	g := New(Config{})
	step := func(req impl.Request, fresh impl.MemberID) []impl.Reply {
		t.Helper()
		var out []impl.Reply
		g, out = g.Handle(req, fresh)
		return out
	}
	code := func(out []impl.Reply, i int) impl.ErrorCode { return out[i].Response.Code() }

	out := step(jgr(1, 9, "", "", rng), "m1")
	if g.State() != Empty || len(out) != 1 || code(out, 0) != impl.MemberIDRequired || !g.IsPending("m1") {
		t.Fatalf("first step: %v %v", g, out)
	}
	step(jgr(2, 9, "", "", rng), "m2")
	if out = step(jgr(1, 9, "m1", "", rng), ""); len(out) != 0 || g.State() != PreparingRebalance || !g.InitialJoin() {
		t.Fatalf("second step: %v %v", g, out)
	}
	step(jgr(2, 9, "m2", "", rng), "")
	if g.EnabledSyncPhaseTimeout() || !g.EnabledJoinPhaseTimeout() || g.Leader() != "m1" || len(g.Parked()) != 2 {
		t.Fatalf("before the initial delay: %v", g)
	}
	g, out = g.JoinPhaseTimeout()
	if g.State() != CompletingRebalance || g.Generation() != 1 || len(out) != 2 || len(out[0].Response.(impl.JoinGroupResponse).Members) != 2 {
		t.Fatalf("join completion: %v %v", g, out)
	}
	if !g.SyncTimerArmed() {
		t.Fatalf("sync timer not armed: %v", g)
	}
	step(impl.SyncGroupRequest{Conn: 2, MemberID: "m2", Generation: 1}, "")
	out = step(impl.SyncGroupRequest{Conn: 1, MemberID: "m1", Generation: 1, ProtocolName: "range",
		Assignments: []impl.MemberAssignment{{MemberID: "m1", Assignment: asg(0)}, {MemberID: "m2", Assignment: asg(1)}}}, "")
	if g.State() != Stable || len(out) != 2 || out[1].To != 2 || !out[1].Response.(impl.SyncGroupResponse).Assignment.Equal(asg(1)) {
		t.Fatalf("sync completion: %v %v", g, out)
	}
	if g.SyncTimerArmed() || len(g.ExpirableMembers()) != 2 || len(g.Members()) != 2 || g.ProtocolName() != "range" {
		t.Errorf("stable group: %v", g)
	}
	if m, ok := g.Member("m2"); !ok || m.IsNew || !m.Assignment.Equal(asg(1)) {
		t.Errorf("member m2: %+v", m)
	}
	if id, ok := g.StaticMember("i1"); ok || id != "" {
		t.Errorf("no static member expected")
	}
}

func TestEncodingAndRendering(t *testing.T) {
	a := mod(stable(static("a", "i1"), dyn("b")), func(g *Group) {
		*at(g, "a") = joined(*at(g, "a"), 3)
		at(g, "a").IsNew = true
		at(g, "b").Sync, at(g, "b").PendingSync = ParkedSync{Parked: true, Conn: 4}, true
		at(g, "b").Assignment.Error = impl.NeedsRejoin
		g.pending = []impl.MemberID{"x"}
		g.initialJoin = true
	})
	want := "Stable gen=2 proto=range initial leader=a members=(a[i1]{join@3 new asg=(t-0)} b{sync@4 psync asg=(t-1)!NEEDS_REJOIN}) pending=(x)"
	if got := a.String(); got != want {
		t.Errorf("String:\n got %s\nwant %s", got, want)
	}
	if got := New(Config{}).String(); got != "Empty gen=0 leader=- members=()" {
		t.Errorf("empty String: %s", got)
	}
	// Equal states encode equally, whatever their config; every field matters.
	b := mod(a, func(g *Group) { g.cfg.Variant = impl.KIP })
	if !bytes.Equal(a.AppendEncoding(nil), b.AppendEncoding(nil)) {
		t.Errorf("equal groups encode differently")
	}
	for name, f := range map[string]func(*Group){
		"state":       func(g *Group) { g.state = PreparingRebalance },
		"initial":     func(g *Group) { g.initialJoin = false },
		"generation":  func(g *Group) { g.generation++ },
		"leader":      func(g *Group) { g.leader = "b" },
		"pending":     func(g *Group) { g.pending = nil },
		"join conn":   func(g *Group) { at(g, "a").Join.Conn = 5 },
		"join reason": func(g *Group) { at(g, "a").Join.Reason = impl.ReasonRestart },
		"sync conn":   func(g *Group) { at(g, "b").Sync.Conn = 5 },
		"pendingSync": func(g *Group) { at(g, "b").PendingSync = false },
		"assignment":  func(g *Group) { at(g, "b").Assignment = asg(2) },
		"protocols":   func(g *Group) { at(g, "b").Protocols = protosU("range") },
		"owned": func(g *Group) {
			s := subOf("t")
			s.OwnedPartitions = asg(1).Partitions
			at(g, "b").Protocols = []impl.GroupProtocol{{Name: "range", Metadata: s}}
		},
	} {
		c := mod(a, func(g *Group) {
			at(g, "b").Protocols = []impl.GroupProtocol{{Name: "range", Metadata: subOf("t")}}
		})
		d := mod(c, f)
		if bytes.Equal(c.AppendEncoding(nil), d.AppendEncoding(nil)) {
			t.Errorf("%s: change not encoded", name)
		}
	}
}

// TestStepsDoNotMutateTheReceiver: copy on write — stepping a group leaves it unchanged.
func TestStepsDoNotMutateTheReceiver(t *testing.T) {
	g := mod(stable(dyn("a"), dyn("b"), static("c", "i1")), func(g *Group) {
		g.state = CompletingRebalance
		at(g, "b").Sync = ParkedSync{Parked: true, Conn: 2}
		at(g, "c").PendingSync = true
	})
	before := g.AppendEncoding(nil)
	g.JoinGroup(jgr(1, 9, "a", "", protosU("range")), "")
	g.JoinGroup(jgr(1, 9, "", "i1", rng), "n")
	g.SyncGroup(impl.SyncGroupRequest{Conn: 1, MemberID: "a", Generation: 2})
	g.LeaveGroup(impl.LeaveGroupRequest{Members: []impl.LeaveMember{{MemberID: "b"}}})
	g.SyncPhaseTimeout()
	g.SessionExpired("a")
	g.Unload()
	if !bytes.Equal(before, g.AppendEncoding(nil)) {
		t.Errorf("receiver modified")
	}
}
