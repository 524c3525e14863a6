package impl

// JoinReason is KIP-423's reason for a JoinGroup (docs/protocol.md §4). It was never adopted (docs/protocol.md §4):
// the coordinator variant Kafka ignores it; the variant KIP consults it for members joining
// with an identity.
type JoinReason int8

const (
	// ReasonUnspecified is a JoinGroup without a reason (every shipped client).
	ReasonUnspecified JoinReason = iota
	// ReasonRestart: a restarted or newly started consumer. From a member with identity in a
	// Stable group it does not rebalance under KIP-423.
	ReasonRestart
	// ReasonTopicMetadataChange: the leader saw a topic metadata change; always rebalances.
	ReasonTopicMetadataChange
	// ReasonUpgrade: a client upgrade that needs a rebalance; always rebalances.
	ReasonUpgrade
)

var reasonNames = [...]string{"unspecified", "restart", "topic_metadata_change", "upgrade"}

// String is KIP-423's wire name for the reason ("restart", "topic_metadata_change", "upgrade").
func (r JoinReason) String() string {
	if int(r) < len(reasonNames) && r >= 0 {
		return reasonNames[r]
	}
	return "invalid"
}

// ParseJoinReason maps a wire name back to the reason.
func ParseJoinReason(s string) (JoinReason, bool) {
	for i, n := range reasonNames {
		if n == s {
			return JoinReason(i), true
		}
	}
	return 0, false
}
