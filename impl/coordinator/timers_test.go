package coordinator

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

type timerCase struct {
	name    string
	g       Group
	enabled bool
	fire    func(Group) (Group, []impl.Reply)
	want    Group // ignored (must equal g) when !enabled
	out     []impl.Reply
}

func runTimers(t *testing.T, pred func(Group) bool, cases []timerCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := pred(tc.g); got != tc.enabled {
				t.Fatalf("enabled = %v, want %v", got, tc.enabled)
			}
			if !tc.enabled {
				tc.want, tc.out = tc.g, nil
			}
			g, out := tc.fire(tc.g)
			check(t, "timer", g, out, tc.want, tc.out)
		})
	}
}

func TestSessionExpired(t *testing.T) {
	ab := stable(dyn("a"), dyn("b"))
	preparing := mod(ab, func(g *Group) {
		g.state = PreparingRebalance
		*at(g, "a") = joined(*at(g, "a"), 1)
		m := joined(dyn("n"), 3)
		m.IsNew = true
		g.members = append(g.members, m)
	})
	completing := mod(ab, func(g *Group) {
		g.state, g.generation = CompletingRebalance, 3
		at(g, "b").Sync = ParkedSync{Parked: true, Conn: 2}
	})
	exp := func(id impl.MemberID) func(Group) (Group, []impl.Reply) {
		return func(g Group) (Group, []impl.Reply) { return g.SessionExpired(id) }
	}
	for _, tc := range []struct {
		timerCase
		id impl.MemberID
	}{
		// Reference: docs/protocol.md §1.9 (removal → rebalance as in LeaveGroup).
		{timerCase{name: "idle Stable member is removed", g: ab, enabled: true,
			want: mod(ab, func(g *Group) { g.state, g.members = PreparingRebalance, g.members[:1] })}, "b"},
		// Reference: docs/protocol.md §1.9 "members with a parked JoinGroup ... are considered alive".
		{timerCase{name: "parked join keeps a member alive", g: preparing, enabled: false}, "a"},
		// Reference: docs/protocol.md §1.9 "(except isNew members)"; KAFKA-7610.
		{timerCase{name: "new member expires while parked", g: preparing, enabled: true,
			want: mod(preparing, func(g *Group) { g.members = g.members[:2] }),
			out:  []impl.Reply{joinErr(3, "", impl.UnknownMemberID)}}, "n"},
		// Reference: docs/protocol.md §1.9 (parked SyncGroup keeps a member alive).
		{timerCase{name: "parked sync keeps a member alive", g: completing, enabled: false}, "b"},
		{timerCase{name: "unknown member", g: ab, enabled: false}, "zz"},
		{timerCase{name: "dead group", g: mod(ab, func(g *Group) { g.state = Dead }), enabled: false}, "a"},
	} {
		tc.fire = exp(tc.id)
		id := tc.id
		runTimers(t, func(g Group) bool { return g.CanSessionExpire(id) }, []timerCase{tc.timerCase})
	}
	if got := preparing.ExpirableMembers(); len(got) != 2 || got[0] != "b" || got[1] != "n" {
		t.Errorf("ExpirableMembers = %v, want [b n]", got)
	}
}

func TestPendingMemberExpired(t *testing.T) {
	g := Group{pending: []impl.MemberID{"p", "q"}}
	fire := func(id impl.MemberID) func(Group) (Group, []impl.Reply) {
		return func(g Group) (Group, []impl.Reply) { return g.PendingMemberExpired(id) }
	}
	// Reference: docs/protocol.md §1.9 "Pending member: expires after its session timeout".
	runTimers(t, func(g Group) bool { return g.EnabledPendingMemberExpiry("q") }, []timerCase{
		{name: "pending id expires", g: g, enabled: true, fire: fire("q"), want: Group{pending: []impl.MemberID{"p"}}},
		{name: "not pending", g: Group{pending: []impl.MemberID{"p"}}, enabled: false, fire: fire("q")},
	})
}

func TestJoinPhaseTimeout(t *testing.T) {
	fire := Group.JoinPhaseTimeout
	// b is the leader and absent; s is static and absent; a and c rejoined.
	mixed := mod(stable(dyn("b"), dyn("a"), static("s", "i1"), dyn("c"), dyn("d")), func(g *Group) {
		g.state = PreparingRebalance
		*at(g, "a") = joined(*at(g, "a"), 1)
		*at(g, "c") = joined(*at(g, "c"), 3)
	})
	staticOnly := mod(stable(static("s", "i1"), static("t", "i2")), func(g *Group) { g.state = PreparingRebalance })
	gen3 := func(id impl.MemberID) impl.JoinGroupResponse {
		return impl.JoinGroupResponse{Generation: 3, ProtocolName: "range", Leader: "a", MemberID: id}
	}
	leaderResp := gen3("a")
	leaderResp.Members = []impl.JoinGroupMember{
		{MemberID: "a", Metadata: subOf("t")}, {MemberID: "c", Metadata: subOf("t")},
		{MemberID: "s", InstanceID: "i1", Metadata: subOf("t")},
	}
	runTimers(t, Group.EnabledJoinPhaseTimeout, []timerCase{
		{name: "no join timer in Stable", g: stable(dyn("a")), enabled: false, fire: fire},
		// Reference: docs/protocol.md §1.3 onCompleteJoin steps 1–4, KAFKA-8220 (static absent kept).
		{name: "absent dynamic members evicted, absent static kept, leader re-elected", g: mixed, enabled: true, fire: fire,
			want: mod(mixed, func(g *Group) {
				g.state, g.generation, g.leader = CompletingRebalance, 3, "a"
				g.members = []Member{*at(g, "a"), *at(g, "c"), *at(g, "s")}
				for i := range g.members {
					g.members[i].Join, g.members[i].PendingSync = ParkedJoin{}, true
				}
			}),
			out: []impl.Reply{reply(1, leaderResp), reply(3, gen3("c"))}},
		// Reference: docs/protocol.md §1.3 step 2 (nobody rejoined, static members remain: re-arm).
		{name: "only absent static members: re-arming changes nothing", g: staticOnly, enabled: false, fire: fire},
		{name: "initial delay turns into a DelayedJoin", g: mod(staticOnly, func(g *Group) { g.initialJoin = true }),
			enabled: true, fire: fire, want: staticOnly},
		// Reference: docs/protocol.md §1.3 "PreparingRebalance → Empty ... protocolName := None".
		{name: "nobody rejoined: dynamic members evicted, group empties", enabled: true, fire: fire,
			g:    mod(stable(dyn("a"), dyn("b")), func(g *Group) { g.state = PreparingRebalance }),
			want: Group{state: Empty, generation: 3}},
		{name: "initial join whose members all left", enabled: true, fire: fire,
			g: Group{state: PreparingRebalance, initialJoin: true}, want: Group{state: Empty, generation: 1}},
	})
}

func TestSyncPhaseTimeout(t *testing.T) {
	fire := Group.SyncPhaseTimeout
	completing := mod(stable(dyn("a"), dyn("b"), dyn("c")), func(g *Group) {
		g.state, g.generation = CompletingRebalance, 3
		at(g, "a").Sync = ParkedSync{Parked: true, Conn: 1}
		at(g, "b").PendingSync = true
	})
	allPending := mod(completing, func(g *Group) {
		for i := range g.members {
			g.members[i].PendingSync, g.members[i].Sync = true, ParkedSync{}
		}
	})
	stableLate := mod(stable(dyn("a"), dyn("b")), func(g *Group) { at(g, "b").PendingSync = true })
	runTimers(t, Group.EnabledSyncPhaseTimeout, []timerCase{
		{name: "no member pending sync", g: stable(dyn("a")), enabled: false, fire: fire},
		{name: "no sync timer while preparing", g: mod(allPending, func(g *Group) { g.state = PreparingRebalance }), enabled: false, fire: fire},
		// Reference: docs/protocol.md §1.3 step 5 (KAFKA-12890): remove members that did not sync, rebalance.
		{name: "CompletingRebalance evicts the member that did not sync", g: completing, enabled: true, fire: fire,
			want: mod(completing, func(g *Group) {
				g.state = PreparingRebalance
				g.members = []Member{*at(g, "a"), *at(g, "c")}
				for i := range g.members {
					g.members[i].Sync, g.members[i].Assignment = ParkedSync{}, impl.Assignment{}
				}
			}),
			out: []impl.Reply{reply(1, impl.SyncGroupResponse{Error: impl.RebalanceInProgress})}},
		{name: "Stable evicts a member that never synced", g: stableLate, enabled: true, fire: fire,
			want: mod(stableLate, func(g *Group) { g.state, g.members = PreparingRebalance, g.members[:1] })},
		{name: "everybody pending: the group empties", g: allPending, enabled: true, fire: fire,
			want: Group{state: Empty, generation: 4}},
	})
}

func TestUnload(t *testing.T) {
	preparing := mod(stable(dyn("a"), dyn("b")), func(g *Group) {
		g.state = PreparingRebalance
		*at(g, "a") = joined(*at(g, "a"), 1)
	})
	completing := mod(stable(dyn("a"), dyn("b")), func(g *Group) {
		g.state = CompletingRebalance
		at(g, "a").Sync = ParkedSync{Parked: true, Conn: 1}
		at(g, "b").PendingSync = true
	})
	for _, tc := range []struct {
		name string
		g    Group
		want Group
		out  []impl.Reply
	}{
		// Reference: docs/protocol.md §1.3 "any → Dead" (onGroupUnloaded).
		{"preparing: parked joins get NOT_COORDINATOR", preparing,
			mod(preparing, func(g *Group) { g.state, at(g, "a").Join = Dead, ParkedJoin{} }),
			[]impl.Reply{joinErr(1, "a", impl.NotCoordinator)}},
		{"completing: parked syncs get NOT_COORDINATOR", completing,
			mod(completing, func(g *Group) {
				g.state, at(g, "a").Sync, at(g, "b").PendingSync = Dead, ParkedSync{}, false
			}),
			[]impl.Reply{reply(1, impl.SyncGroupResponse{Error: impl.NotCoordinator})}},
		{"dead stays dead", Group{state: Dead}, Group{state: Dead}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, out := tc.g.Unload()
			check(t, "Unload", g, out, tc.want, tc.out)
		})
	}
}
