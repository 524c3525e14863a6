package coordinator

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

type joinCase struct {
	name  string
	cfg   Config
	g     Group
	req   impl.JoinGroupRequest
	fresh impl.MemberID
	want  Group
	out   []impl.Reply
}

func runJoin(t *testing.T, cases []joinCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.g.cfg, tc.want.cfg = tc.cfg, tc.cfg
			g, out := tc.g.JoinGroup(tc.req, tc.fresh)
			check(t, "JoinGroup", g, out, tc.want, tc.out)
		})
	}
}

func TestJoinGroupUnknownMember(t *testing.T) {
	ab := stable(dyn("a"), dyn("b"))
	newM1 := func(v int16) Member { m := joined(dyn("m1"), 1); m.Join.Version = v; m.IsNew = true; return m }
	runJoin(t, []joinCase{
		{
			// Reference: docs/protocol.md §1.4 "Unknown member: group Dead → COORDINATOR_NOT_AVAILABLE".
			name: "dead group refuses a newcomer",
			g:    Group{state: Dead}, req: jgr(1, 9, "", "", rng), fresh: "m1",
			want: Group{state: Dead},
			out:  []impl.Reply{joinErr(1, "", impl.CoordinatorNotAvailable)},
		},
		{
			// Reference: docs/protocol.md §1.2 (an Empty group accepts anything non-empty).
			name: "empty protocol list is inconsistent even for an empty group",
			g:    Group{}, req: jgr(1, 9, "", "", nil), fresh: "m1",
			want: Group{},
			out:  []impl.Reply{joinErr(1, "", impl.InconsistentGroupProtocol)},
		},
		{
			// Reference: docs/protocol.md §1.2 (joiner shares no protocol with all members).
			name: "no assignor shared with the members",
			g:    ab, req: jgr(1, 9, "", "", protos("roundrobin")), fresh: "m1",
			want: ab,
			out:  []impl.Reply{joinErr(1, "", impl.InconsistentGroupProtocol)},
		},
		{
			// Reference: docs/protocol.md §1.4 (KIP-394 two-step join, v4+ dynamic).
			name: "v4 dynamic newcomer gets MEMBER_ID_REQUIRED and becomes pending",
			g:    Group{}, req: jgr(1, 4, "", "", rng), fresh: "m1",
			want: Group{pending: []impl.MemberID{"m1"}},
			out:  []impl.Reply{joinErr(1, "m1", impl.MemberIDRequired)},
		},
		{
			// Reference: docs/protocol.md §1.3 "Empty → PreparingRebalance", §1.4 (v<4 added at once).
			name: "v3 dynamic newcomer is added at once and starts the initial join",
			g:    Group{}, req: jgr(1, 3, "", "", rng), fresh: "m1",
			want: Group{state: PreparingRebalance, leader: "m1", members: []Member{newM1(3)}, initialJoin: true},
		},
		{
			// Reference: docs/protocol.md §1.3 "Stable → PreparingRebalance: new member".
			name: "v3 dynamic newcomer rebalances a Stable group",
			g:    ab, req: jgr(1, 3, "", "", rng), fresh: "m1",
			want: mod(ab, func(g *Group) {
				g.state = PreparingRebalance
				g.members = append(g.members, newM1(3))
			}),
		},
		{
			// Reference: docs/protocol.md §1.4 "static: ... otherwise add the member and maybePrepareRebalance".
			name: "static newcomer with an unknown instance id is added",
			g:    Group{}, req: jgr(1, 5, "", "i1", rng), fresh: "m1",
			want: Group{state: PreparingRebalance, leader: "m1", initialJoin: true, members: []Member{func() Member {
				m := newM1(5)
				m.InstanceID = "i1"
				return m
			}()}},
		},
		{
			// Reference: docs/protocol.md §1.4 capacity check (Stable counts members).
			name: "group.max.size reached in Stable",
			cfg:  Config{MaxSize: 2},
			g:    ab, req: jgr(1, 3, "", "", rng), fresh: "m1",
			want: ab,
			out:  []impl.Reply{joinErr(1, "", impl.GroupMaxSizeReached)},
		},
		{
			// Reference: docs/protocol.md §1.4 capacity check (PreparingRebalance counts parked members;
			// the refused member is removed, here the leader, and the join phase completes).
			name: "group.max.size in PreparingRebalance removes a refused known member",
			cfg:  Config{MaxSize: 1},
			g: mod(ab, func(g *Group) {
				g.state, g.leader = PreparingRebalance, "b"
				*at(g, "a") = joined(*at(g, "a"), 1)
			}),
			req: jgr(2, 9, "b", "", rng),
			want: mod(ab, func(g *Group) {
				g.state, g.generation, g.members = CompletingRebalance, 3, g.members[:1]
				g.members[0].PendingSync = true
			}),
			out: []impl.Reply{
				joinErr(2, "", impl.GroupMaxSizeReached),
				reply(1, impl.JoinGroupResponse{Generation: 3, ProtocolName: "range", Leader: "a", MemberID: "a", Members: memberList(dyn("a"))}),
			},
		},
	})
}

func TestJoinGroupKnownMember(t *testing.T) {
	ab := stable(dyn("a"), dyn("b"))
	completing := mod(ab, func(g *Group) {
		g.state, g.generation = CompletingRebalance, 3
		for i := range g.members {
			g.members[i].PendingSync = true
		}
		at(g, "b").Sync = ParkedSync{Parked: true, Conn: 7}
		at(g, "b").PendingSync = false
	})
	preparing := mod(stable(dyn("a"), dyn("b"), dyn("c")), func(g *Group) {
		g.state = PreparingRebalance
		*at(g, "a") = joined(*at(g, "a"), 1)
	})
	rebalanced := func(g Group, id impl.MemberID, conn impl.Conn, ps []impl.GroupProtocol) Group {
		return mod(g, func(g *Group) {
			g.state = PreparingRebalance
			for i := range g.members {
				g.members[i].PendingSync, g.members[i].Sync = false, ParkedSync{}
			}
			m := at(g, id)
			m.Protocols, m.Join = ps, ParkedJoin{Parked: true, Conn: conn, Version: 9}
		})
	}
	runJoin(t, []joinCase{
		{
			// Reference: docs/protocol.md §1.4 "id is a pending member → add and rebalance".
			name: "pending id rejoins and is added",
			g:    Group{pending: []impl.MemberID{"m1"}}, req: jgr(1, 4, "m1", "", rng),
			want: Group{state: PreparingRebalance, leader: "m1", initialJoin: true,
				members: []Member{func() Member { m := joined(dyn("m1"), 1); m.Join.Version, m.IsNew = 4, true; return m }()}},
		},
		{
			// Reference: docs/protocol.md §1.4 ("pending ids cannot be static"; Kafka throws).
			name: "pending id with an instance id is refused",
			g:    Group{pending: []impl.MemberID{"m1"}}, req: jgr(1, 5, "m1", "i1", rng),
			want: Group{pending: []impl.MemberID{"m1"}},
			out:  []impl.Reply{joinErr(1, "m1", impl.InvalidRequest)},
		},
		{
			// Reference: docs/protocol.md §1.4 validateCurrentMember, §1.10.
			name: "instance id mapped to another member is fenced",
			g:    stable(static("a", "i1"), dyn("b")), req: jgr(2, 9, "b", "i1", rng),
			want: stable(static("a", "i1"), dyn("b")),
			out:  []impl.Reply{joinErr(2, "b", impl.FencedInstanceID)},
		},
		{
			// Reference: docs/protocol.md §1.4 validateCurrentMember.
			name: "unknown instance id",
			g:    ab, req: jgr(1, 9, "a", "i9", rng), want: ab,
			out: []impl.Reply{joinErr(1, "a", impl.UnknownMemberID)},
		},
		{
			// Reference: docs/protocol.md §1.4 validateCurrentMember.
			name: "unknown member id",
			g:    ab, req: jgr(1, 9, "zz", "", rng), want: ab,
			out: []impl.Reply{joinErr(1, "zz", impl.UnknownMemberID)},
		},
		{
			// Reference: docs/protocol.md §1.4 "Known member id: Dead → COORDINATOR_NOT_AVAILABLE".
			name: "dead group refuses a member",
			g:    mod(ab, func(g *Group) { g.state = Dead }), req: jgr(1, 9, "a", "", rng),
			want: mod(ab, func(g *Group) { g.state = Dead }),
			out:  []impl.Reply{joinErr(1, "a", impl.CoordinatorNotAvailable)},
		},
		{
			// Reference: docs/protocol.md §1.4 "PreparingRebalance: update metadata, park".
			name: "PreparingRebalance parks the request",
			g:    preparing, req: jgr(2, 9, "b", "", protosU("range")),
			want: mod(preparing, func(g *Group) {
				at(g, "b").Join = ParkedJoin{Parked: true, Conn: 2, Version: 9}
				at(g, "b").Protocols = protosU("range")
			}),
		},
		{
			// Reference: docs/protocol.md §1.3 (join completes when all members rejoined), steps 3–4.
			name: "last member to rejoin completes the join phase",
			g: mod(preparing, func(g *Group) {
				*at(g, "b") = joined(*at(g, "b"), 2)
			}),
			req: jgr(3, 9, "c", "", rng),
			want: mod(preparing, func(g *Group) {
				g.state, g.generation = CompletingRebalance, 3
				for i := range g.members {
					g.members[i].Join, g.members[i].PendingSync = ParkedJoin{}, true
				}
			}),
			out: []impl.Reply{
				reply(1, impl.JoinGroupResponse{Generation: 3, ProtocolName: "range", Leader: "a", MemberID: "a", Members: memberList(dyn("a"), dyn("b"), dyn("c"))}),
				reply(2, impl.JoinGroupResponse{Generation: 3, ProtocolName: "range", Leader: "a", MemberID: "b"}),
				reply(3, impl.JoinGroupResponse{Generation: 3, ProtocolName: "range", Leader: "a", MemberID: "c"}),
			},
		},
		{
			// Reference: docs/protocol.md §1.4 "CompletingRebalance: same metadata → answer current generation (leader gets the member list)".
			name: "CompletingRebalance leader with same metadata gets the members again",
			g:    completing, req: jgr(1, 9, "a", "", rng), want: completing,
			out: []impl.Reply{reply(1, impl.JoinGroupResponse{Generation: 3, ProtocolName: "range", Leader: "a", MemberID: "a", Members: memberList(dyn("a"), dyn("b"))})},
		},
		{
			// Reference: docs/protocol.md §1.4 (CompletingRebalance, same metadata, follower).
			name: "CompletingRebalance follower with same metadata gets the current generation",
			g:    completing, req: jgr(2, 9, "b", "", rng), want: completing,
			out: []impl.Reply{reply(2, impl.JoinGroupResponse{Generation: 3, ProtocolName: "range", Leader: "a", MemberID: "b"})},
		},
		{
			// Reference: docs/protocol.md §1.3 "Entering PreparingRebalance" (parked syncs answered, assignments cleared).
			name: "CompletingRebalance changed metadata rebalances and releases parked syncs",
			g:    completing, req: jgr(1, 9, "a", "", protosU("range")),
			want: mod(rebalanced(completing, "a", 1, protosU("range")), func(g *Group) {
				for i := range g.members {
					g.members[i].Assignment = impl.Assignment{}
				}
			}),
			out: []impl.Reply{reply(7, impl.SyncGroupResponse{Error: impl.RebalanceInProgress})},
		},
		{
			// Reference: docs/protocol.md §1.4 "Stable: leader → always rebalance".
			name: "Stable leader rejoin with same metadata rebalances",
			g:    ab, req: jgr(1, 9, "a", "", rng), want: rebalanced(ab, "a", 1, rng),
		},
		{
			// Reference: docs/protocol.md §1.4 "follower with identical metadata → current generation".
			name: "Stable follower with same metadata gets the current generation",
			g:    ab, req: jgr(2, 9, "b", "", rng), want: ab,
			out: []impl.Reply{reply(2, impl.JoinGroupResponse{Generation: 2, ProtocolName: "range", Leader: "a", MemberID: "b"})},
		},
		{
			// Reference: docs/protocol.md §1.4 "follower with changed metadata → rebalance".
			name: "Stable follower with changed metadata rebalances",
			g:    ab, req: jgr(2, 9, "b", "", protosU("range")), want: rebalanced(ab, "b", 2, protosU("range")),
		},
	})
}
