package harness

import (
	"fmt"
	"sync"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// tapped are the request keys the tap decodes: the group coordinator's operations.
var tapped = map[int16]bool{
	int16(kmsg.OffsetCommit):           true,
	int16(kmsg.JoinGroup):              true,
	int16(kmsg.Heartbeat):              true,
	int16(kmsg.LeaveGroup):             true,
	int16(kmsg.SyncGroup):              true,
	int16(kmsg.ConsumerGroupHeartbeat): true,
}

// carriesMember are the ops whose response names the member and its generation or epoch.
var carriesMember = map[string]bool{history.JoinGroup: true, history.ConsumerGroupHeartbeat: true}

// Tap turns one node's group requests and responses into Request events: the begin when the
// request is written (before the broker can act on it), the end when its response has been
// read (before kgo can act on it). That is what lets the oracle know what the coordinator
// assigned and when it told a member it was fenced.
type Tap struct {
	obs   *Observer
	node  string
	proto string

	mu         sync.Mutex
	onCommit   func(member string, gen int32, err string) // Node.WatchCommits
	joined     history.Event                              // the last accepted JoinGroup or ConsumerGroupHeartbeat response
	deviations map[string]bool                            // client deviations already noted
	trip       func(req, x history.Event) bool            // Harness.CrashMidJoin: true once it fired
	hold       func(kmsg.Request) func()                  // Harness.Delay: the wait for a request to hold, or nil
}

// held returns how long to hold req before it goes on (a wait), or nil to pass it at once.
func (t *Tap) held(req kmsg.Request) func() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.hold == nil {
		return nil
	}
	return t.hold(req)
}

func (t *Tap) fail(err error) { t.obs.fail(fmt.Sprintf("tap %s: %v", t.node, err)) }

// begin records a request and returns what records its response.
func (t *Tap) begin(req kmsg.Request) func(kmsg.Response) {
	e := history.Event{Kind: history.Request, Node: t.node, Proto: t.proto}
	switch r := req.(type) {
	case *kmsg.JoinGroupRequest:
		e.Op, e.Member, e.Instance = history.JoinGroup, r.MemberID, deref(r.InstanceID)
		e.Protocols, e.Owned, e.Gen = t.joinProtocols(r.Protocols)
	case *kmsg.SyncGroupRequest:
		e.Op, e.Member, e.Instance, e.Gen = history.SyncGroup, r.MemberID, deref(r.InstanceID), r.Generation
		for _, a := range r.GroupAssignment {
			if e.Assignments == nil {
				e.Assignments = map[string]history.Parts{}
			}
			e.Assignments[a.MemberID] = t.memberAssignment(a.MemberAssignment)
		}
	case *kmsg.HeartbeatRequest:
		e.Op, e.Member, e.Instance, e.Gen = history.Heartbeat, r.MemberID, deref(r.InstanceID), r.Generation
	case *kmsg.LeaveGroupRequest:
		e.Op, e.Member = history.LeaveGroup, r.MemberID
		if len(r.Members) > 0 { // v3+: a batch; kgo leaves one member at a time
			e.Member, e.Instance = r.Members[0].MemberID, deref(r.Members[0].InstanceID)
		}
		e.Gen = -1
	case *kmsg.OffsetCommitRequest:
		e.Op, e.Member, e.Instance, e.Gen = history.OffsetCommit, r.MemberID, deref(r.InstanceID), r.Generation
		e.Parts = history.Parts{}
		for _, tp := range r.Topics {
			name := tp.Topic
			if name == "" {
				name = t.topicName(tp.TopicID)
			}
			for _, p := range tp.Partitions {
				e.Parts[name] = append(e.Parts[name], p.Partition)
			}
		}
	case *kmsg.ConsumerGroupHeartbeatRequest:
		e.Op, e.Member, e.Instance, e.Gen = history.ConsumerGroupHeartbeat, r.MemberID, deref(r.InstanceID), r.MemberEpoch
		if r.ServerAssignor != nil {
			e.Protocols = []string{*r.ServerAssignor}
		}
		if r.Topics == nil {
			e.Note = "topics=null" // unchanged since the last full heartbeat, not "owns nothing"
		} else {
			e.Owned = history.Parts{}
			for _, tp := range r.Topics {
				name := t.topicName(tp.TopicID)
				e.Owned[name] = append(e.Owned[name], tp.Partitions...)
			}
		}
	}
	t.obs.member(e.Member, t.node)
	end := t.obs.rec.Begin(e)
	return func(resp kmsg.Response) {
		x := t.response(resp)
		if !carriesMember[e.Op] { // the response does not say: it answers the request's member
			x.Member, x.Gen = e.Member, e.Gen
		}
		if x.OK() && (e.Op == history.LeaveGroup || e.Op == history.ConsumerGroupHeartbeat && e.Gen < 0) {
			t.obs.leaves(e.Member) // a KIP-848 leave is a heartbeat with epoch -1 (-2: static)
		}
		end(x)
		t.mu.Lock()
		trip := t.trip
		t.mu.Unlock()
		if trip != nil && trip(e, x) {
			t.mu.Lock()
			t.trip = nil
			t.mu.Unlock()
		}
		if (e.Op == history.JoinGroup || e.Op == history.ConsumerGroupHeartbeat) && x.OK() {
			t.obs.advance(x.Gen)
		}
		if (e.Op == history.JoinGroup || e.Op == history.ConsumerGroupHeartbeat) && x.OK() && x.Member != "" {
			t.mu.Lock()
			t.joined = x
			t.mu.Unlock()
		}
		if e.Op == history.OffsetCommit {
			t.mu.Lock()
			fn := t.onCommit
			t.mu.Unlock()
			if fn != nil {
				fn(e.Member, e.Gen, x.Err)
			}
		}
	}
}

// response builds the end of a Request from its response.
func (t *Tap) response(resp kmsg.Response) history.Event {
	var x history.Event
	switch r := resp.(type) {
	case *kmsg.JoinGroupResponse:
		x.Err, x.Member, x.Gen, x.Leader = ErrName(r.ErrorCode), r.MemberID, r.Generation, r.LeaderID
		if r.Protocol != nil {
			x.Protocols = []string{*r.Protocol}
		}
		for _, m := range r.Members {
			x.Members = append(x.Members, m.MemberID)
		}
		if r.ErrorCode == 0 && len(x.Members) > 0 {
			t.obs.generation(r.Generation, x.Members)
		}
	case *kmsg.SyncGroupResponse:
		x.Err = ErrName(r.ErrorCode)
		if r.ErrorCode == 0 {
			x.Parts = t.memberAssignment(r.MemberAssignment)
		}
	case *kmsg.HeartbeatResponse:
		x.Err = ErrName(r.ErrorCode)
	case *kmsg.LeaveGroupResponse:
		x.Err = ErrName(r.ErrorCode)
		for _, m := range r.Members {
			if x.Err == "" {
				x.Err = ErrName(m.ErrorCode)
			}
		}
	case *kmsg.OffsetCommitResponse:
		x.Err = CommitErr(r)
	case *kmsg.ConsumerGroupHeartbeatResponse:
		x.Err, x.Member, x.Gen = ErrName(r.ErrorCode), deref(r.MemberID), r.MemberEpoch
		switch {
		case r.Assignment == nil:
			x.Note = "assignment=null" // unchanged, not "assigned nothing"
		default:
			x.Parts = history.Parts{}
			for _, tp := range r.Assignment.Topics {
				name := t.topicName(tp.TopicID)
				x.Parts[name] = append(x.Parts[name], tp.Partitions...)
			}
		}
	}
	t.obs.member(x.Member, t.node)
	return x
}

// joinProtocols names the assignors a JoinGroup offers, and reads the owned partitions and
// generation from the first protocol's consumer metadata (KIP-429 OwnedPartitions, v1+;
// Generation, v2+); the generation is -1 where the metadata does not carry one.
func (t *Tap) joinProtocols(ps []kmsg.JoinGroupRequestProtocol) ([]string, history.Parts, int32) {
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	if len(ps) == 0 {
		return names, nil, -1
	}
	var md kmsg.ConsumerMemberMetadata
	if err := md.ReadFrom(ps[0].Metadata); err != nil {
		if v0, ok := asV0(ps[0].Metadata); ok && md.ReadFrom(v0) == nil {
			t.deviate("JoinGroup metadata of " + ps[0].Name + " says version 1 but has the version 0 layout (no owned partitions)")
			return names, nil, -1
		}
		t.fail(fmt.Errorf("JoinGroup metadata of %s: %v", ps[0].Name, err))
		return names, nil, -1
	}
	var owned history.Parts
	for _, o := range md.OwnedPartitions {
		if owned == nil {
			owned = history.Parts{}
		}
		owned[o.Topic] = append(owned[o.Topic], o.Partitions...)
	}
	gen := int32(-1)
	if md.Version >= 2 {
		gen = md.Generation
	}
	return names, owned, gen
}

// asV0 returns subscription metadata relabelled as version 0, if it claims version 1: kafka-go
// v0.4.51 writes Version 1 with the version 0 fields only (joingroup.go groupMetadata.writeTo;
// ConsumerProtocolSubscription v1 adds owned_partitions).
func asV0(b []byte) ([]byte, bool) {
	if len(b) < 2 || b[0] != 0 || b[1] != 1 {
		return nil, false
	}
	v0 := append([]byte(nil), b...)
	v0[1] = 0
	return v0, true
}

// deviate notes, once per node and message, a client wire-format deviation the tap can read
// around: a Mark in the history, not a failed run.
func (t *Tap) deviate(msg string) {
	t.mu.Lock()
	if t.deviations == nil {
		t.deviations = map[string]bool{}
	}
	seen := t.deviations[msg]
	t.deviations[msg] = true
	t.mu.Unlock()
	if !seen {
		t.obs.rec.Record(history.Event{Kind: history.Mark, Node: t.node, Note: "client deviation: " + msg})
	}
}

// memberAssignment decodes a classic consumer assignment (the SyncGroup bytes).
func (t *Tap) memberAssignment(b []byte) history.Parts {
	parts := history.Parts{}
	if len(b) == 0 {
		return parts
	}
	var a kmsg.ConsumerMemberAssignment
	if err := a.ReadFrom(b); err != nil {
		t.fail(fmt.Errorf("SyncGroup assignment: %v", err))
		return parts
	}
	for _, tp := range a.Topics {
		parts[tp.Topic] = append(parts[tp.Topic], tp.Partitions...)
	}
	return parts
}

// topicName resolves a topic ID; an unknown ID fails the run rather than being recorded under
// a made-up name that the oracle would take for a different topic.
func (t *Tap) topicName(id [16]byte) string {
	if name, ok := t.obs.topic(id); ok {
		return name
	}
	t.fail(fmt.Errorf("unknown topic ID %x", id))
	return fmt.Sprintf("unknown-%x", id)
}

// ErrName is the Kafka name of an error code, "" for none.
func ErrName(code int16) string {
	if code == 0 {
		return ""
	}
	if e, ok := kerr.ErrorForCode(code).(*kerr.Error); ok {
		return e.Message
	}
	return fmt.Sprintf("ERROR_CODE_%d", code)
}

// CommitErr is the first partition error of an OffsetCommit response, "" if none failed.
func CommitErr(r *kmsg.OffsetCommitResponse) string {
	for _, tp := range r.Topics {
		for _, p := range tp.Partitions {
			if p.ErrorCode != 0 {
				return ErrName(p.ErrorCode)
			}
		}
	}
	return ""
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
