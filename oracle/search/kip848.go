package search

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// consumerRequest builds the reference request for a recorded begin in a KIP-848 history:
// a ConsumerGroupHeartbeat (with the variants of it the history cannot tell apart) or an
// OffsetCommit whose generation is the member epoch.
func consumerRequest(b history.Event, conn impl.Conn, end history.Event, s *Shape) (request, error) {
	r := request{begin: b, node: b.Node, conn: conn, end: end}
	r.code, r.judged = judged(end)
	id, inst := impl.MemberID(b.Member), impl.InstanceID(b.Instance)
	switch b.Op {
	case history.ConsumerGroupHeartbeat:
		hb := impl.ConsumerGroupHeartbeatRequest{Conn: conn, MemberID: id, MemberEpoch: impl.Epoch(b.Gen), InstanceID: inst}
		if id == "" && hb.MemberEpoch == impl.EpochJoin {
			r.fresh = impl.MemberID(fmt.Sprintf("?join-%d", b.ID))
			if code, ok := judged(end); ok && code == impl.None && end.Member != "" {
				r.fresh = impl.MemberID(end.Member)
			}
		}
		r.variants = heartbeatVariants(hb, b, s)
		r.req = r.variants[0]
	case history.OffsetCommit:
		r.req = impl.OffsetCommitRequest{Conn: conn, MemberID: id, InstanceID: inst, Generation: impl.Generation(b.Gen), Partitions: parts(b.Parts)}
	default:
		return r, fmt.Errorf("seq %d: request op %q in a KIP-848 history: the search judges one group speaking one protocol", b.Seq, b.Op)
	}
	return r, nil
}

// heartbeatVariants are the requests a recorded heartbeat may have been. A join subscribes
// to every topic of the shape (Shape) and owns what it says (nothing, as a join must); a
// later heartbeat leaves the subscription unchanged (a history does not record
// subscribe(), so the search assumes none changed) and owns what it says, or nothing when
// the recorder marks null owned lists (Shape.nullNotes) and says none; where neither tells,
// it is tried both null (unchanged) and empty.
func heartbeatVariants(hb impl.ConsumerGroupHeartbeatRequest, b history.Event, s *Shape) []impl.ConsumerGroupHeartbeatRequest {
	owned := parts(b.Owned)
	switch {
	case hb.MemberEpoch == impl.EpochJoin:
		_, hb.SubscribedTopicNames = s.cluster()
		hb.OwnedPartitions = &owned
	case len(b.Owned) > 0 || s.nullNotes && b.Note != noteTopicsNull:
		hb.OwnedPartitions = &owned
	case b.Note != noteTopicsNull:
		unchanged := hb
		hb.OwnedPartitions = &owned
		return []impl.ConsumerGroupHeartbeatRequest{unchanged, hb}
	}
	return []impl.ConsumerGroupHeartbeatRequest{hb}
}

// entries are the target entries the search tries for the member a heartbeat reconciles:
// the broker's assignor is not known, and a member's reconciliation reads only its own entry
// (kip848.Group.HeartbeatTargeting), so the entries tried are those that can give the
// recorded answer. Reconciliation gives the member the entry's partitions that nobody else
// holds (or keeps the ones it still owns while revoking the rest), so the entry is the
// recorded assignment, possibly with partitions others still hold (the member waits for
// them: UNRELEASED_PARTITIONS). An answer that does not carry an assignment is the one the
// member had ("unchanged"), or, where JSON cannot tell, none. Every entry is re-chosen at
// each reconciliation, so the search allows a target that changes within an epoch as long as
// each answer is one some target gives (an over-approximation: it accepts more, never
// less). A request without an answer reconciles against the entry it had, or its holdings.
func entries(g kip848.Group, hb impl.ConsumerGroupHeartbeatRequest, r *request) []impl.PartitionSet {
	id := hb.MemberID
	if id == "" {
		id = r.fresh
	}
	before, _ := g.Member(id)
	if old, ok := g.StaticMember(hb.InstanceID); ok && hb.MemberEpoch == impl.EpochJoin {
		before = old
	}
	a := before.AssignedPartitions
	out := []impl.PartitionSet{g.TargetOf(before.ID), a}
	if hb.MemberEpoch < 0 || !r.judged || r.code != impl.None {
		return dedupSets(out)
	}
	var held impl.PartitionSet
	for _, m := range g.Members() {
		if m.ID != before.ID {
			held = held.Union(m.Holds())
		}
	}
	var bases []impl.PartitionSet
	switch {
	case len(r.end.Parts) > 0:
		bases = []impl.PartitionSet{parts(r.end.Parts)}
	case r.end.Note == noteAssignmentNull:
		bases = []impl.PartitionSet{a}
	default:
		bases = []impl.PartitionSet{a, {}}
	}
	out = out[:0]
	for _, b := range bases {
		out = append(out, b)
		if w := held.Minus(b); !w.IsEmpty() {
			out = append(out, b.Union(w))
		}
	}
	return dedupSets(out)
}

func dedupSets(ss []impl.PartitionSet) []impl.PartitionSet {
	var out []impl.PartitionSet
	for _, s := range ss {
		if !slices.ContainsFunc(out, s.Equal) {
			out = append(out, s)
		}
	}
	return out
}

// handle848 is every way the KIP-848 coordinator can handle c.open[i]: a heartbeat against
// each target entry its answer allows (entries), computing a new target or, as Kafka 4.4
// may, leaving it for later (kip848.Group.HeartbeatTargeting); a commit as the coordinator
// validates it.
func handle848(c config, i int) []config {
	o := c.open[i]
	var out []config
	add := func(g kip848.Group, replies []impl.Reply, same bool, rule commitRule) {
		n := c
		n.kip, n.commits = g, rule
		o2 := o
		o2.status = parked
		n = n.with(i, o2).deliver(replies)
		if j := n.find(o.id); j >= 0 && n.open[j].status == answered {
			n.open[j].same = same // deliver copied n.open
		}
		if o.status == orphan {
			n = n.without(i)
		}
		n.via = append(slices.Clip(c.via), move{kind: moveHandle, id: o.id, what: o.req.node + " " + o.req.op()})
		if n.consistent() {
			out = append(out, n)
		}
	}
	switch req := o.req.req.(type) {
	case impl.OffsetCommitRequest:
		g, exact := c.kip.OffsetCommitUnder(req, kip848.CommitExactEpoch)
		_, kip1251 := c.kip.OffsetCommitUnder(req, kip848.CommitAssignmentEpochs)
		switch {
		case exact[0].Response.Code() == kip1251[0].Response.Code():
			add(g, exact, false, c.commits)
		case c.commits == eitherRule:
			add(g, exact, false, exactRule)
			add(g, kip1251, false, kip1251Rule)
		case c.commits == exactRule:
			add(g, exact, false, exactRule)
		default:
			add(g, kip1251, false, kip1251Rule)
		}
	case impl.ConsumerGroupHeartbeatRequest:
		for _, hb := range o.req.variants {
			if _, member := c.kip.Member(o.req.fresh); hb.MemberID == "" && hb.MemberEpoch == impl.EpochJoin && member {
				continue // the answer names a member's id as new: a coordinator hands out a new one
			}
			deferrals := []bool{false, true}
			if hb.MemberEpoch > 0 && hb.SubscribedTopicNames == nil && c.kip.GroupEpoch() == c.kip.AssignmentEpoch() {
				// A known member's heartbeat with its subscription unchanged bumps no group
				// epoch (kip848's admit), so there is no target to defer: the second
				// handling would be the first, skipped below.
				deferrals = deferrals[:1]
			}
			for _, x := range entries(c.kip, hb, o.req) {
				for _, deferred := range deferrals {
					g, replies := c.kip.HeartbeatTargeting(hb, o.req.fresh, x, deferred)
					if deferred && g.AssignmentEpoch() == g.GroupEpoch() {
						continue // nothing was deferred: the same as the first
					}
					replies, same := withAssignment(c.kip, g, replies)
					add(g, replies, same, c.commits)
				}
			}
		}
	default:
		panic(fmt.Sprintf("search: %T in a KIP-848 history", req))
	}
	return out
}

// withAssignment is a heartbeat's replies with the member's whole assignment after it in the
// answer, and whether that is the one it had before: whether a real coordinator sends an
// unchanged assignment depends on what the request carried (KAFKA-16367), which a history
// does not fully record, so the search compares assignments, not their presence.
func withAssignment(before, after kip848.Group, replies []impl.Reply) ([]impl.Reply, bool) {
	r, ok := replies[0].Response.(impl.ConsumerGroupHeartbeatResponse)
	if !ok || r.Error != impl.None || r.MemberEpoch < 0 {
		return replies, false
	}
	m, _ := after.Member(r.MemberID)
	a := m.AssignedPartitions
	r.Assignment = &a
	was, ok := before.Member(r.MemberID)
	same := ok && was.AssignedPartitions.Equal(a)
	if !ok { // a static member replacing its instance's holder keeps its assignment
		for _, p := range before.Members() {
			if p.InstanceID != "" && p.InstanceID == m.InstanceID {
				same = p.AssignedPartitions.Equal(a)
			}
		}
	}
	return []impl.Reply{{To: replies[0].To, Response: r}}, same
}

// timers848 is every timer of the KIP-848 coordinator that can fire in c: each member's
// session expiry and each armed rebalance timeout (docs/protocol.md §3.5); and, while some
// partition of the cluster is held by no member, a metadata refresh that bumps the group
// epoch: the search's cluster is every partition the history names, and the coordinator may
// not have known one of them yet (a topic created, a partition added, metadata not yet
// propagated to it). Where every partition is held, no refresh is offered: the search then
// assumes the metadata does not change (a topic deleted or shrunk is not modelled), and
// while a bump waits for its target, a second refresh is not offered (it would bump again
// without end).
func timers848(c config) []config {
	var out []config
	add := func(g kip848.Group, how move) {
		n := c
		n.kip = g
		n.via = append(slices.Clip(c.via), how)
		out = append(out, n)
	}
	for _, id := range c.kip.SessionTimers() {
		add(c.kip.SessionExpired(id), move{kind: moveSession, what: string(id)})
	}
	for _, t := range c.kip.RebalanceTimers() {
		if g := c.kip.RebalanceTimeoutExpired(t.Member, t.Epoch); g.GroupEpoch() != c.kip.GroupEpoch() {
			add(g, move{kind: moveRebalanceTimeout, what: string(t.Member)})
		}
	}
	var held impl.PartitionSet
	for _, m := range c.kip.Members() {
		held = held.Union(m.Holds())
	}
	if c.kip.GroupEpoch() == c.kip.AssignmentEpoch() && len(c.kip.Members()) > 0 && !c.kip.Cluster().PartitionsOf(topicsOf(c.kip.Cluster())).SubsetOf(held) {
		add(c.kip.MetadataRefreshed(), move{kind: moveMetadata})
	}
	return out
}

func topicsOf(c impl.Cluster) []string {
	ts := make([]string, len(c.Topics))
	for i, t := range c.Topics {
		ts[i] = t.Name
	}
	return ts
}

// matches848 is matches for a heartbeat's answer: the error; for a success the member id and
// epoch the end records, and its assignment: the one recorded, the unchanged one where the
// end says the assignment was null, and where it says nothing (an omitted, empty one, or a
// recorder that does not mark null) either that or none.
func matches848(r impl.ConsumerGroupHeartbeatResponse, same bool, end history.Event, code impl.ErrorCode) bool {
	if r.Error != code {
		return false
	}
	if code != impl.None {
		return true
	}
	if end.Member != "" && string(r.MemberID) != end.Member || int32(r.MemberEpoch) != end.Gen {
		return false
	}
	if r.MemberEpoch < 0 || r.Assignment == nil {
		return true
	}
	switch {
	case len(end.Parts) > 0:
		return r.Assignment.Equal(parts(end.Parts))
	case end.Note == noteAssignmentNull:
		return same
	}
	return same || r.Assignment.IsEmpty()
}

// kipKey is the KIP-848 coordinator's encoding without its target: every entry is re-chosen
// when its member reconciles (entries), and nothing else reads it. Under the exact commit
// rule nothing reads the epochs partitions were assigned at either, so they are left out.
// Seen as v says (keyView), a member's previous epoch is left out where nothing can read it
// any more, and v.flip is encoded as UNRELEASED_PARTITIONS (subsumed).
func kipKey(buf []byte, c config, v keyView) []byte {
	g := c.kip
	buf = binary.AppendVarint(buf, int64(g.GroupEpoch()))
	buf = binary.AppendVarint(buf, int64(g.AssignmentEpoch()))
	for _, m := range g.Members() {
		if c.commits == exactRule {
			m.AssignedAt = nil
		}
		if m.PreviousMemberEpoch != m.MemberEpoch && !v.prevRead(c, m) {
			m.PreviousMemberEpoch = m.MemberEpoch
		}
		if v.flip != "" && m.ID == v.flip {
			m.State = kip848.UnreleasedPartitions
		}
		buf = m.AppendEncoding(buf)
	}
	return buf
}

// keyView is how a key sees a config at one point of the Checker's search; the zero value
// sees every field (the linearizability check's keys).
type keyView struct {
	// shape and at: the Checker's Shape and the seq of the event it searches. A member's
	// previous epoch is read only by a heartbeat of that member sent at that epoch
	// (kip848's checkMemberEpoch: an older epoch is accepted only if it is the previous one;
	// a reconciliation overwrites it with the epoch it leaves). Where none is open in the
	// config and none ends from at on (Shape.sentAt), two states that differ only in it have
	// the same futures, answer for answer, so they are one state: the key writes the member
	// epoch there instead.
	shape *Shape
	at    int64
	// flip, if set, is a member encoded as UNRELEASED_PARTITIONS (Checker.subsumed).
	flip impl.MemberID
}

// prevRead reports whether m's previous epoch can still be read in c's future (keyView.shape).
func (v keyView) prevRead(c config, m kip848.Member) bool {
	if v.shape == nil {
		return true
	}
	for _, o := range c.open {
		if b := o.req.begin; b.Op == history.ConsumerGroupHeartbeat && b.Member == string(m.ID) && b.Gen == int32(m.PreviousMemberEpoch) {
			return true
		}
	}
	return v.shape.sentAt(m.ID, m.PreviousMemberEpoch) >= v.at
}
