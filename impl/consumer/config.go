package consumer

import (
	"fmt"
	"strconv"

	"github.com/groupcheck/groupcheck/impl"
)

// Config is one consumer incarnation's fixed configuration. The caller builds it once per
// incarnation (a restart is a new Consumer with a new Conn) and never changes it.
type Config struct {
	// Variant selects KIP-429's join triggers (KIP-429 §1 a–f, §3) or Apache Kafka's
	// (docs/protocol.md §1.11, §2.3, §2.6).
	Variant impl.Variant
	// Assignors are partition.assignment.strategy names in preference order. Unless
	// RebalanceProtocol overrides it, the rebalance protocol is the highest one every
	// assignor supports (docs/protocol.md §2.1).
	Assignors []string
	// RebalanceProtocol, when non-nil, is KIP-429's `rebalance.protocol` config (KIP-429,
	// docs/protocol.md §7.4: a member's protocol is a config of its own, set to eager for the
	// first upgrade bounce and to cooperative for the second, independent of its assignors).
	// Only the variant KIP has it: Kafka never shipped the config (docs/protocol.md §2.1), so New
	// panics when it is set under Kafka. It must be impl.Eager or impl.Cooperative.
	RebalanceProtocol *impl.RebalanceProtocol
	// SubscriptionVersion is the ConsumerProtocolSubscription version this client writes
	// (0, 1 or 2; docs/protocol.md §2.2). A v0 client never sends owned partitions.
	SubscriptionVersion int8
	// JoinGroupVersion is the JoinGroup version sent; ≥ 4 means the two-step join (KIP-394).
	JoinGroupVersion int16
	// InstanceID makes the member static (KIP-345) when non-empty.
	InstanceID impl.InstanceID
	// Conn is the connection this incarnation's requests carry.
	Conn impl.Conn
	// Faults switches on deliberate defects (docs/bugs.md B7, B8a, B8b, B23).
	Faults impl.Faults
	// Commits is the client whose commit handling the application's commits follow (the zero
	// value is Java's: only while STABLE).
	Commits CommitPolicy
	// OnFatal is what the application does when poll throws a fatal error (the zero value
	// stops the consumer).
	OnFatal FatalReaction
}

// Static reports whether the member has a group.instance.id (KIP-345).
func (c Config) Static() bool { return c.InstanceID != "" }

// Protocol is the member's rebalance protocol, the one place that decides between eager and
// cooperative behaviour: the RebalanceProtocol override in the variant KIP, otherwise the
// protocol of the configured assignors. Under Kafka the override is ignored (New refuses it).
func (c Config) Protocol() impl.RebalanceProtocol {
	if c.Variant == impl.KIP && c.RebalanceProtocol != nil {
		return *c.RebalanceProtocol
	}
	return Protocol(c.Assignors)
}

// validate panics on a configuration that breaks Config's contract.
func (c Config) validate() {
	if c.RebalanceProtocol == nil {
		return
	}
	if c.Variant != impl.KIP {
		panic("consumer.New: RebalanceProtocol is KIP-429's rebalance.protocol config; the variant " +
			c.Variant.String() + " has no such config")
	}
	if p := *c.RebalanceProtocol; p != impl.Eager && p != impl.Cooperative {
		panic("consumer.New: invalid RebalanceProtocol " + strconv.Itoa(int(p)))
	}
}

// Protocol is the highest rebalance protocol supported by every assignor: cooperative only
// when all of them are cooperative-sticky, eager otherwise (range, roundrobin, sticky and
// unknown names support eager only). No assignors at all is eager.
// Reference: docs/protocol.md §2.1 (ConsumerPartitionAssignor.supportedProtocols, EAGER < COOPERATIVE).
func Protocol(assignors []string) impl.RebalanceProtocol {
	if len(assignors) == 0 {
		return impl.Eager
	}
	for _, a := range assignors {
		if !SupportsCooperative(a) {
			return impl.Eager
		}
	}
	return impl.Cooperative
}

// SupportsCooperative reports whether a built-in assignor supports the cooperative protocol.
// Reference: docs/protocol.md §2.1, §2.5 (CooperativeStickyAssignor supports eager and cooperative).
func SupportsCooperative(assignor string) bool { return assignor == CooperativeSticky }

// Built-in assignor names (partition.assignment.strategy).
const (
	Range             = "range"
	RoundRobin        = "roundrobin"
	Sticky            = "sticky"
	CooperativeSticky = "cooperative-sticky"
)

// ClientState is AbstractCoordinator.MemberState (docs/protocol.md §1.11).
type ClientState int8

const (
	// Unjoined: not in the group (initial, or after a reset or leave).
	Unjoined ClientState = iota
	// PreparingRebalance: a JoinGroup is in flight or about to be re-sent.
	PreparingRebalance
	// CompletingRebalance: JoinGroup answered; waiting for the assignment and SyncGroup.
	CompletingRebalance
	// Stable: SyncGroup answered; the member holds the generation's assignment.
	Stable
)

var stateNames = [...]string{"UNJOINED", "PREPARING_REBALANCE", "COMPLETING_REBALANCE", "STABLE"}

func (s ClientState) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "INVALID_STATE"
}

// GroupGeneration is the client's Generation triple (generationId, memberId, protocolName).
// Reference: docs/protocol.md §1.11.
type GroupGeneration struct {
	ID           impl.Generation
	MemberID     impl.MemberID
	ProtocolName string
}

// NoGeneration is Java's Generation.NO_GENERATION: (-1, "", none).
var NoGeneration = GroupGeneration{ID: impl.NoGeneration}

// Reset reports whether the generation was reset by an error: ID -1 or no member id. Such a
// member's partitions are lost, not revoked (docs/protocol.md §2.3 step 2).
func (g GroupGeneration) Reset() bool {
	return g.ID == impl.NoGeneration || g.MemberID == impl.NoMemberID
}

// RequestKind names the request kinds a consumer has at most one of in flight.
type RequestKind int8

const (
	KindJoin RequestKind = iota
	KindSync
	KindHeartbeat
	KindCommit
	KindLeave
	numKinds
)

var kindNames = [numKinds]string{"JoinGroup", "SyncGroup", "Heartbeat", "OffsetCommit", "LeaveGroup"}

func (k RequestKind) String() string {
	if k >= 0 && k < numKinds {
		return kindNames[k]
	}
	return "InvalidKind"
}

// KindOf is the request kind a classic response answers: what a lost response makes the
// client time out (RequestTimedOut). It panics on a response no classic request gets.
func KindOf(r impl.Response) RequestKind {
	switch r.(type) {
	case impl.JoinGroupResponse:
		return KindJoin
	case impl.SyncGroupResponse:
		return KindSync
	case impl.HeartbeatResponse:
		return KindHeartbeat
	case impl.OffsetCommitResponse:
		return KindCommit
	case impl.LeaveGroupResponse:
		return KindLeave
	}
	panic(fmt.Sprintf("consumer.KindOf: %T answers no classic request", r))
}

// AllKinds lists the request kinds in order.
func AllKinds() []RequestKind {
	return []RequestKind{KindJoin, KindSync, KindHeartbeat, KindCommit, KindLeave}
}

// Pending is the in-flight marker of one request kind. Sent is the generation the request was
// sent with (Java's sentGeneration, KAFKA-9823), against which its response is judged.
// Partitions is the committed set of an in-flight OffsetCommit (empty otherwise).
type Pending struct {
	Active     bool
	Sent       GroupGeneration
	Partitions impl.PartitionSet
}
