package differential

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// JoinGroupResponse is a JoinGroup response in the client's shape (docs/protocol.md §1.1). Members is
// set only in the leader's response.
type JoinGroupResponse struct {
	Error          string // Kafka's error name; "" or "NONE" for success
	Generation     int32
	Protocol       string
	Leader         string
	MemberID       string
	Members        []Member
	SkipAssignment bool // KIP-814
}

// Impl converts the response into the reference's type.
func (r JoinGroupResponse) Impl() (impl.JoinGroupResponse, error) {
	code, err := ParseError(r.Error)
	if err != nil {
		return impl.JoinGroupResponse{}, fmt.Errorf("JoinGroup response: %v", err)
	}
	var ms []impl.JoinGroupMember
	if len(r.Members) > 0 {
		if ms, err = JoinGroupMembers(r.Members); err != nil {
			return impl.JoinGroupResponse{}, fmt.Errorf("JoinGroup response: %v", err)
		}
	}
	return impl.JoinGroupResponse{
		Error: code, Generation: impl.Generation(r.Generation), ProtocolName: r.Protocol,
		Leader: impl.MemberID(r.Leader), MemberID: impl.MemberID(r.MemberID), Members: ms,
		SkipAssignment: r.SkipAssignment,
	}, nil
}

// FromJoinGroupResponse is the client's shape of a reference JoinGroup response.
func FromJoinGroupResponse(r impl.JoinGroupResponse) JoinGroupResponse {
	out := JoinGroupResponse{
		Error: ErrorName(r.Error), Generation: int32(r.Generation), Protocol: r.ProtocolName,
		Leader: string(r.Leader), MemberID: string(r.MemberID), SkipAssignment: r.SkipAssignment,
	}
	for _, m := range r.Members {
		out.Members = append(out.Members, FromJoinGroupMember(m))
	}
	return out
}

// SyncGroupResponse is a SyncGroup response in the client's shape: the member's decoded
// assignment (docs/protocol.md §1.5, §2.2).
type SyncGroupResponse struct {
	Error      string
	Protocol   string
	Assignment map[string][]int32
}

// Impl converts the response into the reference's type.
func (r SyncGroupResponse) Impl() (impl.SyncGroupResponse, error) {
	code, err := ParseError(r.Error)
	if err != nil {
		return impl.SyncGroupResponse{}, fmt.Errorf("SyncGroup response: %v", err)
	}
	a, err := ToSet(r.Assignment)
	if err != nil {
		return impl.SyncGroupResponse{}, fmt.Errorf("SyncGroup response: assignment: %v", err)
	}
	return impl.SyncGroupResponse{Error: code, ProtocolName: r.Protocol, Assignment: impl.Assignment{Partitions: a}}, nil
}

// FromSyncGroupResponse is the client's shape of a reference SyncGroup response. KIP-429's
// per-member NEEDS_REJOIN (never shipped) has no place in Kafka's response and is dropped.
func FromSyncGroupResponse(r impl.SyncGroupResponse) SyncGroupResponse {
	return SyncGroupResponse{Error: ErrorName(r.Error), Protocol: r.ProtocolName, Assignment: FromSet(r.Assignment.Partitions)}
}

// HeartbeatResponse is a KIP-848 ConsumerGroupHeartbeat response in the client's shape
// (docs/protocol.md §3.1). A nil Assignment means the response carried none (unchanged); a non-nil
// one, even empty, is the member's whole assignment.
type HeartbeatResponse struct {
	Error       string
	MemberID    string
	MemberEpoch int32
	Assignment  map[string][]int32
}

// Impl converts the response into the reference's type.
func (r HeartbeatResponse) Impl() (impl.ConsumerGroupHeartbeatResponse, error) {
	code, err := ParseError(r.Error)
	if err != nil {
		return impl.ConsumerGroupHeartbeatResponse{}, fmt.Errorf("ConsumerGroupHeartbeat response: %v", err)
	}
	out := impl.ConsumerGroupHeartbeatResponse{Error: code, MemberID: impl.MemberID(r.MemberID), MemberEpoch: impl.Epoch(r.MemberEpoch)}
	if r.Assignment != nil {
		a, err := ToSet(r.Assignment)
		if err != nil {
			return impl.ConsumerGroupHeartbeatResponse{}, fmt.Errorf("ConsumerGroupHeartbeat response: assignment: %v", err)
		}
		out.Assignment = &a
	}
	return out, nil
}

// FromHeartbeatResponse is the client's shape of a reference ConsumerGroupHeartbeat response.
func FromHeartbeatResponse(r impl.ConsumerGroupHeartbeatResponse) HeartbeatResponse {
	out := HeartbeatResponse{Error: ErrorName(r.Error), MemberID: string(r.MemberID), MemberEpoch: int32(r.MemberEpoch)}
	if r.Assignment != nil {
		out.Assignment = FromSet(*r.Assignment)
	}
	return out
}
