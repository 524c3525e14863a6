package impl

// Epoch is a KIP-848 epoch: the group epoch, the target assignment epoch, a member epoch or a
// partition epoch (docs/protocol.md §3.2). Like generations, epochs are only compared, never read for
// their absolute value, which lets a model encode them relative to the group epoch.
type Epoch int32

// The member epochs with a meaning of their own in ConsumerGroupHeartbeat (docs/protocol.md §3.1).
const (
	// EpochJoin (0): the member joins (or rejoins after being fenced).
	EpochJoin Epoch = 0
	// EpochLeave (-1): the member leaves the group for good.
	EpochLeave Epoch = -1
	// EpochTemporaryLeave (-2): a static member leaves and expects to come back (KIP-848
	// static membership); its partitions stay reserved until its session expires.
	EpochTemporaryLeave Epoch = -2
)

// ConsumerGroupHeartbeatRequest is KIP-848's one request (API key 68; docs/protocol.md §3.1). A nil
// field means "unchanged since the last request": SubscribedTopicNames, ServerAssignor (empty)
// and OwnedPartitions are only sent when joining or when they changed.
type ConsumerGroupHeartbeatRequest struct {
	Conn                 Conn
	MemberID             MemberID
	MemberEpoch          Epoch
	InstanceID           InstanceID
	SubscribedTopicNames []string // nil = unchanged; sorted
	ServerAssignor       string   // "" = unchanged
	// OwnedPartitions are the partitions the member owns now (TopicPartitions in the schema);
	// nil = unchanged. Always present (possibly empty) on a join.
	OwnedPartitions *PartitionSet
}

// ConsumerGroupHeartbeatResponse (docs/protocol.md §3.1). Assignment is the full set of partitions the
// member may own now — never those pending revocation — or nil when unchanged.
type ConsumerGroupHeartbeatResponse struct {
	Error       ErrorCode
	MemberID    MemberID
	MemberEpoch Epoch
	Assignment  *PartitionSet
}

func (r ConsumerGroupHeartbeatRequest) From() Conn       { return r.Conn }
func (ConsumerGroupHeartbeatRequest) isRequest()         {}
func (r ConsumerGroupHeartbeatResponse) Code() ErrorCode { return r.Error }
func (ConsumerGroupHeartbeatResponse) isResponse()       {}
