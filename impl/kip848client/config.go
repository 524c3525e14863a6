package kip848client

import "github.com/groupcheck/groupcheck/impl"

// Config is one client incarnation's fixed configuration (a restart is a new Member).
type Config struct {
	// Variant is accepted for symmetry with the coordinator. The client is shared: docs/protocol.md §8
	// describes only server-side reconciliation, and a client reconciles whatever assignment
	// arrives the same way under both variants (see doc.go).
	Variant impl.Variant
	// InstanceID makes the member static (group.instance.id): it leaves with epoch -2.
	InstanceID impl.InstanceID
	// Conn is the connection this incarnation's requests carry.
	Conn impl.Conn
	// Faults switches on deliberate defects (docs/bugs.md B21).
	Faults impl.Faults
	// MemberID, when set, is the id the client generated for itself at start (KIP-1082, the
	// Kafka 4.0 consumer: a UUID sent with the first heartbeat and kept for the client's
	// life). Empty is the earlier protocol: the coordinator assigns the id in its first
	// answer, so a client whose first answer is lost joins again as a new member, and one
	// that closes before the answer cannot leave (docs/protocol.md §3.1, §3.7).
	MemberID impl.MemberID
}

// Static reports whether the member has a group.instance.id.
func (c Config) Static() bool { return c.InstanceID != "" }

// leaveEpoch is the epoch the leave heartbeat carries. Reference: docs/protocol.md §3.1, §3.7.
func (c Config) leaveEpoch() impl.Epoch {
	if c.Static() {
		return impl.EpochTemporaryLeave
	}
	return impl.EpochLeave
}

// RequestKind names the two request kinds a member has at most one of in flight.
type RequestKind int8

const (
	// KindHeartbeat is ConsumerGroupHeartbeat.
	KindHeartbeat RequestKind = iota
	// KindCommit is OffsetCommit.
	KindCommit
)

func (k RequestKind) String() string {
	switch k {
	case KindHeartbeat:
		return "ConsumerGroupHeartbeat"
	case KindCommit:
		return "OffsetCommit"
	}
	return "InvalidKind"
}
