package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// joinAnswer is the shape of a successful classic JoinGroup answer, which the client acts on
// without question (docs/protocol.md §1.1, §1.3 step 4, §1.4, §1.10): it names the group's current
// generation, protocol and leader and a member of that generation; it carries the member list
// exactly when it names the recipient as leader, and then lists the generation's members
// (only the leader runs the assignor, from that list: ConsumerCoordinator.onLeaderElected);
// and SkipAssignment (KIP-814, JoinGroup v9) is set exactly when the leader is answered from
// a Stable group without a rebalance at v9 or later — a restarted static leader, or KIP-423's
// RESTART — so that it resumes leadership without reassigning. The one exception docs/protocol.md
// §1.10 names: a static restart before v9 is answered with the leader id from before the
// restart, so a restarted leader does not think it leads.
//
// A coordinator that lists the members to a follower, or none to the leader, names a leader
// that is not the group's, or sets SkipAssignment where the leader must assign (or not where
// it must not), sends a client into a round nobody can finish or that reassigns a Stable
// group; a Stable group ignores the extra SyncGroup assignment, so no ownership property sees
// it, and a leader told it follows stops watching metadata (ConsumerCoordinator only checks
// metadata as leader).
var joinAnswer = Property{
	Name:      "join-answer",
	Kind:      explorer.Always,
	Statement: "a successful JoinGroup answer names the current generation, protocol and leader (a pre-v9 static restart: the leader before it) and a member; it lists the generation's members iff it names the recipient leader, with SkipAssignment iff the leader is answered in Stable without a rebalance at v9+",
	Source:    "docs/protocol.md §1.1 (JoinGroup v9, KIP-814), §1.3 step 4, §1.4, §1.10 (GroupCoordinator.doCurrentMemberJoinGroup, updateStaticMemberAndRebalance; ConsumerCoordinator.onLeaderElected)",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		q, _ := handledJoin(pre, ev, post)
		for _, e := range ev {
			r, ok := e.(spec.ReplyEvent)
			if !ok {
				continue
			}
			if a, isJoin := r.Response.(impl.JoinGroupResponse); isJoin && a.Error == impl.None {
				if why := joinAnswerWrong(pre, post, q, a); why != "" {
					return fmt.Sprintf("the JoinGroup answer to %s (%s) %s", r.Name, a.MemberID, why)
				}
			}
		}
		return ""
	},
}

// joinAnswerWrong says what is wrong with successful JoinGroup answer a, sent in the step from
// pre to post that handled JoinGroup q (the zero request when the step handled none: the
// answers of a completed join phase), or "".
func joinAnswerWrong(pre, post *spec.World, q impl.JoinGroupRequest, a impl.JoinGroupResponse) string {
	g := post.Coord
	if a.Generation != g.Generation() || a.ProtocolName != g.ProtocolName() {
		return fmt.Sprintf("names generation %d, protocol %q; the group is at %d, %q", a.Generation, a.ProtocolName, g.Generation(), g.ProtocolName())
	}
	if _, ok := g.Member(a.MemberID); !ok {
		return "names a member the group does not hold"
	}
	immediate := a.Generation == pre.Coord.Generation() // answered at once, not by a join phase completing
	restart := immediate && q.MemberID == impl.NoMemberID && q.InstanceID != "" && q.Version < 9
	if a.Leader != g.Leader() && !(restart && a.Leader == pre.Coord.Leader()) {
		return fmt.Sprintf("names leader %s; the group's is %s", a.Leader, g.Leader())
	}
	toLeader := a.Leader == a.MemberID
	if toLeader != (len(a.Members) > 0) {
		return fmt.Sprintf("lists %d members and names %s leader: the list goes to the leader, and only to it", len(a.Members), a.Leader)
	}
	if toLeader {
		listed := make([]impl.MemberID, len(a.Members))
		for i, m := range a.Members {
			listed[i] = m.MemberID
		}
		slices.Sort(listed)
		want := g.Members()
		slices.Sort(want)
		if !slices.Equal(listed, want) {
			return fmt.Sprintf("lists members %v; the generation's are %v", listed, want)
		}
	}
	skip := toLeader && immediate && pre.Coord.State() == coordinator.Stable && q.Version >= 9
	if a.SkipAssignment != skip {
		return fmt.Sprintf("has SkipAssignment %v (JoinGroup v%d, the group %s before): it goes to a v9+ leader answered in Stable without a rebalance, and only to it", a.SkipAssignment, q.Version, pre.Coord.State())
	}
	return ""
}

// handledJoin is the JoinGroup the step handed to the serving coordinator (spec.Delivered),
// when neither an old broker (a stale connection) nor a loading coordinator answered it.
func handledJoin(pre *spec.World, ev []spec.Event, post *spec.World) (impl.JoinGroupRequest, bool) {
	i, ok := spec.Delivered(pre, post, ev)
	if !ok || pre.Loading || pre.Slots[i].Stale {
		return impl.JoinGroupRequest{}, false
	}
	q, ok := pre.Slots[i].Out[0].(impl.JoinGroupRequest)
	return q, ok
}
