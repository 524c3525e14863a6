package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// joinAnswers are the step's successful JoinGroup answers, as reply events.
func joinAnswers(ev []spec.Event) []spec.ReplyEvent {
	var out []spec.ReplyEvent
	for _, e := range ev {
		if r, ok := e.(spec.ReplyEvent); ok {
			if a, isJoin := r.Response.(impl.JoinGroupResponse); isJoin && a.Error == impl.None {
				out = append(out, r)
			}
		}
	}
	return out
}

// withAnswer is ev with its reply event i's JoinGroup answer changed by f.
func withAnswer(ev []spec.Event, i int, f func(*impl.JoinGroupResponse)) []spec.Event {
	out := slices.Clone(ev)
	n := 0
	for k, e := range out {
		r, ok := e.(spec.ReplyEvent)
		if !ok {
			continue
		}
		if a, isJoin := r.Response.(impl.JoinGroupResponse); isJoin && a.Error == impl.None {
			if n == i {
				f(&a)
				r.Response = a
				out[k] = r
			}
			n++
		}
	}
	return out
}

// TestJoinAnswer: the join phase that makes generation 1 of twoMembers answers both members
// as join-answer asks; answers forged as a broken coordinator would send them — the member
// list to a follower (164's flipped leader test), none to the leader, another leader, a
// generation the group is not at, SkipAssignment after a join phase — violate it; and a v9
// static leader restart in Stable is answered with SkipAssignment and the list, which the
// pre-v9 form (the old leader id, no list: 259 and 260's answer at v9) violates.
func TestJoinAnswer(t *testing.T) {
	t.Parallel()
	ws := walk(t, config(t, twoMembers), stableScript[:9]...)
	pre, post := ws[8], ws[9]
	_, ev, ok := spec.Step(pre, mustAction(t, pre, "join-timeout"))
	if !ok {
		t.Fatal("join-timeout not enabled")
	}
	as := joinAnswers(ev)
	if len(as) != 2 {
		t.Fatalf("join completion answers %d members, want 2", len(as))
	}
	if got := joinAnswer.Step(&pre, ev, &post); got != "" {
		t.Fatalf("reference join completion: %q", got)
	}
	leader := slices.IndexFunc(as, func(r spec.ReplyEvent) bool {
		a := r.Response.(impl.JoinGroupResponse)
		return a.Leader == a.MemberID
	})
	follower := 1 - leader
	list := as[leader].Response.(impl.JoinGroupResponse).Members
	for _, tc := range []struct {
		name string
		i    int
		f    func(*impl.JoinGroupResponse)
		want string
	}{
		{"list to the follower", follower, func(a *impl.JoinGroupResponse) { a.Members = list }, "the list goes to the leader, and only to it"},
		{"no list to the leader", leader, func(a *impl.JoinGroupResponse) { a.Members = nil }, "the list goes to the leader, and only to it"},
		{"a short list", leader, func(a *impl.JoinGroupResponse) { a.Members = list[:1] }, "the generation's are"},
		{"another leader", follower, func(a *impl.JoinGroupResponse) { a.Leader = a.MemberID }, "names leader"},
		{"an old generation", follower, func(a *impl.JoinGroupResponse) { a.Generation = 0 }, "the group is at 1"},
		{"SkipAssignment after a join phase", leader, func(a *impl.JoinGroupResponse) { a.SkipAssignment = true }, "has SkipAssignment true"},
	} {
		if got := joinAnswer.Step(&pre, withAnswer(ev, tc.i, tc.f), &post); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want …%s…", tc.name, got, tc.want)
		}
	}

	static := strings.Replace(strings.Replace(twoMembers, "member a topics=t", "member a topics=t static", 1), "member b topics=t", "member b topics=t static", 1)
	c := config(t, static+"budget restarts=1\n")
	pre, ev, post, _ = shortestStep(t, c, joinAnswer, func(_ *spec.World, ev []spec.Event, _ *spec.World) bool {
		for _, r := range joinAnswers(ev) {
			if r.Response.(impl.JoinGroupResponse).SkipAssignment {
				return true
			}
		}
		return false
	})
	oldLeader := pre.Coord.Leader()
	if got := joinAnswer.Step(&pre, withAnswer(ev, 0, func(a *impl.JoinGroupResponse) {
		a.Leader, a.Members, a.SkipAssignment = oldLeader, nil, false
	}), &post); !strings.Contains(got, "names leader "+string(oldLeader)) {
		t.Errorf("the pre-v9 answer to a v9 static leader restart: %q", got)
	}
	if got := joinAnswer.Step(&pre, withAnswer(ev, 0, func(a *impl.JoinGroupResponse) { a.SkipAssignment = false }), &post); !strings.Contains(got, "has SkipAssignment false (JoinGroup v9") {
		t.Errorf("a v9 static leader restart without SkipAssignment: %q", got)
	}
}

// TestJoinedLeader: generation 1 of twoMembers is led by a member its join phase answered;
// the same step with the leader's answer missing (a leader elected among members that did not
// rejoin: 26, 27) violates joined-leader.
func TestJoinedLeader(t *testing.T) {
	ws := walk(t, config(t, twoMembers), stableScript[:9]...)
	pre, post := ws[8], ws[9]
	_, ev, _ := spec.Step(pre, mustAction(t, pre, "join-timeout"))
	if got := joinedLeader.Step(&pre, ev, &post); got != "" {
		t.Fatalf("reference join completion: %q", got)
	}
	without := slices.DeleteFunc(slices.Clone(ev), func(e spec.Event) bool {
		r, ok := e.(spec.ReplyEvent)
		return ok && r.Response.(impl.JoinGroupResponse).MemberID == post.Coord.Leader()
	})
	if got := joinedLeader.Step(&pre, without, &post); !strings.Contains(got, "is not answered a JoinGroup in it") {
		t.Errorf("the leader's answer missing: %q", got)
	}
}

// TestMaxSizeRefusal: with group-max-size 1 a late joiner is refused GROUP_MAX_SIZE_REACHED
// (the property is not vacuous) and max-size-refusal holds; the same refusal of a JoinGroup
// carrying the member's own id (91, 97, 98: a member of the group refused) and a refused id
// the coordinator keeps pending (82) violate it.
func TestMaxSizeRefusal(t *testing.T) {
	c := config(t, strings.Replace(twoMembers, "member b topics=t", "member b topics=t absent", 1)+"budget joins=1\ngroup-max-size 1\n")
	pre, ev, post, _ := shortestStep(t, c, maxSizeRefusal, func(_ *spec.World, ev []spec.Event, _ *spec.World) bool {
		return slices.ContainsFunc(ev, func(e spec.Event) bool {
			r, ok := e.(spec.ReplyEvent)
			return ok && r.Response.Code() == impl.GroupMaxSizeReached
		})
	})
	want := "it is a member of the group"
	if pre.Coord.State() == coordinator.PreparingRebalance {
		want = "it is already awaiting the join" // the shortest refusal: a's join parked, the phase under way
	}
	member := pre.Coord.Members()[0]
	i := slices.IndexFunc(pre.Slots, func(s *spec.Slot) bool { return len(s.Out) > 0 })
	own := ownSlots(pre)
	q := own.Slots[i].Out[0].(impl.JoinGroupRequest)
	q.MemberID = member
	own.Slots[i].Out = append([]impl.Request{q}, own.Slots[i].Out[1:]...)
	if got := maxSizeRefusal.Step(&own, ev, &post); !strings.Contains(got, want) {
		t.Errorf("a member refused: %q", got)
	}
	kept, _ := coordinator.New(coordinator.Config{MaxSize: 1}).JoinGroup(impl.JoinGroupRequest{Conn: 63, Version: 9, Protocols: pre.Coord.AllMembers()[0].Protocols}, "pending-x")
	q.MemberID = "pending-x"
	own.Slots[i].Out[0] = q
	forged := post
	forged.Coord = kept
	if !kept.IsPending("pending-x") {
		t.Fatal("no pending id to forge with")
	}
	if got := maxSizeRefusal.Step(&own, ev, &forged); !strings.Contains(got, "still holds pending-x") {
		t.Errorf("a refused pending id kept: %q", got)
	}
}

// TestJoinReaction: in twoMembers' Stable generation 1, a follower's unchanged JoinGroup is
// answered at once and the leader's starts a rebalance, as join-reaction asks; under KIP-423 a
// leader's unchanged RESTART is answered at once. Each step with the other outcome (the
// coordinator of the other case put in post) violates it, as does a coordinator that keeps
// the old protocols of a follower whose topics changed.
func TestJoinReaction(t *testing.T) {
	for _, tc := range []struct {
		name, world string
		reason      impl.JoinReason
		leader      bool
		due         bool
	}{
		{"Kafka follower", twoMembers, impl.ReasonUnspecified, false, false},
		{"Kafka leader", twoMembers, impl.ReasonUnspecified, true, true},
		{"KIP-423 leader RESTART", strings.Replace(twoMembers, "coordinator kafka", "coordinator kip423", 1), impl.ReasonRestart, true, false},
		{"KIP-423 follower UPGRADE", strings.Replace(twoMembers, "coordinator kafka", "coordinator kip423", 1), impl.ReasonUpgrade, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := walk(t, config(t, tc.world), stableScript...)
			stable := ws[len(ws)-1]
			pre, post, ev := rejoin(t, stable, tc.leader, tc.reason, nil)
			if got := joinReaction.Step(&pre, ev, &post); got != "" {
				t.Fatalf("reference: %q", got)
			}
			rebalanced := post.Coord.State() != stable.Coord.State()
			if rebalanced != tc.due {
				t.Fatalf("the reference rebalanced %v, want %v", rebalanced, tc.due)
			}
			forged := post
			forged.Coord = stable.Coord
			want := "is answered without a rebalance"
			if !tc.due {
				_, forged, _ = rejoin(t, stable, true, impl.ReasonUpgrade, nil) // a rebalance, stored protocols the same
				if forged.Coord.State() == stable.Coord.State() {
					t.Fatal("no rebalancing coordinator to forge with")
				}
				want = "starts a rebalance"
			}
			if got := joinReaction.Step(&pre, ev, &forged); !strings.Contains(got, want) {
				t.Errorf("the other outcome: %q, want …%s…", got, want)
			}
		})
	}
	ws := walk(t, config(t, twoMembers), stableScript...)
	stable := ws[len(ws)-1]
	pre, post, ev := rejoin(t, stable, false, impl.ReasonUnspecified, []string{"u"})
	forged := post
	forged.Coord = stable.Coord
	if got := joinReaction.Step(&pre, ev, &forged); !strings.Contains(got, "the coordinator keeps protocols") {
		t.Errorf("old protocols kept: %q", got)
	}
}

// rejoin has the Stable world's leader (or follower) send a JoinGroup v9 with its stored
// protocols (topics replaced when given) and reason, and the coordinator handle it.
func rejoin(t *testing.T, w spec.World, leader bool, reason impl.JoinReason, topics []string) (pre, post spec.World, ev []spec.Event) {
	t.Helper()
	pre = ownSlots(w)
	for i, s := range pre.Slots {
		id := s.Client.Gen.MemberID
		if (id == w.Coord.Leader()) != leader {
			continue
		}
		m, _ := w.Coord.Member(id)
		ps := slices.Clone(m.Protocols)
		if topics != nil {
			for k := range ps {
				ps[k].Metadata.Topics = topics
			}
		}
		s.Out = []impl.Request{impl.JoinGroupRequest{Conn: s.Client.Config.Conn, Version: 9, MemberID: id, Protocols: ps, Reason: reason}}
		post, ev, ok := spec.Step(pre, mustAction(t, pre, "deliver-request "+w.Config().Members[i].Name))
		if !ok {
			t.Fatal("deliver-request not enabled")
		}
		return pre, post, ev
	}
	t.Fatal("no such member")
	return
}
