package coordinator

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

func TestStaticReplacement(t *testing.T) {
	ab := stable(static("a", "i1"), static("b", "i2"))
	// replaced renames a (i1) to n1, keeping its record, with the request's protocols.
	replaced := func(g Group, join ParkedJoin, ps []impl.GroupProtocol) Group {
		return mod(g, func(g *Group) {
			m := *at(g, "a")
			m.ID, m.Join, m.Sync, m.Protocols = "n1", join, ParkedSync{}, ps
			g.members = append(g.members[1:], m)
			if g.leader == "a" {
				g.leader = "n1"
			}
		})
	}
	two := protos("range", "rr")
	abTwo := mod(ab, func(g *Group) {
		for i := range g.members {
			g.members[i].Protocols = two
		}
	})
	completing := mod(ab, func(g *Group) {
		g.state, g.generation = CompletingRebalance, 3
		at(g, "a").Sync = ParkedSync{Parked: true, Conn: 7}
		at(g, "b").Sync = ParkedSync{Parked: true, Conn: 8}
	})
	preparing := mod(ab, func(g *Group) {
		g.state = PreparingRebalance
		*at(g, "a") = joined(*at(g, "a"), 5)
	})
	runJoin(t, []joinCase{
		{
			// Reference: docs/protocol.md §1.10 Stable, v9+ (KIP-814): leader resumes with SkipAssignment.
			name: "Stable v9 leader restart resumes leadership without rebalance",
			g:    ab, req: jgr(1, 9, "", "i1", rng), fresh: "n1",
			want: replaced(ab, ParkedJoin{}, rng),
			out: []impl.Reply{reply(1, impl.JoinGroupResponse{Generation: 2, ProtocolName: "range", Leader: "n1", MemberID: "n1",
				Members: memberList(static("b", "i2"), static("n1", "i1")), SkipAssignment: true})},
		},
		{
			// Reference: docs/protocol.md §1.10 Stable, pre-v9: the answer names the old leader id.
			name: "Stable pre-v9 leader restart is told the old leader id",
			g:    ab, req: jgr(1, 5, "", "i1", rng), fresh: "n1",
			want: replaced(ab, ParkedJoin{}, rng),
			out:  []impl.Reply{reply(1, impl.JoinGroupResponse{Generation: 2, ProtocolName: "range", Leader: "a", MemberID: "n1"})},
		},
		{
			// Reference: docs/protocol.md §1.10 Stable (follower restart, no rebalance).
			name: "Stable v9 follower restart gets the current generation",
			g:    stable(static("b", "i2"), static("a", "i1")), req: jgr(1, 9, "", "i1", rng), fresh: "n1",
			want: replaced(stable(static("b", "i2"), static("a", "i1")), ParkedJoin{}, rng),
			out:  []impl.Reply{reply(1, impl.JoinGroupResponse{Generation: 2, ProtocolName: "range", Leader: "b", MemberID: "n1"})},
		},
		{
			// Reference: docs/protocol.md §1.10 Stable "If the selected protocol would change → rebalance".
			name: "Stable restart that changes the selected assignor rebalances",
			g:    abTwo, req: jgr(1, 9, "", "i1", protos("rr")), fresh: "n1",
			want: mod(replaced(abTwo, ParkedJoin{Parked: true, Conn: 1, Version: 9}, protos("rr")), func(g *Group) {
				g.state = PreparingRebalance
			}),
		},
		{
			// Reference: docs/protocol.md §1.10 CompletingRebalance (KAFKA-9801) and the fencing of parked requests.
			name: "CompletingRebalance restart fences the old sync and rebalances",
			g:    completing, req: jgr(1, 9, "", "i1", rng), fresh: "n1",
			want: mod(replaced(completing, ParkedJoin{Parked: true, Conn: 1, Version: 9}, rng), func(g *Group) {
				g.state = PreparingRebalance
				for i := range g.members {
					g.members[i].Sync, g.members[i].Assignment = ParkedSync{}, impl.Assignment{}
				}
			}),
			out: []impl.Reply{
				reply(7, impl.SyncGroupResponse{Error: impl.FencedInstanceID}),
				reply(8, impl.SyncGroupResponse{Error: impl.RebalanceInProgress}),
			},
		},
		{
			// Reference: docs/protocol.md §1.10 PreparingRebalance "replacement only", old join fenced.
			name: "PreparingRebalance restart fences the old join and parks the new one",
			g:    preparing, req: jgr(1, 9, "", "i1", rng), fresh: "n1",
			want: replaced(preparing, ParkedJoin{Parked: true, Conn: 1, Version: 9}, rng),
			out:  []impl.Reply{joinErr(5, "a", impl.FencedInstanceID)},
		},
	})
}

func TestFreshIDContract(t *testing.T) {
	// Reference: JoinGroup doc (the caller supplies an unused id).
	for _, fresh := range []impl.MemberID{"", "a"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("fresh %q: want panic", fresh)
				}
			}()
			stable(dyn("a")).JoinGroup(jgr(1, 9, "", "", rng), fresh)
		}()
	}
}
