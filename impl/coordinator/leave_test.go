package coordinator

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

func TestLeaveGroup(t *testing.T) {
	abc := stable(dyn("a"), dyn("b"), dyn("c"))
	st := stable(static("a", "i1"), dyn("b"))
	preparing := mod(abc, func(g *Group) {
		g.state = PreparingRebalance
		*at(g, "a") = joined(*at(g, "a"), 1)
		*at(g, "b") = joined(*at(g, "b"), 2)
	})
	lv := func(ms ...impl.LeaveMember) impl.LeaveGroupRequest {
		return impl.LeaveGroupRequest{Conn: 9, Members: ms}
	}
	res := func(ms ...impl.LeaveMemberResponse) impl.Reply {
		return reply(9, impl.LeaveGroupResponse{Members: ms})
	}
	lm := func(id impl.MemberID, inst impl.InstanceID) impl.LeaveMember {
		return impl.LeaveMember{MemberID: id, InstanceID: inst}
	}
	lr := func(id impl.MemberID, inst impl.InstanceID, e impl.ErrorCode) impl.LeaveMemberResponse {
		return impl.LeaveMemberResponse{MemberID: id, InstanceID: inst, Error: e}
	}
	gen3 := func(id impl.MemberID, withMembers bool) impl.JoinGroupResponse {
		r := impl.JoinGroupResponse{Generation: 3, ProtocolName: "range", Leader: "a", MemberID: id}
		if withMembers {
			r.Members = memberList(dyn("a"), dyn("b"))
		}
		return r
	}
	for _, tc := range []struct {
		name string
		g    Group
		req  impl.LeaveGroupRequest
		want Group
		out  []impl.Reply
	}{
		// Reference: docs/protocol.md §1.7 "Top-level: Dead → COORDINATOR_NOT_AVAILABLE".
		{"dead group", mod(abc, func(g *Group) { g.state = Dead }), lv(lm("a", "")),
			mod(abc, func(g *Group) { g.state = Dead }),
			[]impl.Reply{reply(9, impl.LeaveGroupResponse{Error: impl.CoordinatorNotAvailable})}},
		// Reference: docs/protocol.md §1.7 "pending member id → drop it".
		{"pending id is dropped", Group{pending: []impl.MemberID{"p"}}, lv(lm("p", "")),
			Group{}, []impl.Reply{res(lr("p", "", impl.None))}},
		// Reference: docs/protocol.md §1.7 "(may complete the join phase)".
		{"dropping the last pending id completes the join phase",
			mod(preparing, func(g *Group) { g.members, g.pending = g.members[:2], []impl.MemberID{"p"} }), lv(lm("p", "")),
			mod(preparing, func(g *Group) {
				g.state, g.generation, g.members = CompletingRebalance, 3, g.members[:2]
				for i := range g.members {
					g.members[i].Join, g.members[i].PendingSync = ParkedJoin{}, true
				}
			}),
			[]impl.Reply{reply(1, gen3("a", true)), reply(2, gen3("b", false)), res(lr("p", "", impl.None))}},
		// Reference: docs/protocol.md §1.7 admin path (empty member id + instance id); leader moves.
		{"admin removes a static member by instance id", st, lv(lm("", "i1")),
			mod(st, func(g *Group) {
				g.state, g.leader, g.members = PreparingRebalance, "b", g.members[1:]
			}),
			[]impl.Reply{res(lr("", "i1", impl.None))}},
		{"admin path with an unknown instance id", st, lv(lm("", "i9")), st, []impl.Reply{res(lr("", "i9", impl.UnknownMemberID))}},
		{"empty member id without instance id", st, lv(lm("", "")), st, []impl.Reply{res(lr("", "", impl.UnknownMemberID))}},
		{"fenced instance", st, lv(lm("b", "i1")), st, []impl.Reply{res(lr("b", "i1", impl.FencedInstanceID))}},
		{"unknown member", st, lv(lm("zz", "")), st, []impl.Reply{res(lr("zz", "", impl.UnknownMemberID))}},
		// Reference: docs/protocol.md §1.7 "Removal: answer its parked JoinGroup with UNKNOWN_MEMBER_ID".
		{"a parked member leaving gets its join answered", preparing, lv(lm("b", "")),
			mod(preparing, func(g *Group) { g.members = []Member{g.members[0], g.members[2]} }),
			[]impl.Reply{joinErr(2, "", impl.UnknownMemberID), res(lr("b", "", impl.None))}},
		// Reference: docs/protocol.md §1.7 "PreparingRebalance → try complete".
		{"the last absent member leaving completes the join phase", preparing, lv(lm("c", "")),
			mod(preparing, func(g *Group) {
				g.state, g.generation, g.members = CompletingRebalance, 3, g.members[:2]
				for i := range g.members {
					g.members[i].Join, g.members[i].PendingSync = ParkedJoin{}, true
				}
			}),
			[]impl.Reply{reply(1, gen3("a", true)), reply(2, gen3("b", false)), res(lr("c", "", impl.None))}},
		// Reference: docs/protocol.md §1.7 (batch, each member in turn; leader replaced in id order).
		{"batch leave of leader and follower", abc, lv(lm("a", ""), lm("b", "")),
			mod(abc, func(g *Group) { g.state, g.leader, g.members = PreparingRebalance, "c", g.members[2:] }),
			[]impl.Reply{res(lr("a", "", impl.None), lr("b", "", impl.None))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, out := tc.g.Handle(tc.req, "")
			check(t, "LeaveGroup", g, out, tc.want, tc.out)
		})
	}
}
