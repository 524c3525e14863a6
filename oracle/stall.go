package oracle

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// settling judges RebalanceCompletes in the main pass: after every event that changes the
// group it asks whether the group is settled, and a stretch from such an event to the next
// change (or to the end of the history) that is longer than the bound while the group is not
// settled is a stall. What it reads from the history, since the history records no
// subscriptions, topic metadata or coordinator state:
//
//   - Live: a node is live from its first event or its Start until it crashes, begins to
//     close, is cut off (until its Heal) or has its leave accepted (an accepted LeaveGroup, or a
//     ConsumerGroupHeartbeat at epoch -1 or -2, until an accepted JoinGroup or heartbeat brings
//     it back). A live owner of a partition is a live node that owns it by its callbacks
//     (an assign's begin to a revoke's or lost's end, as every ownership property reads them).
//   - Subscribed: a live node is taken as subscribed to every topic it has been assigned a
//     partition of since it started (an assign callback, or an assignment below naming it), and
//     a partition is subscribed when some assign or assignment in the history named it and a
//     live node is subscribed to its topic. A topic no live node was ever given a partition of is
//     not judged; a history whose subscriptions shrink, or whose topics are deleted, while
//     members run cannot be told from a stall and should not be given a bound.
//   - The assignment the coordinator last computed (a node's target): classic, the leader's
//     accepted SyncGroup of the latest generation (an accepted JoinGroup answer with a higher
//     generation makes every classic target unknown until then): each member named gets its
//     assignment, and a live node that has sent a JoinGroup and is not named gets none, since it
//     is not a member of that generation; a member's own accepted SyncGroup answer naming
//     partitions sets its own. KIP-848: the last accepted ConsumerGroupHeartbeat answer that
//     carries an assignment. An answer without parts is an unchanged assignment when noted
//     "assignment=null" (as the conformance tap notes Kafka's null), and an empty one only once
//     the history has shown such a note, so that a recorder that notes no assignments is never
//     read as assigning nothing. A fencing answer, a Fenced event, a leave or a restart makes the
//     target unknown; an unknown target is not judged.
//   - Change: a Start, Crash, Close, Cut, Heal or Fenced event, either edge of a callback, a
//     Generation event with a new member ID or generation, an accepted JoinGroup, SyncGroup or
//     leave, a ConsumerGroupHeartbeat answer with a new member ID, epoch or assignment, and a
//     fencing answer. Heartbeats, commits, other errors and marks are not: a stalled group
//     keeps heartbeating.
//
// The group is settled when no node is live, or when every subscribed partition has a live
// owner and every live node with a known target owns exactly its target. Its state is live
// state only: per node its topics and target, and the partitions named so far.
//
// A group that keeps changing is not settled by that: a stretch longer than the bound in
// which nothing disturbs the group from outside (a disturbance: a Start, Crash, Close, Cut,
// Heal or Fenced event, an accepted leave, a fencing answer) and the group is settled after
// none of its changes is a livelock, reported as the same violation (the rebalance did not
// complete), unless a stall inside it already was. After the last disturbance, Kafka's
// rebalance brings the group to its target within its timers whatever the members do; a
// group still rebalancing past the bound is one whose protocol keeps undoing its own
// progress (a rejoin loop, a target that moves on before anyone reaches it).
type settling struct {
	bound  int64                  // ns
	named  map[part]bool          // every partition an assign or assignment named
	nodes  map[string]*settleNode // by node name
	gen    int32                  // the latest classic generation an answer gave
	nulls  bool                   // a heartbeat answer was noted "assignment=null"
	open   *stall                 // the group has not changed, unsettled, since open.from
	lv     *livelock              // the group has not been settled, nor disturbed, since lv.from
	last   history.Event          // the latest event of the history
	names  []string               // the scan's node names, sorted (sortedNodes)
	owned  map[part]bool          // scratch of unsettled: what live nodes own
	topics map[string]bool        // scratch of unsettled: what live nodes subscribe to
}

// settleNode is what settling knows of one node beyond the scan's node.
type settleNode struct {
	classic  bool            // it sent a JoinGroup since it started
	left     bool            // its leave was accepted, and nothing admitted it since
	gone     *history.Event  // the event after which it was last not live, for messages
	topics   map[string]bool // its subscription, as far as the history shows
	target   map[part]bool   // the assignment the coordinator last computed for it; nil: unknown
	targetAt history.Event   // the answer that gave it
	ident    identity        // its last Generation event
	answered identity        // its last accepted heartbeat answer's member ID and epoch
}

// stall is the group unsettled and unchanged since from. Why is put in words (reasons, and
// the events they name) only once it is past the bound, at the first event after that and
// before that event is applied: until a change, the state that explains it is the same.
type stall struct {
	from    history.Event
	reasons []string
	why     []history.Event
}

// livelock is the group unsettled after every change since from, with no disturbance since.
type livelock struct {
	from     history.Event
	reported bool // a stall or a livelock inside it was reported
}

// nullAssignment is the note of a ConsumerGroupHeartbeat answer whose assignment is null,
// that is unchanged (conformance/harness's tap writes it).
const nullAssignment = "assignment=null"

// settleWithin makes the scan judge RebalanceCompletes with bound (0 or less: not judged).
func (s *scan) settleWithin(bound time.Duration) {
	if bound > 0 {
		s.settle = &settling{bound: int64(bound), named: map[part]bool{}, nodes: map[string]*settleNode{},
			owned: map[part]bool{}, topics: map[string]bool{}}
	}
}

func (st *settling) node(name string) *settleNode {
	sn := st.nodes[name]
	if sn == nil {
		sn = &settleNode{topics: map[string]bool{}}
		st.nodes[name] = sn
	}
	return sn
}

// observe follows event e of node n, after the scan's step, and judges the stretch that a
// change ends.
func (st *settling) observe(s *scan, n *node, e history.Event) {
	sn := st.node(n.name)
	changed := true
	switch e.Kind {
	case history.Start:
		*sn = settleNode{topics: map[string]bool{}}
	case history.Crash, history.Cut:
		sn.gone = &e
	case history.Close:
		if e.Phase == history.Begin {
			sn.gone = &e
		}
	case history.Heal, history.Revoke, history.Lost:
	case history.Fenced:
		if e.Member != "" && n.id.member != "" && e.Member != n.id.member {
			changed = false // about an earlier member ID: old news
		} else {
			sn.target = nil
		}
	case history.Assign:
		if e.Phase == history.Begin {
			st.name(sn, s.partsOfInterval(e))
		}
	case history.Generation:
		id := identity{e.Member, e.Gen}
		changed = id != sn.ident
		sn.ident = id
	case history.Request:
		changed = st.request(s, sn, e)
	default:
		changed = false
	}
	if changed {
		st.judge(s, e, "")
		st.open = nil
		unsettled := st.unsettled(s, nil, nil)
		if unsettled {
			st.open = &stall{from: e}
		}
		st.livelocked(s, e, unsettled, disturbance(s, e))
	}
}

// disturbance reports whether the change e comes from outside the group's protocol (see
// settling): a livelock is counted from the last one.
func disturbance(s *scan, e history.Event) bool {
	switch e.Kind {
	case history.Start, history.Crash, history.Close, history.Cut, history.Heal, history.Fenced:
		return true
	case history.Request:
		return e.Phase == history.End && answered(e) && (fencing[e.Err] || e.OK() && isLeave(s.begin(e)))
	}
	return false
}

// livelocked follows a change e after which the group is unsettled or not, and reports a
// livelock once it is past the bound.
func (st *settling) livelocked(s *scan, e history.Event, unsettled, disturbed bool) {
	switch {
	case !unsettled:
		st.lv = nil
	case disturbed || st.lv == nil:
		st.lv = &livelock{from: e}
	case !st.lv.reported && e.T-st.lv.from.T > st.bound:
		st.lv.reported = true
		reasons, why := st.reasons(s)
		from, d, bound := st.lv.from, time.Duration(e.T-st.lv.from.T), time.Duration(st.bound)
		s.found(finding{prop: RebalanceCompletes, class: ClassViolation, at: e.Seq, events: append([]history.Event{from, e}, why...),
			msg: func(string) string {
				return fmt.Sprintf("the group kept changing for %v without settling, longer than the bound %v, from %s to %s with nothing disturbing it (no start, crash, close, cut, heal, fencing or leave), while %s",
					d, bound, at(from), at(e), strings.Join(reasons, "; "))
			}})
	}
}

// before is the start of the scan's step for event e: e is the history's latest, and if the
// open stall is past the bound by e's time, it is explained by the state before e.
func (st *settling) before(s *scan, e history.Event) {
	st.last = e
	if sl := st.open; sl != nil && sl.reasons == nil && e.T-sl.from.T > st.bound {
		st.explain(s)
	}
}

// name notes partitions assigned to sn: named in the group, and their topics subscribed.
func (st *settling) name(sn *settleNode, qs []part) {
	for _, q := range qs {
		st.named[q] = true
		if sn != nil {
			sn.topics[q.topic] = true
		}
	}
}

// assign sets sn's target to qs, given by the answer at.
func (st *settling) assign(sn *settleNode, qs []part, at history.Event) {
	sn.target = map[part]bool{}
	for _, q := range qs {
		sn.target[q] = true
	}
	sn.targetAt = at
	st.name(sn, qs)
}

// request follows a coordinator request's end and reports whether it changed the group.
func (st *settling) request(s *scan, sn *settleNode, e history.Event) bool {
	if e.Phase == history.Begin {
		if e.Op == history.JoinGroup {
			sn.classic = true
		}
		return false
	}
	if !answered(e) || !membershipOps[e.Op] {
		return false
	}
	b := s.begin(e)
	switch {
	case !e.OK():
		if fencing[e.Err] {
			sn.target = nil
			return true
		}
		return false
	case isLeave(b):
		sn.left, sn.gone, sn.target, sn.topics = true, &e, nil, map[string]bool{}
		return true
	case b.Op == history.JoinGroup:
		sn.left = false
		if e.Gen > st.gen {
			st.gen = e.Gen
			for _, other := range st.nodes {
				if other.classic {
					other.target = nil
				}
			}
		}
		return true
	case b.Op == history.SyncGroup:
		st.sync(s, sn, b, e)
		return true
	case b.Op == history.ConsumerGroupHeartbeat:
		sn.left = false
		return st.heartbeat(sn, e)
	}
	return false // an accepted Heartbeat
}

// sync follows an accepted SyncGroup (begin b, end e): the leader's carries the generation's
// assignments, and every answer carries its member's.
func (st *settling) sync(s *scan, sn *settleNode, b, e history.Event) {
	if b.Gen > 0 && b.Gen < st.gen {
		return // an older generation's
	}
	st.gen = max(st.gen, b.Gen)
	if b.Assignments != nil {
		for _, name := range st.sortedNodes(s) {
			n, other := s.nodes[name], st.nodes[name]
			if other == nil || !other.classic {
				continue
			}
			if a, ok := b.Assignments[n.id.member]; ok && n.id.member != "" {
				st.assign(other, partsOf(a), e)
			} else if st.live(s, n, other) {
				st.assign(other, nil, e) // not a member of this generation
			}
		}
		for _, a := range b.Assignments {
			st.name(nil, partsOf(a))
		}
	}
	if len(e.Parts) > 0 {
		st.assign(sn, partsOf(e.Parts), e)
	}
}

// heartbeat follows an accepted ConsumerGroupHeartbeat answer and reports whether it changed
// the member's identity or target.
func (st *settling) heartbeat(sn *settleNode, e history.Event) bool {
	id := identity{e.Member, e.Gen}
	changed := id != sn.answered
	sn.answered = id
	var qs []part
	switch {
	case len(e.Parts) > 0:
		qs = partsOf(e.Parts)
	case e.Note == nullAssignment:
		st.nulls = true
		return changed
	case !st.nulls:
		return changed // the recorder may not note assignments at all
	}
	if sn.target == nil || !sameSet(sn.target, qs) {
		changed = true
	}
	st.assign(sn, qs, e)
	return changed
}

func sameSet(m map[part]bool, qs []part) bool {
	if len(m) != len(qs) {
		return false
	}
	for _, q := range qs {
		if !m[q] {
			return false
		}
	}
	return true
}

// live reports whether node n is live (see settling).
func (st *settling) live(s *scan, n *node, sn *settleNode) bool {
	return n.member && !s.rt.crashed[n.name] && n.closing == nil && (n.ep == nil || !n.ep.isolated) && !sn.left
}

// sortedNodes are the scan's node names in order, kept until a node is added.
func (st *settling) sortedNodes(s *scan) []string {
	if len(st.names) != len(s.nodes) {
		st.names = st.names[:0]
		for name := range s.nodes {
			st.names = append(st.names, name)
		}
		sort.Strings(st.names)
	}
	return st.names
}

// unsettled reports whether the group is not settled now, and with fn, is told each live
// node and unowned partition that keep it so.
func (st *settling) unsettled(s *scan, unowned func(part), behind func(name string)) bool {
	clear(st.owned)
	clear(st.topics)
	anyLive, bad := false, false
	for _, name := range st.sortedNodes(s) {
		n, sn := s.nodes[name], st.node(name)
		if !st.live(s, n, sn) {
			continue
		}
		anyLive = true
		for q := range n.owned {
			st.owned[q] = true
		}
		for t := range sn.topics {
			st.topics[t] = true
		}
		if sn.target != nil && !sameOwned(n.owned, sn.target) {
			bad = true
			if behind != nil {
				behind(name)
			}
		}
	}
	if !anyLive {
		return false
	}
	for q := range st.named {
		if st.topics[q.topic] && !st.owned[q] {
			bad = true
			if unowned != nil {
				unowned(q)
			}
		}
	}
	return bad
}

// explain puts the open stall in words: the partitions without a live owner and who had them
// last, and the members that do not own their target.
func (st *settling) explain(s *scan) {
	st.open.reasons, st.open.why = st.reasons(s)
}

// reasons says why the group is not settled now: the partitions without a live owner and who
// had them last, and the members that do not own their target; with the events that show it.
func (st *settling) reasons(s *scan) (reasons []string, why []history.Event) {
	var qs []part
	var behind []string
	st.unsettled(s, func(q part) { qs = append(qs, q) }, func(name string) { behind = append(behind, name) })
	sort.Slice(qs, func(i, j int) bool { return qs[i].less(qs[j]) })
	var order []string
	byHow := map[string][]part{}
	for _, q := range qs {
		how, ev := st.lastOwner(s, q)
		if _, ok := byHow[how]; !ok {
			order = append(order, how)
			if ev != nil {
				why = append(why, *ev)
			}
		}
		byHow[how] = append(byHow[how], q)
	}
	for _, how := range order {
		reasons = append(reasons, fmt.Sprintf("%s had no live owner (%s)", joinParts(byHow[how]), how))
	}
	for _, name := range behind {
		n, sn := s.nodes[name], st.nodes[name]
		reasons = append(reasons, fmt.Sprintf("%s (member %s) owned (%s) but was assigned (%s) at %s",
			name, n.id.member, joinParts(n.ownedParts()), joinParts(setParts(sn.target)), at(sn.targetAt)))
		why = append(why, sn.targetAt)
	}
	return reasons, why
}

// lastOwner says who had partition q last, and the event that shows it: a node holding it
// that is not live, else the node that released it last.
func (st *settling) lastOwner(s *scan, q part) (string, *history.Event) {
	how, ev := "never owned", (*history.Event)(nil)
	for _, name := range st.sortedNodes(s) {
		n, sn := s.nodes[name], st.node(name)
		if n.owned[q] != nil && sn.gone != nil {
			return fmt.Sprintf("held by %s, not live since it %s", name, goneHow(*sn.gone)), sn.gone
		}
		if r, ok := n.released[q]; ok && (ev == nil || r.Seq > ev.Seq) {
			how, ev = fmt.Sprintf("last released by %s at %s", name, at(r)), &r
		}
	}
	return how, ev
}

// goneHow says what event e did to its node's liveness.
func goneHow(e history.Event) string {
	switch e.Kind {
	case history.Crash:
		return "crashed at " + at(e)
	case history.Cut:
		return "was cut off at " + at(e)
	case history.Close:
		return "began to close at " + at(e)
	}
	return "left at " + at(e)
}

func sameOwned(owned map[part]*interval, target map[part]bool) bool {
	if len(owned) != len(target) {
		return false
	}
	for q := range owned {
		if !target[q] {
			return false
		}
	}
	return true
}

func setParts(m map[part]bool) []part {
	qs := make([]part, 0, len(m))
	for q := range m {
		qs = append(qs, q)
	}
	sort.Slice(qs, func(i, j int) bool { return qs[i].less(qs[j]) })
	return qs
}

// judge reports the open stall if it lasted longer than the bound until end, the event that
// ended it (or the history's last, when until says so).
func (st *settling) judge(s *scan, end history.Event, until string) {
	sl := st.open
	if sl == nil || end.T-sl.from.T <= st.bound {
		return
	}
	if until == "" {
		until = "the change at " + at(end)
	}
	if st.lv != nil {
		st.lv.reported = true // the stall is the livelock's story
	}
	d, bound := time.Duration(end.T-sl.from.T), time.Duration(st.bound)
	events := append([]history.Event{sl.from, end}, sl.why...)
	s.found(finding{prop: RebalanceCompletes, class: ClassViolation, at: end.Seq, events: events,
		msg: func(string) string {
			return fmt.Sprintf("the group did not change for %v, longer than the bound %v, from %s to %s, while %s",
				d, bound, at(sl.from), until, strings.Join(sl.reasons, "; "))
		}})
}

// finish judges a stall still open when the history ends.
func (st *settling) finish(s *scan) {
	st.judge(s, st.last, "the end of the history at "+at(st.last))
	st.open = nil
}
