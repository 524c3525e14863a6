package consumer

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// Consumer is one member's client side of the classic group protocol (Java
// AbstractCoordinator + ConsumerCoordinator). It is a pure value: every transition returns a
// new Consumer and the effects the caller must execute. Fields are exported so that a model
// can encode and compare states; slices in a state are never mutated after being stored.
type Consumer struct {
	Config Config

	// Status is the client state (docs/protocol.md §1.11).
	Status ClientState
	// Gen is the current generation; NoGeneration before joining and after resets.
	Gen GroupGeneration
	// OwnedPartitions is what the application believes it owns: the last assigned set minus
	// what was revoked or lost since.
	OwnedPartitions impl.PartitionSet
	// Topics is the subscription (sorted, distinct).
	Topics []string
	// JoinedTopics is the subscription the last JoinGroup carried (Java joinedSubscription):
	// a round that completes with a different subscription is followed by a rejoin.
	JoinedTopics []string
	// Metadata is this consumer's view of the cluster.
	Metadata impl.Cluster

	// RejoinNeeded: a JoinGroup must be sent at the next poll (Java rejoinNeeded).
	RejoinNeeded bool
	// NeedsJoinPrepare: onJoinPrepare has not run for the coming rebalance.
	NeedsJoinPrepare bool
	// Trigger is the strongest pending KIP-429 §1 join trigger (variant KIP only).
	Trigger JoinTrigger
	// HasJoined: a JoinGroup of this incarnation has succeeded once (KIP-423 RESTART reason).
	HasJoined bool

	// Leader: this member was elected leader in the current generation.
	Leader bool
	// AwaitingAssignment: leader waiting for AssignmentComputed / AssignmentFailed.
	AwaitingAssignment bool
	// GroupTopics is the leader's group subscription (union of members' topics).
	GroupTopics []string
	// AssignmentSnapshot is the leader's metadata of GroupTopics when it assigned.
	AssignmentSnapshot impl.Cluster
	// UserData is what the sticky assignors keep: the last assignment received and its
	// generation (KIP-341; StickyAssignor.onAssignment).
	UserData impl.UserData
	// OwnedGeneration is the generation OwnedPartitions were assigned in (NoGeneration when
	// nothing was ever assigned or after a reset). It is bookkeeping only: the claim label a
	// JoinGroup carries is the current generation Gen.ID (claimGeneration, docs/protocol.md §2.8).
	OwnedGeneration impl.Generation
	// FollowupDue: the last assignment applied asked for a follow-up rebalance
	// (impl.Assignment Followup; Kafka Streams' nextScheduledRebalanceMs, which every
	// onAssignment sets or clears); FollowupTick carries it out.
	FollowupDue bool

	// Requests holds the in-flight marker of each request kind.
	Requests [numKinds]Pending
	// FatalError is the error that stopped the consumer, None if none.
	FatalError impl.ErrorCode
	// Closed: Close was processed; the incarnation is over.
	Closed bool
}

// New is a fresh, unsubscribed consumer with the given cluster view. Like the Java client it
// starts with rejoinNeeded and needsJoinPrepare set; it joins once subscribed and polled.
//
// New panics if cfg breaks its contract (a RebalanceProtocol override outside the variant
// KIP, or an invalid one). The override is copied, so the caller's variable is not shared.
func New(cfg Config, metadata impl.Cluster) Consumer {
	cfg.validate()
	if cfg.RebalanceProtocol != nil {
		p := *cfg.RebalanceProtocol
		cfg.RebalanceProtocol = &p
	}
	return Consumer{
		Config:           cfg,
		Gen:              NoGeneration,
		Metadata:         metadata,
		RejoinNeeded:     true,
		NeedsJoinPrepare: true,
		UserData:         impl.UserData{Generation: impl.NoGeneration},
		OwnedGeneration:  impl.NoGeneration,
	}
}

// Owned is the set of partitions the application believes it owns.
func (c Consumer) Owned() impl.PartitionSet { return c.OwnedPartitions }

// Generation is the current generation id (-1 if none).
func (c Consumer) Generation() impl.Generation { return c.Gen.ID }

// MemberID is the current member id ("" if none).
func (c Consumer) MemberID() impl.MemberID { return c.Gen.MemberID }

// State is the client state.
func (c Consumer) State() ClientState { return c.Status }

// IsLeader reports whether this member leads the current generation.
func (c Consumer) IsLeader() bool { return c.Leader }

// InFlight reports whether a request of kind k awaits its response.
func (c Consumer) InFlight(k RequestKind) bool { return c.Requests[k].Active }

// Fatal is the fatal error that stopped the consumer, None if none.
func (c Consumer) Fatal() impl.ErrorCode { return c.FatalError }

// Subscribed reports whether the consumer has a subscription.
func (c Consumer) Subscribed() bool { return len(c.Topics) > 0 }

// Active reports whether the consumer still takes part in the protocol (not closed, no
// fatal error).
func (c Consumer) Active() bool { return !c.Closed && c.FatalError == impl.None }

// Rebalancing reports whether a rebalance round is under way: a JoinGroup or SyncGroup in
// flight, or the leader computing the assignment.
func (c Consumer) Rebalancing() bool {
	return c.Requests[KindJoin].Active || c.Requests[KindSync].Active || c.AwaitingAssignment
}

// WantsToJoin reports whether the next PollTick sends a JoinGroup: rejoin needed, subscribed,
// active and no rebalance round under way. Reference: docs/protocol.md §1.11 (joinGroupIfNeeded).
func (c Consumer) WantsToJoin() bool {
	return c.Active() && c.Subscribed() && c.RejoinNeeded && !c.Rebalancing()
}

// Input is one event delivered to a consumer; see Step.
type Input interface{ isInput() }

// Subscribe starts the consumer: it subscribes to Topics and joins at its next poll.
// Reference: docs/protocol.md §1.11. A later Subscribe acts as SubscriptionChanged.
type Subscribe struct{ Topics []string }

// SubscriptionChanged replaces the subscription. Reference: KIP-429 §1.a; docs/protocol.md §2.3.
type SubscriptionChanged struct{ Topics []string }

// MetadataChanged replaces the consumer's cluster view. Reference: KIP-429 §1.b; docs/protocol.md §2.4.
type MetadataChanged struct{ Cluster impl.Cluster }

// PollTick is the application's poll: the poll-driven rejoin. Reference: docs/protocol.md §1.11.
type PollTick struct{}

// HeartbeatTick is the heartbeat thread's timer. Reference: docs/protocol.md §1.6, §1.11.
type HeartbeatTick struct{}

// CommitTick is an application (or auto-commit) commit of the owned partitions.
// Reference: docs/protocol.md §1.11 (generationIfStable).
type CommitTick struct{}

// Close is a graceful close. Reference: docs/protocol.md §1.7, §1.11.
type Close struct{}

// FollowupTick is the application's check for a follow-up rebalance its assignor asked for.
// Reference: KIP-441, KIP-568.
type FollowupTick struct{}

// PollTimeout is max.poll.interval.ms expiring on the heartbeat thread. Reference: docs/protocol.md §1.9.
type PollTimeout struct{}

// RequestTimedOut says the in-flight request of Kind will never be answered (lost response).
// Reference: docs/protocol.md §1.11 (coordinator unknown, retriable; KAFKA-13214).
type RequestTimedOut struct{ Kind RequestKind }

// Received delivers a response (impl.JoinGroupResponse, SyncGroupResponse,
// HeartbeatResponse, OffsetCommitResponse or LeaveGroupResponse). The consumer has at most
// one request of each kind in flight, so the response's type says which request it answers.
type Received struct{ Response impl.Response }

// AssignmentComputed hands the leader the assignment the caller computed for RunAssignment.
// Reference: docs/protocol.md §2.4.
type AssignmentComputed struct{ Assignments []impl.MemberAssignment }

// AssignmentFailed says the leader's assignor threw. Reference: docs/protocol.md §2.4, KAFKA-13406.
type AssignmentFailed struct{}

func (Subscribe) isInput()           {}
func (SubscriptionChanged) isInput() {}
func (MetadataChanged) isInput()     {}
func (PollTick) isInput()            {}
func (HeartbeatTick) isInput()       {}
func (CommitTick) isInput()          {}
func (FollowupTick) isInput()        {}
func (Close) isInput()               {}
func (PollTimeout) isInput()         {}
func (RequestTimedOut) isInput()     {}
func (Received) isInput()            {}
func (AssignmentComputed) isInput()  {}
func (AssignmentFailed) isInput()    {}

// Step routes one input to its transition.
func (c Consumer) Step(in Input) (Consumer, []Effect) {
	switch in := in.(type) {
	case Subscribe:
		return c.Subscribe(in.Topics)
	case SubscriptionChanged:
		return c.SubscriptionChanged(in.Topics)
	case MetadataChanged:
		return c.MetadataChanged(in.Cluster)
	case PollTick:
		return c.PollTick()
	case HeartbeatTick:
		return c.HeartbeatTick()
	case CommitTick:
		return c.CommitTick()
	case FollowupTick:
		return c.FollowupTick()
	case Close:
		return c.Close()
	case PollTimeout:
		return c.PollTimeout()
	case RequestTimedOut:
		return c.RequestTimedOut(in.Kind)
	case Received:
		return c.Receive(in.Response)
	case AssignmentComputed:
		return c.AssignmentComputed(in.Assignments)
	case AssignmentFailed:
		return c.AssignmentFailed()
	}
	panic("consumer.Step: unknown input")
}

// Receive routes a response to its handler.
func (c Consumer) Receive(r impl.Response) (Consumer, []Effect) {
	switch r := r.(type) {
	case impl.JoinGroupResponse:
		return c.OnJoinGroupResponse(r)
	case impl.SyncGroupResponse:
		return c.OnSyncGroupResponse(r)
	case impl.HeartbeatResponse:
		return c.OnHeartbeatResponse(r)
	case impl.OffsetCommitResponse:
		return c.OnOffsetCommitResponse(r)
	case impl.LeaveGroupResponse:
		return c.OnLeaveGroupResponse(r)
	}
	panic("consumer.Receive: unknown response type")
}

// normTopics sorts and deduplicates a topic list into a fresh slice.
func normTopics(topics []string) []string {
	t := slices.Clone(topics)
	slices.Sort(t)
	return slices.Compact(t)
}

// take clears the in-flight marker of kind k and returns it, or ok=false when no request of
// that kind was in flight (a duplicate or late response, ignored).
func (c *Consumer) take(k RequestKind) (Pending, bool) {
	p := c.Requests[k]
	if !p.Active {
		return Pending{}, false
	}
	c.Requests[k] = Pending{}
	return p, true
}

// mark records a request of kind k as in flight with the current generation.
func (c *Consumer) mark(k RequestKind, partitions impl.PartitionSet) {
	if c.Requests[k].Active {
		panic("consumer: second " + k.String() + " in flight")
	}
	c.Requests[k] = Pending{Active: true, Sent: c.Gen, Partitions: partitions}
}
