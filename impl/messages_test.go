package impl

import "testing"

// TestMessagesCarryConnAndCode: a response must return to the connection its request came on,
// and the top-level error code is what every reaction table keys on (docs/protocol.md §1.11).
func TestMessagesCarryConnAndCode(t *testing.T) {
	for _, r := range []Request{
		JoinGroupRequest{Conn: 7}, SyncGroupRequest{Conn: 7}, HeartbeatRequest{Conn: 7},
		LeaveGroupRequest{Conn: 7}, OffsetCommitRequest{Conn: 7},
	} {
		if r.From() != 7 {
			t.Errorf("%T.From() = %d, want 7", r, r.From())
		}
		r.isRequest()
	}
	for _, r := range []Response{
		JoinGroupResponse{Error: UnknownMemberID}, SyncGroupResponse{Error: UnknownMemberID},
		HeartbeatResponse{Error: UnknownMemberID}, LeaveGroupResponse{Error: UnknownMemberID},
		OffsetCommitResponse{Error: UnknownMemberID},
	} {
		if r.Code() != UnknownMemberID {
			t.Errorf("%T.Code() = %v, want UNKNOWN_MEMBER_ID", r, r.Code())
		}
		r.isResponse()
	}
}

func TestNamesOfSmallEnums(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Eager.String(), "eager"}, {Cooperative.String(), "cooperative"},
		{Kafka.String(), "kafka"}, {KIP.String(), "kip"},
		{JoinReason(9).String(), "invalid"}, {Fault(200).String(), "invalid-fault"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if _, ok := ParseFault("no-such-fault"); ok {
		t.Error("ParseFault accepted an unknown name")
	}
	if _, ok := ParseErrorCode("NO_SUCH_ERROR"); ok {
		t.Error("ParseErrorCode accepted an unknown name")
	}
	if _, ok := ParseJoinReason("reboot"); ok {
		t.Error("ParseJoinReason accepted an unknown name")
	}
}

func TestConsumerGroupHeartbeatIsAMessage(t *testing.T) {
	var req Request = ConsumerGroupHeartbeatRequest{Conn: 3, MemberEpoch: EpochJoin}
	var resp Response = ConsumerGroupHeartbeatResponse{Error: FencedMemberEpoch}
	if req.From() != 3 || resp.Code() != FencedMemberEpoch {
		t.Errorf("From %d, Code %v", req.From(), resp.Code())
	}
	req.(ConsumerGroupHeartbeatRequest).isRequest()
	resp.(ConsumerGroupHeartbeatResponse).isResponse()
}
