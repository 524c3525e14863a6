package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/spec"
)

// A transition is one coordinator step of the reference world, named by what a broker can
// be asked to show: the request kind (with its static, new-member, leader or leave flavour)
// or the timer, the group state it found, and the error code it answered the sender with
// ("parked" when the answer waits for a join or sync phase). Two edges with one name are
// one transition; the probe covers a transition by driving a broker through an edge of it.
type transition string

// transitionOf names the coordinator transition of action a in w, or "" when a is no
// coordinator step (a member's or the environment's own move).
func transitionOf(w spec.World, a spec.Action, ev []spec.Event) transition {
	state := groupState(w)
	switch a.Kind {
	case spec.DeliverRequest, spec.Assign:
		if a.Kind == spec.Assign && !w.Config().ConsumerProtocol {
			return ""
		}
		i := int(a.Slot)
		req := w.Slots[i].Out[0]
		return transition(fmt.Sprintf("%s %s: %s", requestFlavour(req), state, answerOf(req, i, ev)))
	case spec.SessionExpiry, spec.PendingExpiry, spec.JoinTimeout, spec.SyncTimeout, spec.RebalanceTimeout:
		return transition(fmt.Sprintf("%s %s", a.Kind, state))
	}
	return ""
}

func groupState(w spec.World) string {
	if w.Config().ConsumerProtocol {
		return w.Group.State().String()
	}
	return w.Coord.State().String()
}

// requestFlavour is the request kind and the flags that select a different code path in
// the coordinator.
func requestFlavour(r impl.Request) string {
	var parts []string
	static := false
	switch r := r.(type) {
	case impl.JoinGroupRequest:
		parts = append(parts, "JoinGroup")
		if r.MemberID == impl.NoMemberID {
			parts = append(parts, "new")
		}
		static = r.InstanceID != ""
	case impl.SyncGroupRequest:
		parts = append(parts, "SyncGroup")
		if len(r.Assignments) > 0 {
			parts = append(parts, "leader")
		}
		static = r.InstanceID != ""
	case impl.HeartbeatRequest:
		parts, static = append(parts, "Heartbeat"), r.InstanceID != ""
	case impl.LeaveGroupRequest:
		parts = append(parts, "LeaveGroup")
		static = slices.ContainsFunc(r.Members, func(m impl.LeaveMember) bool { return m.InstanceID != "" })
	case impl.OffsetCommitRequest:
		parts, static = append(parts, "OffsetCommit"), r.InstanceID != ""
	case impl.ConsumerGroupHeartbeatRequest:
		parts = append(parts, "ConsumerGroupHeartbeat")
		switch {
		case r.MemberEpoch == impl.EpochJoin && r.MemberID == impl.NoMemberID:
			parts = append(parts, "join")
		case r.MemberEpoch == impl.EpochJoin:
			parts = append(parts, "rejoin")
		case r.MemberEpoch == impl.EpochLeave:
			parts = append(parts, "leave")
		case r.MemberEpoch == impl.EpochTemporaryLeave:
			parts = append(parts, "temporary-leave")
		}
		static = r.InstanceID != ""
	}
	if static {
		parts = append(parts, "static")
	}
	return strings.Join(parts, " ")
}

// answerOf is the error code the step answered slot i's request with, "parked" when it
// waits, "dropped" when the answer went to a connection nobody reads.
func answerOf(req impl.Request, i int, ev []spec.Event) string {
	for _, e := range ev {
		if r, ok := e.(spec.ReplyEvent); ok && r.Slot == i && answers(req, r.Response) {
			if r.Dropped {
				return "dropped " + r.Response.Code().String()
			}
			return r.Response.Code().String()
		}
	}
	return "parked"
}

// answers reports whether resp is of the kind that answers req.
func answers(req impl.Request, resp impl.Response) bool {
	switch req.(type) {
	case impl.JoinGroupRequest:
		_, ok := resp.(impl.JoinGroupResponse)
		return ok
	case impl.SyncGroupRequest:
		_, ok := resp.(impl.SyncGroupResponse)
		return ok
	case impl.HeartbeatRequest:
		_, ok := resp.(impl.HeartbeatResponse)
		return ok
	case impl.LeaveGroupRequest:
		_, ok := resp.(impl.LeaveGroupResponse)
		return ok
	case impl.OffsetCommitRequest:
		_, ok := resp.(impl.OffsetCommitResponse)
		return ok
	case impl.ConsumerGroupHeartbeatRequest:
		_, ok := resp.(impl.ConsumerGroupHeartbeatResponse)
		return ok
	}
	return false
}

// realisable reports whether the probe can make a broker take action a in w, as the
// reference takes it:
//   - no metadata change, failover, hang, pause or follow-up: the probe drives the group
//     coordinator only (its worlds have none of these);
//   - a KIP-848 session expiry only where every other member can be kept alive meanwhile
//     by a heartbeat that changes nothing (quietOthers);
//   - no session expiry of a new classic member parked in its first join: Kafka expires it
//     after CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS, a constant 300000 ms (KAFKA-7610;
//     GroupCoordinatorConfig), not after its session timeout, longer than a probe waits;
//   - no pending-member expiry: a broker shows pending member ids nowhere (DescribeGroups
//     lists members only), so the probe has no answer to wait for when it fires;
//   - a request on a connection whose earlier request the coordinator has parked waits in
//     the socket: a broker reads one request of a connection at a time (Kafka's
//     SocketServer mutes a connection until its response is sent), so it cannot be
//     delivered before the parked one is answered;
//   - the join phase a group starts from Empty completes at once: the broker runs with
//     group.initial.rebalance.delay.ms 0 (kfake has no initial delay at all), so nothing
//     happens between the first member's join and the initial join timer;
//   - so does a join phase whose last member left: the join timer's delay is the group's
//     rebalance timeout, the largest of its members' (ClassicGroup.rebalanceTimeoutMs), 0
//     for a group without members (GroupMetadataManager.maybeCompleteJoinElseSchedule).
//     The reference's timers have no length, so it lets anything happen first.
func realisable(w spec.World, a spec.Action) bool {
	switch a.Kind {
	case spec.AddPartition, spec.DeleteTopic, spec.Failover, spec.Load, spec.Hang, spec.Pause, spec.Resume, spec.Followup, spec.Refresh,
		spec.PendingExpiry:
		return false
	}
	if w.Config().ConsumerProtocol {
		return a.Kind != spec.SessionExpiry || quietOthers(w, a.Member)
	}
	if a.Kind == spec.SessionExpiry {
		if m, ok := w.Coord.Member(a.Member); ok && m.IsNew && m.Join.Parked {
			return false
		}
	}
	if joinAtOnce(w) {
		return a.Kind == spec.JoinTimeout
	}
	if a.Kind == spec.DeliverRequest && len(w.Slots[a.Slot].Out) > 0 {
		c := w.Slots[a.Slot].Out[0].From()
		for _, p := range w.Coord.Parked() {
			if p.Conn == c {
				return false
			}
		}
	}
	return true
}

// joinAtOnce reports whether w's classic group is in a join phase a broker completes at
// once: the initial one, or one with no members left (see realisable).
func joinAtOnce(w spec.World) bool {
	return !w.Config().ConsumerProtocol && w.Coord.EnabledJoinPhaseTimeout() && (w.Coord.InitialJoin() || len(w.Coord.Members()) == 0)
}

// quietOthers reports whether every KIP-848 member but id can be kept alive by a heartbeat
// that changes nothing (its epoch, no field changed): the group's session timeout is one for
// all members, so while the probe waits for id's session to expire it heartbeats the others
// (keepAlive), and a heartbeat that would move one on is one the schedule does not have.
func quietOthers(w spec.World, id impl.MemberID) bool {
	for _, m := range w.Group.Members() {
		if m.ID != id && !quietHeartbeat(w, m) {
			return false
		}
	}
	return true
}

// quietHeartbeat reports whether member m's plain heartbeat changes nothing in the group.
func quietHeartbeat(w spec.World, m kip848.Member) bool {
	req := impl.ConsumerGroupHeartbeatRequest{MemberID: m.ID, MemberEpoch: m.MemberEpoch, InstanceID: m.InstanceID}
	g, out := w.Group.Heartbeat(req, "")
	return len(out) == 1 && out[0].Response.Code() == impl.None && string(g.AppendEncoding(nil)) == string(w.Group.AppendEncoding(nil))
}

// schedule is a sequence of actions of one world, from its initial state.
type schedule struct {
	World   string
	Actions []spec.Action
	// Target is the transition the schedule was built to reach (its last step), or a
	// description (a random walk, a late or doubled request).
	Target string
}

// explored is what a breadth-first search of a world found: every transition it reaches,
// with a shortest schedule to each.
type explored struct {
	States      int
	Complete    bool // false when the search stopped at maxStates
	Transitions map[transition]schedule
	// Through names, for each transition reached only by taking a forbidden edge (explore
	// with attribute), the difference seen on the first forbidden edge of a shortest path.
	Through map[transition]string
}

// explore searches w's realisable states breadth first, up to maxStates, and keeps the
// first (so shortest) schedule reaching each transition.
func explore(name string, cfg spec.Config, maxStates int) explored {
	return exploreAvoiding(name, cfg, maxStates, nil, false)
}

// exploreAvoiding is explore taking no edge f forbids. With attribute it then searches on
// from the forbidden edges (up to maxStates states more) and records in Through each
// transition only they lead to, with the difference of the first one on the way.
func exploreAvoiding(name string, cfg spec.Config, maxStates int, f *forbidden, attribute bool) explored {
	type node struct {
		w      spec.World
		parent int
		action spec.Action
		via    string // the difference of the first forbidden edge on the path, "" for none
	}
	nodes := []node{{w: spec.Init(cfg), parent: -1}}
	seen := map[string]bool{string(nodes[0].w.Encode(nil)): true}
	seenVia := map[string]bool{}
	out := explored{Complete: true, Transitions: map[transition]schedule{}, Through: map[transition]string{}}
	path := func(i int, last spec.Action) []spec.Action {
		as := []spec.Action{last}
		for ; nodes[i].parent >= 0; i = nodes[i].parent {
			as = append(as, nodes[i].action)
		}
		slices.Reverse(as)
		return as
	}
	// The clean search runs first, then the one past forbidden edges, so that a state
	// reachable without one is never recorded as reached through one.
	clean, through := []int{0}, []int(nil)
	viaStates := 0
	var buf []spec.Action
	for len(clean) > 0 || len(through) > 0 {
		var head int
		if len(clean) > 0 {
			head, clean = clean[0], clean[1:]
		} else {
			head, through = through[0], through[1:]
		}
		w, via := nodes[head].w, nodes[head].via
		if via != "" && seen[string(w.Encode(nil))] {
			continue
		}
		var key string
		if !f.empty() {
			key = string(w.Encode(nil))
		}
		buf = spec.Actions(w, buf[:0])
		for _, a := range buf {
			if !realisable(w, a) {
				continue
			}
			next, ev, ok := spec.Step(w, a)
			if !ok {
				continue
			}
			t := transitionOf(w, a, ev)
			nextVia := via
			if via == "" {
				if id, bad := f.blocks(key, a, t, &cfg); bad {
					if !attribute {
						continue
					}
					nextVia = id
				}
			}
			if t != "" {
				if nextVia == "" {
					if _, had := out.Transitions[t]; !had {
						out.Transitions[t] = schedule{World: name, Actions: path(head, a), Target: string(t)}
					}
				} else if _, had := out.Through[t]; !had {
					out.Through[t] = nextVia
				}
			}
			k := string(next.Encode(nil))
			if seen[k] || nextVia != "" && seenVia[k] {
				continue
			}
			if nextVia == "" && len(nodes)-viaStates >= maxStates || nextVia != "" && viaStates >= maxStates {
				if nextVia == "" {
					out.Complete = false
				}
				continue
			}
			nodes = append(nodes, node{w: next, parent: head, action: a, via: nextVia})
			if nextVia == "" {
				seen[k] = true
				clean = append(clean, len(nodes)-1)
			} else {
				seenVia[k] = true
				viaStates++
				through = append(through, len(nodes)-1)
			}
		}
	}
	out.States = len(nodes) - viaStates
	for t := range out.Through {
		if _, ok := out.Transitions[t]; ok {
			delete(out.Through, t)
		}
	}
	return out
}

// covering is the fewest schedules of e that together take every transition's shortest
// schedule: a schedule that is a prefix of another is dropped, the longer one covers it.
func (e explored) covering() []schedule {
	all := make([]schedule, 0, len(e.Transitions))
	for _, s := range e.Transitions {
		all = append(all, s)
	}
	slices.SortFunc(all, func(a, b schedule) int { return strings.Compare(a.Target, b.Target) })
	var out []schedule
	for i, s := range all {
		prefix := false
		for j, o := range all {
			if i != j && len(o.Actions) > len(s.Actions) && isPrefix(s.Actions, o.Actions) {
				prefix = true
				break
			}
		}
		if !prefix {
			out = append(out, s)
		}
	}
	return out
}

func isPrefix(p, s []spec.Action) bool {
	for i := range p {
		if !sameAction(p[i], s[i]) {
			return false
		}
	}
	return true
}

func sameAction(a, b spec.Action) bool {
	return a.Kind == b.Kind && a.Slot == b.Slot && a.Topic == b.Topic && a.Member == b.Member &&
		len(a.Choice) == 0 && len(b.Choice) == 0 && a.Followup == b.Followup
}
