package spec

import (
	"encoding/binary"
	"math"
	"reflect"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848client"
)

// Hand-written canonical encoding of worlds (World.Encode). It writes, field by field, the
// bytes the reflection encoder (encodeReflect, encode.go) writes, without reflection: the same
// rules for generations, epochs, protocol-tagged roles and interface type codes. A field added
// to a role must be added here too; TestFastEncodingMatchesReflect catches a forgotten one.

// Type codes of the concrete request and response types: the order of registerTypes in
// encode.go's init (TestFastTypeCodes checks they agree).
const (
	codeJoinGroupRequest byte = iota + 1
	codeSyncGroupRequest
	codeHeartbeatRequest
	codeLeaveGroupRequest
	codeOffsetCommitRequest
	codeJoinGroupResponse
	codeSyncGroupResponse
	codeHeartbeatResponse
	codeLeaveGroupResponse
	codeOffsetCommitResp
	codeCGHRequest
	codeCGHResponse
)

// Encode appends the world's canonical encoding: every field of every role, generations
// relative to the coordinator's and epochs relative to the kip848 group epoch (see encode.go).
func (w World) Encode(buf []byte) []byte {
	e := w.encoder(buf)
	// The closures are built here, not returned by a helper, so that they stay on the stack.
	if e.mixed {
		eb := e.epochBase
		e.buf = w.Coord.AppendCanonical(e.buf, func(buf []byte, g impl.Generation) []byte { return encodeEpoch(buf, eb, impl.Epoch(g)) })
		e.buf = w.Group.AppendCanonical(e.buf, func(buf []byte, v impl.Epoch) []byte { return encodeEpoch(buf, eb, v) })
	} else if e.genAsEpoch {
		eb := e.epochBase
		e.buf = w.Group.AppendCanonical(e.buf, func(buf []byte, v impl.Epoch) []byte { return encodeEpoch(buf, eb, v) })
	} else {
		base := e.base
		e.buf = w.Coord.AppendCanonical(e.buf, func(buf []byte, g impl.Generation) []byte {
			return encodeGen(buf, base, 0, false, g)
		})
	}
	e.buf = binary.AppendUvarint(e.buf, uint64(len(w.Slots)))
	for i := range w.Slots {
		e.slot(w.Slots[i])
	}
	e.cluster(w.Cluster)
	e.budget(&w.Left)
	e.buf = binary.AppendUvarint(e.buf, uint64(w.Observed))
	e.bool(w.Loading)
	if e.mixed {
		e.bool(w.ConsumerGroup)
	}
	return e.buf
}

// encodeGen is encoder.appendGen's rule as a pure function of the buffer.
func encodeGen(buf []byte, base impl.Generation, epochBase impl.Epoch, genAsEpoch bool, g impl.Generation) []byte {
	if genAsEpoch {
		return encodeEpoch(buf, epochBase, impl.Epoch(g))
	}
	if g == impl.NoGeneration {
		return binary.AppendVarint(buf, math.MinInt32)
	}
	return binary.AppendVarint(buf, int64(base-g))
}

// encodeEpoch is encoder.appendEpoch's rule as a pure function of the buffer.
func encodeEpoch(buf []byte, epochBase, v impl.Epoch) []byte {
	switch v {
	case impl.EpochJoin, impl.EpochLeave, impl.EpochTemporaryLeave:
		return binary.AppendVarint(buf, math.MinInt32+int64(-v))
	}
	return binary.AppendVarint(buf, int64(epochBase-v))
}

func (e *encoder) gen(g impl.Generation) {
	e.buf = encodeGen(e.buf, e.base, e.epochBase, e.genAsEpoch, g)
}

func (e *encoder) epoch(v impl.Epoch) { e.buf = encodeEpoch(e.buf, e.epochBase, v) }

func (e *encoder) bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

func (e *encoder) int(v int64) { e.buf = binary.AppendVarint(e.buf, v) }

func (e *encoder) uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }

func (e *encoder) string(s string) {
	e.buf = binary.AppendUvarint(e.buf, uint64(len(s)))
	e.buf = append(e.buf, s...)
}

func (e *encoder) strings(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.string(s)
	}
}

func (e *encoder) set(s impl.PartitionSet) {
	tps := s.Slice()
	e.uint(uint64(len(tps)))
	for _, tp := range tps {
		e.string(tp.Topic)
		e.int(int64(tp.Partition))
	}
}

func (e *encoder) setPtr(s *impl.PartitionSet) {
	if s == nil {
		e.buf = append(e.buf, 0)
		return
	}
	e.buf = append(e.buf, 1)
	e.set(*s)
}

func (e *encoder) cluster(c impl.Cluster) {
	e.uint(uint64(len(c.Topics)))
	for _, t := range c.Topics {
		e.string(t.Name)
		e.int(int64(t.Partitions))
	}
}

func (e *encoder) budget(b *Budget) {
	for _, v := range b.values() { // in declaration order, as the reflection encoder writes them
		e.int(int64(v))
	}
}

func (e *encoder) subscription(s impl.Subscription) {
	e.int(int64(s.Version))
	e.strings(s.Topics)
	e.set(s.OwnedPartitions)
	e.gen(s.Generation)
	e.set(s.UserData.Previous)
	e.gen(s.UserData.Generation)
}

func (e *encoder) joinMembers(ms []impl.JoinGroupMember) {
	e.uint(uint64(len(ms)))
	for i := range ms {
		e.string(string(ms[i].MemberID))
		e.string(string(ms[i].InstanceID))
		e.subscription(ms[i].Metadata)
	}
}

func (e *encoder) assignment(a impl.Assignment) {
	e.set(a.Partitions)
	e.int(int64(a.Error))
	e.bool(a.Followup)
}

func (e *encoder) slot(s *Slot) {
	e.uint(uint64(s.Process))
	e.uint(uint64(s.Incarnation))
	e.bool(s.Alt)
	e.bool(s.Stale)
	e.uint(uint64(s.Cond))
	if e.mixed {
		e.consumer(s.Client)
		e.member(s.Member)
		e.assigning(s.Assigning)
	} else if e.genAsEpoch {
		e.member(s.Member)
	} else {
		e.consumer(s.Client)
		e.assigning(s.Assigning)
	}
	e.uint(uint64(len(s.Out)))
	for _, r := range s.Out {
		e.request(r)
	}
	e.uint(uint64(len(s.In)))
	for _, r := range s.In {
		e.response(r)
	}
	if e.mixed {
		e.bool(s.Consumer)
	}
}

func (e *encoder) assigning(a *consumer.RunAssignment) {
	if a == nil {
		e.buf = append(e.buf, 0)
		return
	}
	e.buf = append(e.buf, 1)
	e.gen(a.Generation)
	e.string(a.ProtocolName)
	e.joinMembers(a.Members)
	e.cluster(a.Cluster)
}

func (e *encoder) groupGen(g consumer.GroupGeneration) {
	e.gen(g.ID)
	e.string(string(g.MemberID))
	e.string(g.ProtocolName)
}

func (e *encoder) consumer(c *consumer.Consumer) {
	cf := &c.Config
	e.int(int64(cf.Variant))
	e.strings(cf.Assignors)
	if cf.RebalanceProtocol == nil {
		e.buf = append(e.buf, 0)
	} else {
		e.buf = append(e.buf, 1)
		e.int(int64(*cf.RebalanceProtocol))
	}
	e.int(int64(cf.SubscriptionVersion))
	e.int(int64(cf.JoinGroupVersion))
	e.string(string(cf.InstanceID))
	e.int(int64(cf.Conn))
	e.uint(uint64(cf.Faults))
	e.uint(uint64(cf.Commits))
	e.uint(uint64(cf.OnFatal))

	e.int(int64(c.Status))
	e.groupGen(c.Gen)
	e.set(c.OwnedPartitions)
	e.strings(c.Topics)
	e.strings(c.JoinedTopics)
	e.cluster(c.Metadata)
	e.bool(c.RejoinNeeded)
	e.bool(c.NeedsJoinPrepare)
	e.int(int64(c.Trigger))
	e.bool(c.HasJoined)
	e.bool(c.Leader)
	e.bool(c.AwaitingAssignment)
	e.strings(c.GroupTopics)
	e.cluster(c.AssignmentSnapshot)
	e.set(c.UserData.Previous)
	e.gen(c.UserData.Generation)
	e.gen(c.OwnedGeneration)
	e.bool(c.FollowupDue)
	for i := range c.Requests {
		p := &c.Requests[i]
		e.bool(p.Active)
		e.groupGen(p.Sent)
		e.set(p.Partitions)
	}
	e.int(int64(c.FatalError))
	e.bool(c.Closed)
}

func (e *encoder) member(m *kip848client.Member) {
	e.int(int64(m.Config.Variant))
	e.string(string(m.Config.InstanceID))
	e.int(int64(m.Config.Conn))
	e.uint(uint64(m.Config.Faults))
	e.string(string(m.Config.MemberID))
	e.int(int64(m.Status))
	e.string(string(m.ID))
	e.epoch(m.MemberEpoch)
	e.strings(m.Topics)
	e.set(m.OwnedPartitions)
	e.set(m.Target)
	e.bool(m.Rec.Active)
	e.bool(m.Rec.AwaitCommit)
	e.set(m.Rec.Target)
	e.bool(m.Sent.Valid)
	e.strings(m.Sent.Topics)
	e.set(m.Sent.Owned)
	e.bool(m.Heartbeat.Active)
	e.epoch(m.Heartbeat.Epoch)
	e.bool(m.Commit.Active)
	e.bool(m.Commit.Revocation)
	e.epoch(m.Commit.Epoch)
	e.set(m.Commit.Partitions)
	e.bool(m.PollExpired)
	e.bool(m.Closed)
	e.int(int64(m.FatalError))
}

func (e *encoder) request(r impl.Request) {
	switch r := r.(type) {
	case nil:
		e.buf = append(e.buf, 0)
	case impl.JoinGroupRequest:
		e.buf = append(e.buf, codeJoinGroupRequest)
		e.int(int64(r.Conn))
		e.int(int64(r.Version))
		e.string(string(r.MemberID))
		e.string(string(r.InstanceID))
		e.uint(uint64(len(r.Protocols)))
		for _, p := range r.Protocols {
			e.string(p.Name)
			e.subscription(p.Metadata)
		}
		e.int(int64(r.Reason))
	case impl.SyncGroupRequest:
		e.buf = append(e.buf, codeSyncGroupRequest)
		e.int(int64(r.Conn))
		e.string(string(r.MemberID))
		e.string(string(r.InstanceID))
		e.gen(r.Generation)
		e.string(r.ProtocolName)
		e.uint(uint64(len(r.Assignments)))
		for _, a := range r.Assignments {
			e.string(string(a.MemberID))
			e.assignment(a.Assignment)
		}
	case impl.HeartbeatRequest:
		e.buf = append(e.buf, codeHeartbeatRequest)
		e.int(int64(r.Conn))
		e.string(string(r.MemberID))
		e.string(string(r.InstanceID))
		e.gen(r.Generation)
	case impl.LeaveGroupRequest:
		e.buf = append(e.buf, codeLeaveGroupRequest)
		e.int(int64(r.Conn))
		e.uint(uint64(len(r.Members)))
		for _, m := range r.Members {
			e.string(string(m.MemberID))
			e.string(string(m.InstanceID))
		}
	case impl.OffsetCommitRequest:
		e.buf = append(e.buf, codeOffsetCommitRequest)
		e.int(int64(r.Conn))
		e.string(string(r.MemberID))
		e.string(string(r.InstanceID))
		e.gen(r.Generation)
		e.set(r.Partitions)
	case impl.ConsumerGroupHeartbeatRequest:
		e.buf = append(e.buf, codeCGHRequest)
		e.int(int64(r.Conn))
		e.string(string(r.MemberID))
		e.epoch(r.MemberEpoch)
		e.string(string(r.InstanceID))
		e.strings(r.SubscribedTopicNames)
		e.string(r.ServerAssignor)
		e.setPtr(r.OwnedPartitions)
	default:
		e.reflectIface(r)
	}
}

func (e *encoder) response(r impl.Response) {
	switch r := r.(type) {
	case nil:
		e.buf = append(e.buf, 0)
	case impl.JoinGroupResponse:
		e.buf = append(e.buf, codeJoinGroupResponse)
		e.int(int64(r.Error))
		e.gen(r.Generation)
		e.string(r.ProtocolName)
		e.string(string(r.Leader))
		e.string(string(r.MemberID))
		e.joinMembers(r.Members)
		e.bool(r.SkipAssignment)
	case impl.SyncGroupResponse:
		e.buf = append(e.buf, codeSyncGroupResponse)
		e.int(int64(r.Error))
		e.string(r.ProtocolName)
		e.assignment(r.Assignment)
	case impl.HeartbeatResponse:
		e.buf = append(e.buf, codeHeartbeatResponse)
		e.int(int64(r.Error))
	case impl.LeaveGroupResponse:
		e.buf = append(e.buf, codeLeaveGroupResponse)
		e.int(int64(r.Error))
		e.uint(uint64(len(r.Members)))
		for _, m := range r.Members {
			e.string(string(m.MemberID))
			e.string(string(m.InstanceID))
			e.int(int64(m.Error))
		}
	case impl.OffsetCommitResponse:
		e.buf = append(e.buf, codeOffsetCommitResp)
		e.int(int64(r.Error))
	case impl.ConsumerGroupHeartbeatResponse:
		e.buf = append(e.buf, codeCGHResponse)
		e.int(int64(r.Error))
		e.string(string(r.MemberID))
		e.epoch(r.MemberEpoch)
		e.setPtr(r.Assignment)
	default:
		e.reflectIface(r)
	}
}

// reflectIface encodes an interface value of a type without a hand-written case (none in
// worlds today) by the reflection plans, with the same type-code prefix.
func (e *encoder) reflectIface(v any) {
	r := *e // a copy, so that e itself does not escape through the plan's function value
	planFor(reflect.TypeFor[any]())(&r, reflect.ValueOf(&v).Elem())
	e.buf = r.buf
}
