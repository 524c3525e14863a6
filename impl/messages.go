package impl

// Request is a classic group protocol request as the coordinator receives it. Every request
// carries the connection it came from, so that its response, immediate or parked, returns there.
type Request interface {
	// From is the connection the request arrived on.
	From() Conn
	isRequest()
}

// Response is a classic group protocol response.
type Response interface {
	// Code is the response's top-level error code.
	Code() ErrorCode
	isResponse()
}

// Reply is a response addressed to the connection of the request it answers.
type Reply struct {
	To       Conn
	Response Response
}

// JoinGroupRequest (API key 11; docs/protocol.md §1.1, §1.4). Version decides the two-step join:
// from v4 a dynamic member without id gets MEMBER_ID_REQUIRED first (KIP-394). Reason is
// KIP-423's JoinReason (docs/protocol.md §4), consulted only by the coordinator variant KIP.
type JoinGroupRequest struct {
	Conn       Conn
	Version    int16
	MemberID   MemberID
	InstanceID InstanceID
	Protocols  []GroupProtocol
	Reason     JoinReason
}

// JoinGroupMember is one member's entry in the leader's JoinGroup response.
type JoinGroupMember struct {
	MemberID   MemberID
	InstanceID InstanceID
	Metadata   Subscription
}

// JoinGroupResponse (docs/protocol.md §1.1). Members is non-empty only in the leader's response.
// SkipAssignment (KIP-814) tells a restarted static leader not to reassign.
type JoinGroupResponse struct {
	Error          ErrorCode
	Generation     Generation
	ProtocolName   string
	Leader         MemberID
	MemberID       MemberID
	Members        []JoinGroupMember
	SkipAssignment bool
}

// MemberAssignment is one entry of the leader's SyncGroup assignments.
type MemberAssignment struct {
	MemberID   MemberID
	Assignment Assignment
}

// SyncGroupRequest (API key 14; docs/protocol.md §1.5). Only the leader sends Assignments.
type SyncGroupRequest struct {
	Conn         Conn
	MemberID     MemberID
	InstanceID   InstanceID
	Generation   Generation
	ProtocolName string
	Assignments  []MemberAssignment
}

// SyncGroupResponse carries the member's assignment for the generation.
type SyncGroupResponse struct {
	Error        ErrorCode
	ProtocolName string
	Assignment   Assignment
}

// HeartbeatRequest (API key 12; docs/protocol.md §1.6).
type HeartbeatRequest struct {
	Conn       Conn
	MemberID   MemberID
	InstanceID InstanceID
	Generation Generation
}

// HeartbeatResponse carries only an error code: REBALANCE_IN_PROGRESS is how a member learns of
// a rebalance.
type HeartbeatResponse struct {
	Error ErrorCode
}

// LeaveMember names one member in a LeaveGroup. An empty MemberID with an InstanceID is the
// admin path that removes whichever member holds the instance (docs/protocol.md §1.7).
type LeaveMember struct {
	MemberID   MemberID
	InstanceID InstanceID
}

// LeaveGroupRequest (API key 13, v3+ batch form; docs/protocol.md §1.7).
type LeaveGroupRequest struct {
	Conn    Conn
	Members []LeaveMember
}

// LeaveMemberResponse is the per-member outcome of a LeaveGroup.
type LeaveMemberResponse struct {
	MemberID   MemberID
	InstanceID InstanceID
	Error      ErrorCode
}

// LeaveGroupResponse (docs/protocol.md §1.7).
type LeaveGroupResponse struct {
	Error   ErrorCode
	Members []LeaveMemberResponse
}

// OffsetCommitRequest (API key 8; docs/protocol.md §1.8). There are no offsets in the reference: a
// commit is the set of partitions and the generation it was sent with, which is all the
// coordinator validates.
type OffsetCommitRequest struct {
	Conn       Conn
	MemberID   MemberID
	InstanceID InstanceID
	Generation Generation
	Partitions PartitionSet
}

// OffsetCommitResponse carries the group-level validation result for every partition.
type OffsetCommitResponse struct {
	Error ErrorCode
}

func (r JoinGroupRequest) From() Conn    { return r.Conn }
func (r SyncGroupRequest) From() Conn    { return r.Conn }
func (r HeartbeatRequest) From() Conn    { return r.Conn }
func (r LeaveGroupRequest) From() Conn   { return r.Conn }
func (r OffsetCommitRequest) From() Conn { return r.Conn }

func (JoinGroupRequest) isRequest()    {}
func (SyncGroupRequest) isRequest()    {}
func (HeartbeatRequest) isRequest()    {}
func (LeaveGroupRequest) isRequest()   {}
func (OffsetCommitRequest) isRequest() {}

func (r JoinGroupResponse) Code() ErrorCode    { return r.Error }
func (r SyncGroupResponse) Code() ErrorCode    { return r.Error }
func (r HeartbeatResponse) Code() ErrorCode    { return r.Error }
func (r LeaveGroupResponse) Code() ErrorCode   { return r.Error }
func (r OffsetCommitResponse) Code() ErrorCode { return r.Error }

func (JoinGroupResponse) isResponse()    {}
func (SyncGroupResponse) isResponse()    {}
func (HeartbeatResponse) isResponse()    {}
func (LeaveGroupResponse) isResponse()   {}
func (OffsetCommitResponse) isResponse() {}
