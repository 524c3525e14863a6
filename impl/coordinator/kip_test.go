package coordinator

import (
	"fmt"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// TestJoinReasonInStable is the variant × reason matrix for a member with identity rejoining
// a Stable group. rebalance is whether the group enters PreparingRebalance.
// Reference: docs/protocol.md §1.4 (Kafka), docs/protocol.md §4 (KIP).
func TestJoinReasonInStable(t *testing.T) {
	reasons := []impl.JoinReason{impl.ReasonUnspecified, impl.ReasonRestart, impl.ReasonTopicMetadataChange, impl.ReasonUpgrade}
	for _, tc := range []struct {
		who       impl.MemberID
		changed   bool
		variant   impl.Variant
		rebalance [4]bool // by reason: unspecified, restart, topic_metadata_change, upgrade
	}{
		{"a", false, impl.Kafka, [4]bool{true, true, true, true}},
		{"a", false, impl.KIP, [4]bool{true, false, true, true}},
		{"b", false, impl.Kafka, [4]bool{false, false, false, false}},
		{"b", false, impl.KIP, [4]bool{false, false, true, true}},
		{"b", true, impl.Kafka, [4]bool{true, true, true, true}},
		{"b", true, impl.KIP, [4]bool{true, false, true, true}},
	} {
		for i, r := range reasons {
			name := fmt.Sprintf("%v/%s/changed=%v/%v", tc.variant, tc.who, tc.changed, r)
			t.Run(name, func(t *testing.T) {
				g := stable(dyn("a"), dyn("b"))
				g.cfg.Variant = tc.variant
				ps := rng
				if tc.changed {
					ps = protosU("range")
				}
				req := jgr(1, 9, tc.who, "", ps)
				req.Reason = r
				got, out := g.JoinGroup(req, "")
				if (got.State() == PreparingRebalance) != tc.rebalance[i] {
					t.Fatalf("state %v, want rebalance=%v; out %v", got.State(), tc.rebalance[i], out)
				}
				if m, _ := got.Member(tc.who); !sameProtocols(m.Protocols, ps) {
					t.Errorf("metadata not stored: %v", m.Protocols)
				}
				if tc.rebalance[i] {
					return
				}
				want := impl.JoinGroupResponse{Generation: 2, ProtocolName: "range", Leader: "a", MemberID: tc.who}
				if tc.who == "a" {
					want.Members = memberList(dyn("a"), dyn("b"))
					want.SkipAssignment = true
				}
				check(t, "JoinGroup", got.mustStay(t, g, ps, tc.who), out, g, []impl.Reply{reply(1, want)})
			})
		}
	}
}

// mustStay undoes the stored metadata so that the rest of the group can be compared with g.
func (g Group) mustStay(t *testing.T, orig Group, ps []impl.GroupProtocol, id impl.MemberID) Group {
	t.Helper()
	m, _ := orig.Member(id)
	return mod(g, func(g *Group) { at(g, id).Protocols = m.Protocols })
}

func TestJoinReasonKIPCases(t *testing.T) {
	kip := Config{Variant: impl.KIP}
	ab := stable(dyn("a"), dyn("b"))
	two := protos("range", "rr")
	abTwo := mod(ab, func(g *Group) {
		for i := range g.members {
			g.members[i].Protocols = two
		}
	})
	completing := mod(ab, func(g *Group) {
		g.state, g.generation = CompletingRebalance, 3
		for i := range g.members {
			g.members[i].PendingSync = true
		}
	})
	withReason := func(r impl.JoinGroupRequest, reason impl.JoinReason) impl.JoinGroupRequest {
		r.Reason = reason
		return r
	}
	parkedAs := func(conn impl.Conn, v int16, reason impl.JoinReason) ParkedJoin {
		return ParkedJoin{Parked: true, Conn: conn, Version: v, Reason: reason}
	}
	runJoin(t, []joinCase{
		{
			// Reference: docs/protocol.md §4 (RESTART, no rebalance) with the KIP-345 protocol guard.
			name: "KIP restart that changes the selected assignor still rebalances",
			cfg:  kip, g: abTwo, req: withReason(jgr(2, 9, "b", "", protos("rr")), impl.ReasonRestart),
			want: mod(abTwo, func(g *Group) {
				g.state = PreparingRebalance
				at(g, "b").Protocols, at(g, "b").Join = protos("rr"), parkedAs(2, 9, impl.ReasonRestart)
			}),
		},
		{
			// Reference: docs/protocol.md §4 (the leader's pre-v9 answer carries the members, no SkipAssignment).
			name: "KIP restart of the leader before v9 lists the members without SkipAssignment",
			cfg:  kip, g: ab, req: withReason(jgr(1, 5, "a", "", rng), impl.ReasonRestart), want: ab,
			out: []impl.Reply{reply(1, impl.JoinGroupResponse{Generation: 2, ProtocolName: "range", Leader: "a", MemberID: "a", Members: memberList(dyn("a"), dyn("b"))})},
		},
		{
			// Reference: docs/protocol.md §4 "TOPIC_METADATA_CHANGE → move the group to PreparingRebalance".
			name: "KIP topic metadata change in CompletingRebalance rebalances despite same metadata",
			cfg:  kip, g: completing, req: withReason(jgr(1, 9, "a", "", rng), impl.ReasonTopicMetadataChange),
			want: mod(ab, func(g *Group) {
				g.state, g.generation = PreparingRebalance, 3
				for i := range g.members {
					g.members[i].Assignment = impl.Assignment{}
				}
				at(g, "a").Join = parkedAs(1, 9, impl.ReasonTopicMetadataChange)
			}),
		},
		{
			// Reference: docs/protocol.md §4 (UPGRADE rebalances; known instance id is identity).
			name: "KIP static restart with UPGRADE in Stable rebalances",
			cfg:  kip, g: stable(static("a", "i1"), dyn("b")), req: withReason(jgr(1, 9, "", "i1", rng), impl.ReasonUpgrade), fresh: "n1",
			want: mod(stable(static("n1", "i1"), dyn("b")), func(g *Group) {
				at(g, "b").Assignment, at(g, "n1").Assignment = asg(1), asg(0)
				g.state = PreparingRebalance
				at(g, "n1").Join = parkedAs(1, 9, impl.ReasonUpgrade)
			}),
			out: nil,
		},
		{
			// Reference: docs/protocol.md §4 (members without identity rebalance as before).
			name: "KIP newcomer with RESTART still grows the group",
			cfg:  kip, g: ab, req: withReason(jgr(3, 3, "", "", rng), impl.ReasonRestart), fresh: "m1",
			want: mod(ab, func(g *Group) {
				g.state = PreparingRebalance
				g.members = append(g.members, Member{ID: "m1", Protocols: rng, Join: parkedAs(3, 3, impl.ReasonRestart), IsNew: true})
			}),
		},
	})
}
