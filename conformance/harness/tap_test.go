package harness

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

var (
	t1ID = [16]byte{1}
	t2ID = [16]byte{2}
)

// tapConn is a conn with no socket under it: the tests hand it bytes as kgo would write them
// and as the broker would answer.
func tapConn(proto string) (*conn, *history.Recorder, *Observer) {
	rec := history.NewRecorder()
	obs := NewObserver(rec)
	obs.SetTopic(t1ID, "t1")
	obs.SetTopic(t2ID, "t2")
	n := NewNet(nil, obs.Tap("n1", proto))
	return &conn{n: n, pending: map[int32]pending{}}, rec, obs
}

// send feeds a request in two pieces, split inside the frame, as a socket may.
func (c *conn) send(r kmsg.Request, corr int32) {
	b := kmsg.NewRequestFormatter(kmsg.FormatterClientID("n1")).AppendRequest(nil, r, corr)
	c.wbuf = c.frames(append(c.wbuf, b[:7]...), c.request)
	c.wbuf = c.frames(append(c.wbuf, b[7:]...), c.request)
}

// answer feeds a response frame: correlation ID, tagged fields when flexible, body.
func (c *conn) answer(r kmsg.Response, corr int32) {
	b := binary.BigEndian.AppendUint32(make([]byte, 4), uint32(corr))
	if r.IsFlexible() {
		b = append(b, 0)
	}
	b = r.AppendTo(b)
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	c.rbuf = c.frames(append(c.rbuf, b...), c.response)
}

// requests are the Request events recorded, without the stamps.
func requests(rec *history.Recorder) []history.Event {
	var out []history.Event
	for _, e := range rec.History() {
		if e.Kind == history.Request {
			e.Seq, e.T, e.ID = 0, 0, 0
			out = append(out, e)
		}
	}
	return out
}

func consumerMetadata(owned map[string][]int32, gen int32) []byte {
	md := kmsg.ConsumerMemberMetadata{Version: 3, Topics: []string{"t1"}, Generation: gen}
	for t, ps := range owned {
		md.OwnedPartitions = append(md.OwnedPartitions, kmsg.ConsumerMemberMetadataOwnedPartition{Topic: t, Partitions: ps})
	}
	return md.AppendTo(nil)
}

func consumerAssignment(parts map[string][]int32) []byte {
	a := kmsg.ConsumerMemberAssignment{Version: 1}
	for t, ps := range parts {
		a.Topics = append(a.Topics, kmsg.ConsumerMemberAssignmentTopic{Topic: t, Partitions: ps})
	}
	return a.AppendTo(nil)
}

// The classic round trip of a cooperative leader (docs/protocol.md §2): JoinGroup with owned
// partitions in the metadata, the leader's member list, SyncGroup with the plan, the
// assignment received.
func TestTapClassicJoinSync(t *testing.T) {
	c, rec, obs := tapConn(history.Classic)
	join := kmsg.NewPtrJoinGroupRequest()
	join.SetVersion(9) // flexible
	join.Group, join.MemberID = Group, "m1"
	join.Protocols = []kmsg.JoinGroupRequestProtocol{{Name: "cooperative-sticky",
		Metadata: consumerMetadata(map[string][]int32{"t1": {0, 1}}, 4)}}
	c.send(join, 7)
	jr := kmsg.NewPtrJoinGroupResponse()
	jr.SetVersion(9)
	jr.Generation, jr.LeaderID, jr.MemberID = 5, "m1", "m1"
	jr.Protocol = kmsg.StringPtr("cooperative-sticky")
	jr.Members = []kmsg.JoinGroupResponseMember{{MemberID: "m1"}, {MemberID: "m2"}}
	c.answer(jr, 7)

	sync := kmsg.NewPtrSyncGroupRequest()
	sync.SetVersion(3) // not flexible
	sync.Group, sync.MemberID, sync.Generation = Group, "m1", 5
	sync.GroupAssignment = []kmsg.SyncGroupRequestGroupAssignment{
		{MemberID: "m1", MemberAssignment: consumerAssignment(map[string][]int32{"t1": {0}})},
		{MemberID: "m2", MemberAssignment: consumerAssignment(map[string][]int32{"t1": {1}})},
	}
	c.send(sync, 8)
	sr := kmsg.NewPtrSyncGroupResponse()
	sr.SetVersion(3)
	sr.MemberAssignment = consumerAssignment(map[string][]int32{"t1": {0}})
	c.answer(sr, 8)

	p := history.Classic
	want := []history.Event{
		{Kind: history.Request, Phase: history.Begin, Node: "n1", Proto: p, Op: history.JoinGroup, Member: "m1", Gen: 4,
			Protocols: []string{"cooperative-sticky"}, Owned: history.Parts{"t1": {0, 1}}},
		{Kind: history.Request, Phase: history.End, Node: "n1", Proto: p, Op: history.JoinGroup, Member: "m1", Gen: 5,
			Protocols: []string{"cooperative-sticky"}, Leader: "m1", Members: []string{"m1", "m2"}},
		{Kind: history.Request, Phase: history.Begin, Node: "n1", Proto: p, Op: history.SyncGroup, Member: "m1", Gen: 5,
			Assignments: map[string]history.Parts{"m1": {"t1": {0}}, "m2": {"t1": {1}}}},
		{Kind: history.Request, Phase: history.End, Node: "n1", Proto: p, Op: history.SyncGroup, Member: "m1", Gen: 5,
			Parts: history.Parts{"t1": {0}}},
	}
	if d := cmp.Diff(want, requests(rec)); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	if got := obs.NodeOf("m2"); got != Coordinator {
		t.Errorf("m2 was only named in a response to n1; NodeOf = %q, want %q", got, Coordinator)
	}
	if got := obs.NodeOf("m1"); got != "n1" {
		t.Errorf("NodeOf(m1) = %q, want n1", got)
	}
}

// Responses that do not name the member answer the request's member (Heartbeat, LeaveGroup,
// OffsetCommit), and error codes are recorded by their Kafka names.
func TestTapErrors(t *testing.T) {
	c, rec, _ := tapConn(history.Classic)
	hb := kmsg.NewPtrHeartbeatRequest()
	hb.SetVersion(4)
	hb.MemberID, hb.Generation = "m1", 3
	c.send(hb, 1)
	hr := kmsg.NewPtrHeartbeatResponse()
	hr.SetVersion(4)
	hr.ErrorCode = kerr.UnknownMemberID.Code
	c.answer(hr, 1)

	oc := kmsg.NewPtrOffsetCommitRequest()
	oc.SetVersion(8)
	oc.MemberID, oc.Generation = "m1", 3
	oc.Topics = []kmsg.OffsetCommitRequestTopic{{Topic: "t1", Partitions: []kmsg.OffsetCommitRequestTopicPartition{{Partition: 2}}}}
	c.send(oc, 2)
	or := kmsg.NewPtrOffsetCommitResponse()
	or.SetVersion(8)
	or.Topics = []kmsg.OffsetCommitResponseTopic{{Topic: "t1", Partitions: []kmsg.OffsetCommitResponseTopicPartition{
		{Partition: 2, ErrorCode: kerr.IllegalGeneration.Code}}}}
	c.answer(or, 2)

	lg := kmsg.NewPtrLeaveGroupRequest()
	lg.SetVersion(4)
	lg.Members = []kmsg.LeaveGroupRequestMember{{MemberID: "m1"}}
	c.send(lg, 3)
	lr := kmsg.NewPtrLeaveGroupResponse()
	lr.SetVersion(4)
	lr.Members = []kmsg.LeaveGroupResponseMember{{MemberID: "m1", ErrorCode: kerr.UnknownMemberID.Code}}
	c.answer(lr, 3)

	got := requests(rec)
	want := []struct {
		op, member, err string
		gen             int32
	}{
		{history.Heartbeat, "m1", "", 3}, {history.Heartbeat, "m1", "UNKNOWN_MEMBER_ID", 3},
		{history.OffsetCommit, "m1", "", 3}, {history.OffsetCommit, "m1", "ILLEGAL_GENERATION", 3},
		{history.LeaveGroup, "m1", "", -1}, {history.LeaveGroup, "m1", "UNKNOWN_MEMBER_ID", -1},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d events, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Op != w.op || g.Member != w.member || g.Err != w.err || g.Gen != w.gen {
			t.Errorf("event %d: got %s %s gen %d err %q, want %s %s gen %d err %q",
				i, g.Op, g.Member, g.Gen, g.Err, w.op, w.member, w.gen, w.err)
		}
	}
	if d := cmp.Diff(history.Parts{"t1": {2}}, got[2].Parts); d != "" {
		t.Errorf("commit parts (-want +got):\n%s", d)
	}
}

// KIP-848 heartbeats carry topic IDs; the tap names them, and tells "unchanged" (null) from
// "nothing" (docs/protocol.md §3.1: Topics and Assignment are null when unchanged).
func TestTapConsumerGroupHeartbeat(t *testing.T) {
	c, rec, obs := tapConn(history.Consumer)
	full := kmsg.NewPtrConsumerGroupHeartbeatRequest()
	full.SetVersion(1)
	full.Group, full.MemberID, full.MemberEpoch = Group, "u1", 4
	full.ServerAssignor = kmsg.StringPtr("uniform")
	full.Topics = []kmsg.ConsumerGroupHeartbeatRequestTopic{{TopicID: t1ID, Partitions: []int32{0, 1}}}
	c.send(full, 1)
	resp := kmsg.NewPtrConsumerGroupHeartbeatResponse()
	resp.SetVersion(1)
	resp.MemberID, resp.MemberEpoch = kmsg.StringPtr("u1"), 5
	resp.Assignment = &kmsg.ConsumerGroupHeartbeatResponseAssignment{
		Topics: []kmsg.ConsumerGroupHeartbeatResponseAssignmentTopic{{TopicID: t2ID, Partitions: []int32{1}}}}
	c.answer(resp, 1)

	keep := kmsg.NewPtrConsumerGroupHeartbeatRequest()
	keep.SetVersion(1)
	keep.MemberID, keep.MemberEpoch = "u1", 5
	c.send(keep, 2)
	fenced := kmsg.NewPtrConsumerGroupHeartbeatResponse()
	fenced.SetVersion(1)
	fenced.ErrorCode = kerr.FencedMemberEpoch.Code
	c.answer(fenced, 2)

	p := history.Consumer
	op := history.ConsumerGroupHeartbeat
	want := []history.Event{
		{Kind: history.Request, Phase: history.Begin, Node: "n1", Proto: p, Op: op, Member: "u1", Gen: 4,
			Protocols: []string{"uniform"}, Owned: history.Parts{"t1": {0, 1}}},
		{Kind: history.Request, Phase: history.End, Node: "n1", Proto: p, Op: op, Member: "u1", Gen: 5,
			Parts: history.Parts{"t2": {1}}},
		{Kind: history.Request, Phase: history.Begin, Node: "n1", Proto: p, Op: op, Member: "u1", Gen: 5, Note: "topics=null"},
		{Kind: history.Request, Phase: history.End, Node: "n1", Proto: p, Op: op, Err: "FENCED_MEMBER_EPOCH", Note: "assignment=null"},
	}
	if d := cmp.Diff(want, requests(rec), cmpopts.EquateEmpty()); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	if errs := obs.Errors(); len(errs) != 0 {
		t.Errorf("errors: %v", errs)
	}

	// An ID no topic has fails the run instead of inventing a topic.
	unknown := kmsg.NewPtrConsumerGroupHeartbeatRequest()
	unknown.SetVersion(1)
	unknown.Topics = []kmsg.ConsumerGroupHeartbeatRequestTopic{{TopicID: [16]byte{9}, Partitions: []int32{0}}}
	c.send(unknown, 3)
	if errs := obs.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "unknown topic ID") {
		t.Errorf("errors = %v, want one naming the unknown topic ID", errs)
	}
}

// Requests the tap does not decode pass untouched, and a response to nothing tapped is
// skipped; a frame that cannot be what it claims blinds the tap to that connection and says so.
func TestTapFraming(t *testing.T) {
	c, rec, obs := tapConn(history.Classic)
	md := kmsg.NewPtrMetadataRequest()
	md.SetVersion(12)
	c.send(md, 1)
	mr := kmsg.NewPtrMetadataResponse()
	mr.SetVersion(12)
	c.answer(mr, 1)
	if got := len(rec.History()); got != 0 {
		t.Errorf("untapped request recorded %d events", got)
	}

	hb := kmsg.NewPtrHeartbeatRequest()
	hb.SetVersion(4)
	b := kmsg.NewRequestFormatter().AppendRequest(nil, hb, 2)
	b = b[:len(b)-3] // a body cut short, with its size prefix fixed to match
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	c.wbuf = c.frames(b, c.request)
	if errs := obs.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "Heartbeat") {
		t.Fatalf("errors = %v, want one about the Heartbeat", errs)
	}
	if !c.blind {
		t.Error("the tap still trusts the connection")
	}
	c.rbuf = c.frames([]byte{0xff, 0xff, 0xff, 0xff}, c.response) // size -1
	if errs := obs.Errors(); len(errs) != 1 {
		t.Errorf("a blind connection reported again: %v", errs)
	}
	if c.rbuf != nil {
		t.Errorf("left over %d bytes after losing the framing", len(c.rbuf))
	}
}

// Source: KIP-482 tagged fields, a count then (tag, size, bytes) each.
func TestSkipTags(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in       []byte
		flexible bool
		rest     []byte
		err      bool
	}{
		{"not flexible", []byte{1, 2}, false, []byte{1, 2}, false},
		{"no tags", []byte{0, 7}, true, []byte{7}, false},
		{"one tag", []byte{1, 3, 2, 0xa, 0xb, 7}, true, []byte{7}, false},
		{"empty", nil, true, nil, true},
		{"size past the end", []byte{1, 3, 9, 0xa}, true, nil, true},
		{"no tag number", []byte{1}, true, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rest, err := skipTags(tc.in, tc.flexible)
			if (err != nil) != tc.err {
				t.Fatalf("err = %v, want error %v", err, tc.err)
			}
			if d := cmp.Diff(tc.rest, rest, cmpopts.EquateEmpty()); !tc.err && d != "" {
				t.Errorf("rest (-want +got):\n%s", d)
			}
		})
	}
}
