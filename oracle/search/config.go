package search

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// status is where one recorded request stands in one behaviour.
type status uint8

const (
	// waiting: sent (its begin is recorded), not yet handled by the coordinator.
	waiting status = iota
	// parked: handled, and the coordinator holds it without an answer (a JoinGroup waiting
	// for the join phase, a SyncGroup waiting for the leader).
	parked
	// answered: the coordinator has answered it; the answer waits for the recorded end.
	answered
	// orphan: its end carried no answer (a lost connection, a client-side timeout, an error
	// the reference does not model), so it may still take effect, or never.
	orphan
)

var statusNames = [...]string{"waiting", "parked", "answered", "orphan"}

// open is one request a behaviour has not finished with: recorded begun, end not yet
// matched. It is shared between configs and never written: a move copies the ones it changes.
type open struct {
	id     int64    // the history's interval id
	req    *request // shared by every config
	status status
	reply  impl.Response // answered only
	same   bool          // answered heartbeat: the member's assignment is the one it had
	// until: an orphan of the linearizability check (linModel) that may be handled only
	// before this time, its node's next answered request's end; 0 while none has ended.
	until int64
}

// config is one behaviour of the reference up to the current event: the coordinator's state
// and where each request still open in the history stands.
type config struct {
	coord coordinator.Group
	// consumer: the group speaks KIP-848, and kip is its coordinator (coord stays empty).
	consumer bool
	kip      kip848.Group
	commits  commitRule // consumer only
	open     []open     // by id
	// via is how the config was reached from the previous event's frontier, for reports.
	via []move
}

// key is the config's canonical encoding: two configs with one key and one commit rule are
// the same behaviour state (via is not part of it; the rule is kept beside it, states).
func (c config) key(buf []byte) []byte { return c.keyAs(buf, keyView{}) }

// keyAs is key as v sees it (keyView).
func (c config) keyAs(buf []byte, v keyView) []byte {
	if c.consumer {
		buf = kipKey(buf[:0], c, v)
	} else {
		buf = groupKey(buf[:0], c.coord)
	}
	for _, o := range c.open {
		buf = binary.AppendVarint(buf, o.id)
		buf = append(buf, byte(o.status))
		if o.status == answered {
			buf = append(buf, replyText(o.reply)...)
			buf = append(buf, 0, boolByte(o.same))
		}
		if o.until != 0 {
			buf = binary.AppendVarint(append(buf, 0xfd), o.until)
		}
	}
	return buf
}

// find is the index of request id in c.open, or -1.
func (c config) find(id int64) int {
	i, ok := slices.BinarySearchFunc(c.open, id, func(o open, id int64) int {
		switch {
		case o.id < id:
			return -1
		case o.id > id:
			return 1
		}
		return 0
	})
	if !ok {
		return -1
	}
	return i
}

// with is c with c.open[i] replaced by o (copy on write).
func (c config) with(i int, o open) config {
	c.open = slices.Clone(c.open)
	c.open[i] = o
	return c
}

// without is c without c.open[i].
func (c config) without(i int) config {
	c.open = slices.Delete(slices.Clone(c.open), i, i+1)
	return c
}

// deliver is c after the coordinator's handling of one step's replies: each goes to the
// request waiting on its connection (an orphan's or a finished request's answer is read by
// nobody).
func (c config) deliver(replies []impl.Reply) config {
	copied := false
	for _, r := range replies {
		for i, o := range c.open {
			if o.req.conn != r.To || o.status != parked {
				continue
			}
			if !copied {
				c.open, copied = slices.Clone(c.open), true
			}
			c.open[i].status, c.open[i].reply = answered, r.Response
		}
	}
	return c
}

// consistent reports whether every answer c holds is the one the history records for its
// request: if not, no behaviour through c explains the history.
func (c config) consistent() bool {
	for _, o := range c.open {
		if o.status == answered && o.req.judged && !o.req.free && !matches(o.reply, o.same, o.req.end, o.req.code) {
			return false
		}
	}
	return true
}

// alive is the configs of cs that are consistent.
func alive(cs []config) []config {
	return slices.DeleteFunc(cs, func(c config) bool { return !c.consistent() })
}

// render is the config for a person: the coordinator's state, then each open request.
func (c config) render() string {
	var b strings.Builder
	if c.consumer {
		b.WriteString("coordinator " + c.kip.String())
		if c.commits != eitherRule {
			b.WriteString("\n  commits judged by " + commitRuleNames[c.commits])
		}
	} else {
		b.WriteString("coordinator " + c.coord.String())
	}
	for _, o := range c.open {
		fmt.Fprintf(&b, "\n  request id=%d %s %s: %s", o.id, o.req.node, o.req.op(), statusNames[o.status])
		if o.status == answered {
			b.WriteString(" with " + replyText(o.reply))
		}
	}
	if len(c.via) > 0 {
		steps := make([]string, len(c.via))
		for i, m := range c.via {
			steps[i] = m.String()
		}
		b.WriteString("\n  reached by: " + strings.Join(steps, ", "))
	}
	return b.String()
}

// move is one step of a behaviour between two events, kept for reports.
type move struct {
	kind    moveKind
	id      int64  // handle: the request's interval id
	what    string // handle: node and op; the timer's or election's member id
	version int16  // handle of a JoinGroup tried at several versions
	changed bool   // handle of a JoinGroup with a changed subscription
}

type moveKind uint8

const (
	moveHandle moveKind = iota
	moveJoinTimeout
	moveSyncTimeout
	moveSession
	movePending
	moveElect
	moveRebalanceTimeout
	moveMetadata
)

func (m move) String() string {
	switch m.kind {
	case moveHandle:
		s := fmt.Sprintf("handle id=%d (%s)", m.id, m.what)
		if m.version > 0 {
			s += fmt.Sprintf(" v%d", m.version)
		}
		if m.changed {
			s += " with a changed subscription"
		}
		return s
	case moveJoinTimeout:
		return "join phase timeout"
	case moveSyncTimeout:
		return "sync phase timeout"
	case moveSession:
		return "session of " + m.what + " expires"
	case movePending:
		return "pending member " + m.what + " expires"
	case moveRebalanceTimeout:
		return "rebalance timeout of " + m.what
	case moveMetadata:
		return "a metadata refresh bumps the group epoch"
	}
	return "the coordinator elects " + m.what
}

// groupKey is the coordinator's canonical encoding without the members' subscriptions: the
// search stores one of two markers there (joinProtocols), and the coordinator only compares
// a rejoin's with the stored one, so two groups that differ only in which marker each member
// stored behave alike (swap the markers of a member and every behaviour of one is one of the
// other). Leaving them out keeps them one state.
func groupKey(buf []byte, g coordinator.Group) []byte {
	buf = append(buf, byte(g.State()), boolByte(g.InitialJoin()))
	buf = binary.AppendVarint(buf, int64(g.Generation()))
	buf = impl.AppendString(buf, g.ProtocolName())
	buf = impl.AppendString(buf, string(g.Leader()))
	for _, id := range g.Pending() {
		buf = impl.AppendString(buf, string(id))
	}
	buf = append(buf, 0xff)
	for _, id := range g.Members() {
		m, _ := g.Member(id)
		buf = impl.AppendString(buf, string(m.ID))
		buf = impl.AppendString(buf, string(m.InstanceID))
		for _, p := range m.Protocols {
			buf = impl.AppendString(buf, p.Name)
		}
		buf = append(buf, 0xff, boolByte(m.Join.Parked), boolByte(m.Sync.Parked), boolByte(m.PendingSync), boolByte(m.IsNew))
		buf = binary.AppendVarint(buf, int64(m.Join.Conn))
		buf = binary.AppendVarint(buf, int64(m.Join.Version))
		buf = binary.AppendVarint(buf, int64(m.Sync.Conn))
		buf = impl.AppendPartitionSet(buf, m.Assignment.Partitions)
		buf = binary.AppendVarint(buf, int64(m.Assignment.Error))
	}
	return buf
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// handle is every way the coordinator can handle c.open[i], in the group's protocol.
func (c config) handle(i int) []config {
	if c.consumer {
		return handle848(c, i)
	}
	return handle(c, i)
}

// timers is every timer of the coordinator that can fire in c, in the group's protocol.
func (c config) timers() []config {
	if c.consumer {
		return timers848(c)
	}
	return timers(c)
}

// inert reports whether the coordinator's handling of r never changes its state, in any
// state: a classic Heartbeat (coordinator.Group.Heartbeat, which only validates) and an
// OffsetCommit in either protocol (coordinator.Group.OffsetCommit,
// kip848.Group.OffsetCommitUnder: offsets are not modelled, so a commit only validates the
// member and its generation or epoch). Each is a read of the coordinator's state, and its
// answer depends on nothing else.
func (r *request) inert() bool {
	switch r.req.(type) {
	case impl.HeartbeatRequest, impl.OffsetCommitRequest:
		return true
	}
	return false
}

// settleInert is c with each inert request (request.inert) settled at this point where it
// can be: a waiting one handled here if the answer the coordinator gives here is the
// recorded one (or none is recorded) and the handling leaves c's commit rule as it is; an
// orphan dropped. It is a partial-order reduction, and it keeps every verdict, because
// every behaviour from c has one from settleInert(c) that explains the same history:
//
//   - A waiting inert request r that some behaviour from c handles later, at a state t,
//     with the recorded answer: handle it here instead. Its handling changes no state at t
//     nor here (inert), so every other step of the behaviour meets the same coordinator
//     state as before and gives the same answers; r's own answer here is the recorded one
//     (checked); and r's status (answered early) is read by no other step (deliver goes to
//     parked requests, finish drops orphans, consistent checks r against its own record).
//     A behaviour that leaves r waiting past the next event is covered the same way, since
//     the frontier carries it on.
//   - An orphan inert request (its end carried no answer): whether the coordinator handles
//     it or never does, the state is the same and its answer is read by nobody; the
//     behaviour that never handles it keeps the commit rule the least narrowed (a KIP-848
//     commit can fix it, handle848), so it allows whatever the others allow.
//
// Where the commit rule would change (a KIP-848 commit that the two rules answer
// differently, under eitherRule), r is left waiting and searched as any request: the rule
// a later handling fixes may be the other one. A request whose answer is free (a report's
// unconstrained search) is left too, so that the report lists every answer.
//
// Without it, k such requests open at once (eight members, each heartbeating and
// committing) are 2^k states at every answer: each handled or not, in every order.
func (c config) settleInert() config {
	for i := 0; i < len(c.open); i++ {
		o := c.open[i]
		if !o.req.inert() || o.req.free {
			continue
		}
		switch o.status {
		case orphan:
			c = c.without(i)
			i--
		case waiting:
			next := c.handle(i) // only consistent successors: the recorded answer, if judged
			if len(next) == 1 && next[0].commits == c.commits {
				c = next[0]
			}
		}
	}
	return c.settleHeartbeats()
}

// keepsEpoch reports whether r is a ConsumerGroupHeartbeat of a dynamic member at its epoch
// whose recorded answer is that same epoch with the assignment it names (its partitions, or
// unchanged): the answer of a reconciliation that moved nothing (settleHeartbeats).
func (r *request) keepsEpoch() bool {
	b := r.begin
	return b.Op == history.ConsumerGroupHeartbeat && b.Instance == "" && b.Gen > 0 && r.judged && !r.free &&
		r.code == impl.None && r.end.Gen == b.Gen && (len(r.end.Parts) > 0 || r.end.Note == noteAssignmentNull)
}

// settleHeartbeats is c with each waiting heartbeat that keepsEpoch handled here where some
// way of handling it leaves the coordinator as it is and gives the recorded answer: then
// every way of giving that answer, here or later, leaves it as it is or moves the member
// from UNRELEASED_PARTITIONS to STABLE at the same epoch (which Checker.subsumed shows the
// search need not keep), so the heartbeat is as inert as a commit (settleInert) and is
// settled the same way. Why: until the heartbeat is handled, the member's record changes
// only by its own requests (so no other heartbeat of it may be open) or by its removal
// (after which the answer is UNKNOWN_MEMBER_ID); a handling that computes a new target, by
// this request or before it, moves the member to the target epoch or starts revoking at its
// epoch with fewer partitions (kip848.Reconcile's computeNextAssignment), both another
// answer; at the assignment epoch a STABLE member is left as it is, an UNREVOKED one moves
// on only when it acknowledges (another epoch), and an UNRELEASED one gets its free
// partitions (another assignment) or stays, or turns STABLE. The subscription is assumed
// unchanged (heartbeatVariants), so the heartbeat bumps no group epoch itself.
func (c config) settleHeartbeats() config {
	if !c.consumer {
		return c
	}
	var own, mine []byte
	for i := 0; i < len(c.open); i++ {
		o := c.open[i]
		if o.status != waiting || !o.req.keepsEpoch() || c.otherHeartbeat(i) {
			continue
		}
		own = kipKey(own[:0], c, keyView{})
		for _, n := range c.handle(i) {
			if n.commits != c.commits {
				continue
			}
			if mine = kipKey(mine[:0], n, keyView{}); string(mine) == string(own) {
				c = n
				break
			}
		}
	}
	return c
}

// otherHeartbeat reports whether a heartbeat of c.open[i]'s member other than it is open.
func (c config) otherHeartbeat(i int) bool {
	b := c.open[i].req.begin
	for j, o := range c.open {
		if j != i && o.req.begin.Op == history.ConsumerGroupHeartbeat && o.req.begin.Member == b.Member {
			return true
		}
	}
	return false
}
