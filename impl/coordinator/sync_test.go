package coordinator

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

func TestSyncGroup(t *testing.T) {
	ab := stable(dyn("a"), dyn("b"), dyn("c"))
	completing := mod(ab, func(g *Group) {
		g.state, g.generation = CompletingRebalance, 3
		for i := range g.members {
			g.members[i].PendingSync = true
		}
	})
	sync := func(conn impl.Conn, id impl.MemberID, inst impl.InstanceID, gen impl.Generation, proto string, as ...impl.MemberAssignment) impl.SyncGroupRequest {
		return impl.SyncGroupRequest{Conn: conn, MemberID: id, InstanceID: inst, Generation: gen, ProtocolName: proto, Assignments: as}
	}
	syncErr := func(to impl.Conn, code impl.ErrorCode) []impl.Reply {
		return []impl.Reply{reply(to, impl.SyncGroupResponse{Error: code})}
	}
	ok := func(to impl.Conn, a impl.Assignment) impl.Reply {
		return reply(to, impl.SyncGroupResponse{ProtocolName: "range", Assignment: a})
	}
	bParked := mod(completing, func(g *Group) {
		at(g, "b").Sync, at(g, "b").PendingSync = ParkedSync{Parked: true, Conn: 2}, false
	})
	for _, tc := range []struct {
		name string
		g    Group
		req  impl.SyncGroupRequest
		want Group
		out  []impl.Reply
	}{
		// Reference: docs/protocol.md §1.5 (validation order: Dead, identity, generation, protocol).
		{"dead group", mod(ab, func(g *Group) { g.state = Dead }), sync(1, "a", "", 2, ""),
			mod(ab, func(g *Group) { g.state = Dead }), syncErr(1, impl.CoordinatorNotAvailable)},
		{"unknown member", ab, sync(1, "zz", "", 2, ""), ab, syncErr(1, impl.UnknownMemberID)},
		{"fenced instance", stable(static("a", "i1"), dyn("b")), sync(2, "b", "i1", 2, ""),
			stable(static("a", "i1"), dyn("b")), syncErr(2, impl.FencedInstanceID)},
		{"illegal generation", ab, sync(1, "a", "", 1, ""), ab, syncErr(1, impl.IllegalGeneration)},
		{"inconsistent protocol name (v5+)", ab, sync(1, "a", "", 2, "rr"), ab, syncErr(1, impl.InconsistentGroupProtocol)},
		// Reference: docs/protocol.md §1.5 "PreparingRebalance → REBALANCE_IN_PROGRESS".
		{"PreparingRebalance", mod(ab, func(g *Group) { g.state = PreparingRebalance }), sync(1, "a", "", 2, ""),
			mod(ab, func(g *Group) { g.state = PreparingRebalance }), syncErr(1, impl.RebalanceInProgress)},
		// Reference: docs/protocol.md §1.5 "CompletingRebalance: park the request, drop member from pendingSyncMembers".
		{"follower parks in CompletingRebalance", completing, sync(2, "b", "", 3, "range"), bParked, nil},
		// Reference: docs/protocol.md §1.5 (leader completes: missing members get empty, → Stable, answer parked syncs).
		{"leader completes the round", bParked,
			sync(1, "a", "", 3, "", impl.MemberAssignment{MemberID: "a", Assignment: asg(5)},
				impl.MemberAssignment{MemberID: "zz", Assignment: asg(7)},
				impl.MemberAssignment{MemberID: "b", Assignment: asg(8)},
				impl.MemberAssignment{MemberID: "b", Assignment: asg(6)}),
			mod(completing, func(g *Group) {
				g.state = Stable
				at(g, "a").Assignment, at(g, "a").PendingSync = asg(5), false
				at(g, "b").Assignment, at(g, "b").PendingSync = asg(6), false
				at(g, "c").Assignment = impl.Assignment{}
			}),
			[]impl.Reply{ok(1, asg(5)), ok(2, asg(6))}},
		// Reference: docs/protocol.md §1.5 "Stable: answer with the stored assignment".
		{"Stable returns the stored assignment and clears pendingSync",
			mod(ab, func(g *Group) { at(g, "c").PendingSync = true }), sync(3, "c", "", 2, ""),
			ab, []impl.Reply{ok(3, asg(2))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, out := tc.g.SyncGroup(tc.req)
			check(t, "SyncGroup", g, out, tc.want, tc.out)
			if g2, out2 := tc.g.Handle(tc.req, ""); len(out2) != len(out) || g2.String() != g.String() {
				t.Errorf("Handle differs from SyncGroup: %v %v", g2, out2)
			}
		})
	}
}

func TestHeartbeat(t *testing.T) {
	st := stable(static("a", "i1"), dyn("b"))
	for _, tc := range []struct {
		name  string
		state State
		req   impl.HeartbeatRequest
		want  impl.ErrorCode
	}{
		// Reference: docs/protocol.md §1.6.
		{"dead", Dead, impl.HeartbeatRequest{MemberID: "b", Generation: 2}, impl.CoordinatorNotAvailable},
		{"unknown member", Stable, impl.HeartbeatRequest{MemberID: "zz", Generation: 2}, impl.UnknownMemberID},
		{"fenced instance", Stable, impl.HeartbeatRequest{MemberID: "b", InstanceID: "i1", Generation: 2}, impl.FencedInstanceID},
		{"static member ok", Stable, impl.HeartbeatRequest{MemberID: "a", InstanceID: "i1", Generation: 2}, impl.None},
		{"illegal generation", Stable, impl.HeartbeatRequest{MemberID: "b", Generation: 1}, impl.IllegalGeneration},
		{"preparing: rebalance in progress", PreparingRebalance, impl.HeartbeatRequest{MemberID: "b", Generation: 2}, impl.RebalanceInProgress},
		{"completing: allowed (KAFKA-10134)", CompletingRebalance, impl.HeartbeatRequest{MemberID: "b", Generation: 2}, impl.None},
		{"stable", Stable, impl.HeartbeatRequest{MemberID: "b", Generation: 2}, impl.None},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := mod(st, func(g *Group) { g.state = tc.state })
			tc.req.Conn = 4
			got, out := g.Handle(tc.req, "")
			check(t, "Heartbeat", got, out, g, []impl.Reply{reply(4, impl.HeartbeatResponse{Error: tc.want})})
		})
	}
	// An Empty group has no members, so even a well-formed heartbeat is unknown.
	if _, out := New(Config{}).Heartbeat(impl.HeartbeatRequest{MemberID: "a"}); out[0].Response.Code() != impl.UnknownMemberID {
		t.Errorf("Empty heartbeat: %v", out)
	}
}

func TestOffsetCommit(t *testing.T) {
	st := stable(static("a", "i1"), dyn("b"))
	empty := Group{generation: 4}
	for _, tc := range []struct {
		name string
		g    Group
		req  impl.OffsetCommitRequest
		want impl.ErrorCode
	}{
		// Reference: docs/protocol.md §1.8 validateOffsetCommit steps 1–4 and the state switch.
		{"dead", mod(st, func(g *Group) { g.state = Dead }), impl.OffsetCommitRequest{MemberID: "b", Generation: 2}, impl.CoordinatorNotAvailable},
		{"admin commit to an empty group", empty, impl.OffsetCommitRequest{Generation: -1}, impl.None},
		{"admin commit with member id to an empty group", empty, impl.OffsetCommitRequest{MemberID: "x", Generation: -1}, impl.None},
		{"generation to an empty group", empty, impl.OffsetCommitRequest{MemberID: "x", Generation: 4}, impl.UnknownMemberID},
		{"no identity, non-empty group", st, impl.OffsetCommitRequest{Generation: -1}, impl.UnknownMemberID},
		{"unknown member", st, impl.OffsetCommitRequest{MemberID: "zz", Generation: 2}, impl.UnknownMemberID},
		{"fenced instance", st, impl.OffsetCommitRequest{MemberID: "b", InstanceID: "i1", Generation: 2}, impl.FencedInstanceID},
		{"stale generation", st, impl.OffsetCommitRequest{MemberID: "b", Generation: 1}, impl.IllegalGeneration},
		{"member without generation", st, impl.OffsetCommitRequest{MemberID: "b", Generation: -1}, impl.IllegalGeneration},
		{"stable accepts (no ownership check)", st, impl.OffsetCommitRequest{MemberID: "b", Generation: 2,
			Partitions: impl.NewPartitionSet(impl.TP("t", 0))}, impl.None},
		{"preparing accepts the old generation", mod(st, func(g *Group) { g.state = PreparingRebalance }),
			impl.OffsetCommitRequest{MemberID: "b", Generation: 2}, impl.None},
		{"completing refuses", mod(st, func(g *Group) { g.state = CompletingRebalance }),
			impl.OffsetCommitRequest{MemberID: "b", Generation: 2}, impl.RebalanceInProgress},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Conn = 9
			got, out := tc.g.Handle(tc.req, "")
			check(t, "OffsetCommit", got, out, tc.g, []impl.Reply{reply(9, impl.OffsetCommitResponse{Error: tc.want})})
		})
	}
}
