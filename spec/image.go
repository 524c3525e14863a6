package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/impl/kip848client"
)

// The image of a world under a slot permutation (symmetry.go), written straight into its
// encoding: the slots are renamed copies encoded by World.Encode's own slot encoder, and the
// coordinator, whose fields are private to impl, is encoded from its exported view in the
// layout of its AppendCanonical, renamed and re-sorted. For the identity the bytes are
// World.Encode's (TestImageOfIdentity), and for a permutation they are those of the world the
// permuted actions reach (TestImagesAreReachable).

// renamer maps everything that names a slot to the name of the slot's image.
type renamer struct {
	names []string // slot names
	to    []int    // to[i] is the image of slot i
}

// id renames a coordinator-issued member id name#n; other ids (none) are kept.
func (r renamer) id(id impl.MemberID) impl.MemberID {
	name, n, ok := strings.Cut(string(id), "#")
	if !ok {
		return id
	}
	if i := slices.Index(r.names, name); i >= 0 && r.to[i] != i {
		return impl.MemberID(r.names[r.to[i]] + "#" + n)
	}
	return id
}

// instance renames a static member's instance id, which is its slot's name.
func (r renamer) instance(id impl.InstanceID) impl.InstanceID {
	if i := slices.Index(r.names, string(id)); i >= 0 {
		return impl.InstanceID(r.names[r.to[i]])
	}
	return id
}

// conn renames a connection. Incarnation 0 never runs (startSlot counts from 1), so a zero
// incarnation is an unset field and is kept.
func (r renamer) conn(c impl.Conn) impl.Conn {
	i := int(c >> 6)
	if c&63 == 0 || i >= len(r.to) {
		return c
	}
	return connOf(r.to[i], uint8(c&63))
}

func (r renamer) slot(s Slot, kip, classic bool) Slot {
	if kip {
		m := r.member(*s.Member)
		s.Member = &m
	}
	if classic {
		c := r.consumer(*s.Client)
		s.Client = &c
		if s.Assigning != nil {
			a := *s.Assigning
			a.Members = r.joinMembers(a.Members)
			s.Assigning = &a
		}
	}
	if s.Out != nil {
		out := make([]impl.Request, len(s.Out))
		for k, q := range s.Out {
			out[k] = r.request(q)
		}
		s.Out = out
	}
	if s.In != nil {
		in := make([]impl.Response, len(s.In))
		for k, q := range s.In {
			in[k] = r.response(q)
		}
		s.In = in
	}
	return s
}

func (r renamer) consumer(c consumer.Consumer) consumer.Consumer {
	c.Config.InstanceID = r.instance(c.Config.InstanceID)
	c.Config.Conn = r.conn(c.Config.Conn)
	c.Gen.MemberID = r.id(c.Gen.MemberID)
	for k := range c.Requests {
		c.Requests[k].Sent.MemberID = r.id(c.Requests[k].Sent.MemberID)
	}
	return c
}

func (r renamer) member(m kip848client.Member) kip848client.Member {
	m.Config.InstanceID = r.instance(m.Config.InstanceID)
	m.Config.Conn = r.conn(m.Config.Conn)
	m.Config.MemberID = r.id(m.Config.MemberID)
	m.ID = r.id(m.ID)
	return m
}

// joinMembers renames the leader's member list, which the coordinator sends in id order.
func (r renamer) joinMembers(ms []impl.JoinGroupMember) []impl.JoinGroupMember {
	if ms == nil {
		return nil
	}
	out := make([]impl.JoinGroupMember, len(ms))
	for k, m := range ms {
		m.MemberID, m.InstanceID = r.id(m.MemberID), r.instance(m.InstanceID)
		out[k] = m
	}
	slices.SortStableFunc(out, func(a, b impl.JoinGroupMember) int { return strings.Compare(string(a.MemberID), string(b.MemberID)) })
	return out
}

// assignments renames a leader's assignments, which it sends in id order.
func (r renamer) assignments(as []impl.MemberAssignment) []impl.MemberAssignment {
	if as == nil {
		return nil
	}
	out := make([]impl.MemberAssignment, len(as))
	for k, a := range as {
		a.MemberID = r.id(a.MemberID)
		out[k] = a
	}
	slices.SortStableFunc(out, func(a, b impl.MemberAssignment) int { return strings.Compare(string(a.MemberID), string(b.MemberID)) })
	return out
}

func (r renamer) request(q impl.Request) impl.Request {
	switch q := q.(type) {
	case impl.JoinGroupRequest:
		q.Conn, q.MemberID, q.InstanceID = r.conn(q.Conn), r.id(q.MemberID), r.instance(q.InstanceID)
		return q
	case impl.SyncGroupRequest:
		q.Conn, q.MemberID, q.InstanceID = r.conn(q.Conn), r.id(q.MemberID), r.instance(q.InstanceID)
		q.Assignments = r.assignments(q.Assignments)
		return q
	case impl.HeartbeatRequest:
		q.Conn, q.MemberID, q.InstanceID = r.conn(q.Conn), r.id(q.MemberID), r.instance(q.InstanceID)
		return q
	case impl.LeaveGroupRequest:
		q.Conn = r.conn(q.Conn)
		ms := make([]impl.LeaveMember, len(q.Members))
		for k, m := range q.Members {
			ms[k] = impl.LeaveMember{MemberID: r.id(m.MemberID), InstanceID: r.instance(m.InstanceID)}
		}
		q.Members = ms
		return q
	case impl.OffsetCommitRequest:
		q.Conn, q.MemberID, q.InstanceID = r.conn(q.Conn), r.id(q.MemberID), r.instance(q.InstanceID)
		return q
	case impl.ConsumerGroupHeartbeatRequest:
		q.Conn, q.MemberID, q.InstanceID = r.conn(q.Conn), r.id(q.MemberID), r.instance(q.InstanceID)
		return q
	}
	panic("spec: symmetry: cannot rename a request of type " + typeName(q))
}

func (r renamer) response(q impl.Response) impl.Response {
	switch q := q.(type) {
	case impl.JoinGroupResponse:
		q.Leader, q.MemberID = r.id(q.Leader), r.id(q.MemberID)
		q.Members = r.joinMembers(q.Members)
		return q
	case impl.LeaveGroupResponse:
		ms := make([]impl.LeaveMemberResponse, len(q.Members))
		for k, m := range q.Members {
			m.MemberID, m.InstanceID = r.id(m.MemberID), r.instance(m.InstanceID)
			ms[k] = m
		}
		q.Members = ms
		return q
	case impl.ConsumerGroupHeartbeatResponse:
		q.MemberID = r.id(q.MemberID)
		return q
	case impl.SyncGroupResponse, impl.HeartbeatResponse, impl.OffsetCommitResponse:
		return q // nothing names a member
	}
	panic("spec: symmetry: cannot rename a response of type " + typeName(q))
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }

// encodeImage appends the encoding World.Encode gives the image of w under permutation p.
func (s Symmetry) encodeImage(w World, p []int, buf []byte) []byte {
	return s.encodeSlots(w, p, s.encodeCoordinator(w, p, buf))
}

// encodeCoordinator appends the first part of the image's encoding: its coordinator.
func (s Symmetry) encodeCoordinator(w World, p []int, buf []byte) []byte {
	r := renamer{names: s.names, to: p}
	e := w.encoder(buf)
	if e.mixed {
		r.coordinator(&e, w.Coord)
		r.group(&e, w.Group)
	} else if e.genAsEpoch {
		r.group(&e, w.Group)
	} else {
		r.coordinator(&e, w.Coord)
	}
	return e.buf
}

// encodeSlots appends the rest of the image's encoding: its slots, each the renamed contents
// of the slot it is the image of, then what no permutation changes.
func (s Symmetry) encodeSlots(w World, p []int, buf []byte) []byte {
	r := renamer{names: s.names, to: p}
	e := w.encoder(buf)
	var fromBuf [8]int
	from := fromBuf[:len(p)] // from[j] is the slot whose image is j
	for i, j := range p {
		from[j] = i
	}
	e.uint(uint64(len(w.Slots)))
	for _, i := range from {
		sl := r.slot(*w.Slots[i], e.genAsEpoch, e.mixed || !e.genAsEpoch)
		e.slot(&sl)
	}
	e.cluster(w.Cluster)
	e.budget(&w.Left)
	e.uint(uint64(w.Observed))
	e.bool(w.Loading)
	if e.mixed {
		e.bool(w.ConsumerGroup)
	}
	return e.buf
}

// coordinator encodes the renamed classic coordinator as coordinator.Group.AppendCanonical
// would encode it.
func (r renamer) coordinator(e *encoder, g coordinator.Group) {
	cfg := g.Config()
	e.int(int64(cfg.Variant))
	e.uint(uint64(cfg.Faults))
	e.int(int64(cfg.MaxSize))
	e.bool(cfg.Persist)
	e.int(int64(g.State()))
	e.gen(g.Generation())
	e.string(g.ProtocolName())
	e.string(string(r.id(g.Leader())))
	ms := g.AllMembers()
	for k := range ms {
		m := &ms[k]
		m.ID, m.InstanceID = r.id(m.ID), r.instance(m.InstanceID)
		m.Join.Conn, m.Sync.Conn = r.conn(m.Join.Conn), r.conn(m.Sync.Conn)
	}
	slices.SortFunc(ms, func(a, b coordinator.Member) int { return strings.Compare(string(a.ID), string(b.ID)) })
	e.uint(uint64(len(ms)))
	for k := range ms {
		m := &ms[k]
		e.string(string(m.ID))
		e.string(string(m.InstanceID))
		e.uint(uint64(len(m.Protocols)))
		for _, p := range m.Protocols {
			e.string(p.Name)
			e.subscription(p.Metadata)
		}
		e.bool(m.Join.Parked)
		e.int(int64(m.Join.Conn))
		e.int(int64(m.Join.Version))
		e.int(int64(m.Join.Reason))
		e.bool(m.Sync.Parked)
		e.int(int64(m.Sync.Conn))
		e.bool(m.PendingSync)
		e.set(m.Assignment.Partitions)
		e.int(int64(m.Assignment.Error))
		e.bool(m.Assignment.Followup)
		e.bool(m.IsNew)
	}
	pending := g.Pending()
	for k, id := range pending {
		pending[k] = r.id(id)
	}
	slices.Sort(pending)
	e.uint(uint64(len(pending)))
	for _, id := range pending {
		e.string(string(id))
	}
	e.bool(g.InitialJoin())
	r.log(e, g)
}

// log encodes the renamed log record as coordinator.Group.AppendCanonical would.
func (r renamer) log(e *encoder, g coordinator.Group) {
	rec, ok := g.Log()
	e.bool(ok)
	if !ok {
		return
	}
	e.gen(rec.Generation)
	e.string(rec.Protocol)
	e.string(string(r.id(rec.Leader)))
	ms := slices.Clone(rec.Members)
	for k := range ms {
		ms[k].ID, ms[k].InstanceID = r.id(ms[k].ID), r.instance(ms[k].InstanceID)
	}
	slices.SortFunc(ms, func(a, b coordinator.RecordMember) int { return strings.Compare(string(a.ID), string(b.ID)) })
	e.uint(uint64(len(ms)))
	for k := range ms {
		e.string(string(ms[k].ID))
		e.string(string(ms[k].InstanceID))
		e.subscription(ms[k].Subscription)
		e.set(ms[k].Assignment.Partitions)
		e.int(int64(ms[k].Assignment.Error))
		e.bool(ms[k].Assignment.Followup)
	}
}

// group encodes the renamed KIP-848 coordinator as kip848.Group.AppendCanonical would
// encode it.
func (r renamer) group(e *encoder, g kip848.Group) {
	cfg := g.Config()
	e.int(int64(cfg.Variant))
	e.string(cfg.Assignor)
	e.uint(uint64(cfg.Faults))
	e.int(int64(cfg.MaxSize))
	e.int(int64(cfg.CommitRule))
	e.int(int64(cfg.MigrationPolicy))
	e.int(int64(cfg.ClassicMaxSize))
	e.epoch(g.GroupEpoch())
	e.epoch(g.AssignmentEpoch())
	target := slices.Clone(g.Target())
	for k := range target {
		target[k].ID = r.id(target[k].ID)
	}
	slices.SortFunc(target, func(a, b kip848.MemberTarget) int { return strings.Compare(string(a.ID), string(b.ID)) })
	e.uint(uint64(len(target)))
	for _, t := range target {
		e.string(string(t.ID))
		e.set(t.Partitions)
	}
	ms := g.Members()
	for k := range ms {
		ms[k].ID, ms[k].InstanceID = r.id(ms[k].ID), r.instance(ms[k].InstanceID)
	}
	slices.SortFunc(ms, func(a, b kip848.Member) int { return strings.Compare(string(a.ID), string(b.ID)) })
	e.uint(uint64(len(ms)))
	for k := range ms {
		m := &ms[k]
		e.string(string(m.ID))
		e.string(string(m.InstanceID))
		e.epoch(m.MemberEpoch)
		e.epoch(m.PreviousMemberEpoch)
		e.int(int64(m.State))
		e.set(m.AssignedPartitions)
		e.set(m.PartitionsPendingRevocation)
		e.strings(m.SubscribedTopics)
		e.bool(m.RebalanceTimer.Armed)
		e.epoch(m.RebalanceTimer.Epoch)
		e.epoch(m.RevocationTargetEpoch)
		e.uint(uint64(len(m.AssignedAt)))
		for _, a := range m.AssignedAt {
			e.epoch(a.Epoch)
			e.set(a.Partitions)
		}
		e.classicMetadata(m.Classic)
	}
	e.cluster(g.Cluster())
}

// classicMetadata encodes a classic member's metadata in a consumer group as
// kip848.Group.AppendCanonical does: absent, or present and its fields in order.
func (e *encoder) classicMetadata(c *kip848.ClassicMetadata) {
	e.bool(c != nil)
	if c == nil {
		return
	}
	e.uint(uint64(len(c.Protocols)))
	for _, p := range c.Protocols {
		e.string(p.Name)
		e.subscription(p.Metadata)
	}
	e.bool(c.JoinTimer)
	e.bool(c.SyncTimer)
}
