package impl

// MemberID is the coordinator-issued identity of one member incarnation (docs/protocol.md glossary).
// The empty MemberID means "no identity yet": a first JoinGroup, or a member that was reset.
// The reference never invents ids: the caller supplies fresh ones (see coordinator.JoinGroup),
// so that a model can keep identities finite.
type MemberID string

// NoMemberID is the empty member id of a member that has none.
const NoMemberID MemberID = ""

// InstanceID is a static member's group.instance.id (KIP-345). Empty for dynamic members.
type InstanceID string

// Generation is the classic group's generation id, bumped once per completed join phase
// (docs/protocol.md §1.3). NoGeneration (-1) is a client without a generation.
type Generation int32

// NoGeneration is the generation of a member that has not joined or was reset.
const NoGeneration Generation = -1

// Conn names the client connection a request came from, so that responses (including those to
// parked requests, answered later) go back to it. It is opaque to the reference.
type Conn int32

// RebalanceProtocol is the consumer's rebalance protocol: Eager (revoke everything before
// joining) or Cooperative (KIP-429: keep owned partitions across the rebalance).
type RebalanceProtocol int8

const (
	Eager RebalanceProtocol = iota
	Cooperative
)

func (p RebalanceProtocol) String() string {
	if p == Cooperative {
		return "cooperative"
	}
	return "eager"
}

// Variant selects between the KIP designs as written and what Apache Kafka ships, role by role
// (docs/protocol.md §6.2).
type Variant int8

const (
	// Kafka is the behaviour of Apache Kafka as shipped (docs/protocol.md).
	Kafka Variant = iota
	// KIP is the behaviour the KIP texts describe (KIP-429 for the consumer and leader,
	// KIP-423 for the coordinator, the KIP-848 draft for KIP-848).
	KIP
)

func (v Variant) String() string {
	if v == KIP {
		return "kip"
	}
	return "kafka"
}
