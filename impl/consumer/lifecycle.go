package consumer

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// Subscribe starts the consumer on topics; it joins at its next poll (joining is poll-driven).
// On a consumer that is already subscribed it is SubscriptionChanged.
// Reference: docs/protocol.md §1.11.
func (c Consumer) Subscribe(topics []string) (Consumer, []Effect) {
	return c.SubscriptionChanged(topics)
}

// SubscriptionChanged replaces the subscription and requests a rejoin. Kafka revokes only the
// partitions of dropped topics, in the next onJoinPrepare (docs/protocol.md §2.3 step 3); the variant
// KIP revokes everything before the next JoinGroup (KIP-429 §1.a). The first subscription
// owns nothing and triggers nothing. An identical subscription is no change.
func (c Consumer) SubscriptionChanged(topics []string) (Consumer, []Effect) {
	t := normTopics(topics)
	if !c.Active() || slices.Equal(t, c.Topics) {
		return c, nil
	}
	if c.Subscribed() {
		c.addTrigger(TriggerSubscriptionChange)
	}
	c.Topics = t
	c.RejoinNeeded = true
	return c, nil
}

// MetadataChanged replaces the consumer's cluster view. A leader whose assignment snapshot
// no longer matches rejoins (docs/protocol.md §2.4 step 5; KIP-429 §1.b, as JoinReason
// TOPIC_METADATA_CHANGE in the variant KIP). The variant KIP also calls onPartitionsLost at
// once for owned partitions that no longer exist and keeps the rest (KIP-429 §1.b); Kafka
// keeps them until the leader's next assignment revokes them (docs/protocol.md §2.1).
func (c Consumer) MetadataChanged(cl impl.Cluster) (Consumer, []Effect) {
	c.Metadata = cl
	if !c.Active() {
		return c, nil
	}
	var effs []Effect
	if c.Config.Variant == impl.KIP {
		effs = c.applyPlan(effs, PlanJoinTrigger(TriggerMetadataChange, c.OwnedPartitions, cl))
	}
	if c.leaderMetadataStale() {
		c.RejoinNeeded = true
		c.addTrigger(TriggerMetadataChange)
	}
	return c, effs
}

// Close is a graceful close (KafkaConsumer.close → ConsumerCoordinator.close):
//  1. a last commit of the owned partitions while STABLE;
//  2. onLeavePrepare: onPartitionsLost if the generation was reset, a rebalance is under way
//     or the consumer failed, else onPartitionsRevoked; the assignment is cleared;
//  3. a dynamic member in the group sends LeaveGroup; a static member never does (docs/protocol.md
//     §1.7: its removal is left to the session timeout);
//  4. the generation is reset and the incarnation is over.
//
// Reference: docs/protocol.md §1.7, §1.11.
func (c Consumer) Close() (Consumer, []Effect) {
	if c.Closed {
		return c, nil
	}
	var effs []Effect
	if c.Active() {
		effs = c.autoCommit(effs)
	}
	kind := Revoked
	if !c.Active() || c.Gen.Reset() || c.Status == PreparingRebalance || c.Status == CompletingRebalance {
		kind = Lost
	}
	effs = callback(effs, kind, c.OwnedPartitions)
	c.OwnedPartitions = impl.PartitionSet{}
	if c.Active() {
		effs = c.maybeLeaveGroup(effs)
	}
	c.Gen = NoGeneration
	c.Status = Unjoined
	c.Closed = true
	c.RejoinNeeded = false
	c.AwaitingAssignment = false
	c.Leader = false
	return c, effs
}

// PollTimeout is max.poll.interval.ms expiring: a dynamic member sends LeaveGroup; both
// dynamic and static members reset member id and generation (resetGenerationOnLeaveGroup),
// and rejoin at the next poll, where onJoinPrepare calls onPartitionsLost.
// Reference: docs/protocol.md §1.9 (client side), §1.7.
func (c Consumer) PollTimeout() (Consumer, []Effect) {
	if !c.Active() || (c.Status == Unjoined && c.Gen == NoGeneration) {
		return c, nil
	}
	effs := c.maybeLeaveGroup(nil)
	c.resetGeneration(true)
	return c, effs
}

// maybeLeaveGroup sends LeaveGroup for a dynamic member that is in the group (Java
// maybeLeaveGroup: dynamic, not UNJOINED, has a member id).
func (c *Consumer) maybeLeaveGroup(effs []Effect) []Effect {
	if c.Config.Static() || c.Status == Unjoined || c.Gen.MemberID == impl.NoMemberID || c.Requests[KindLeave].Active {
		return effs
	}
	req := c.leaveGroupRequest()
	c.mark(KindLeave, impl.PartitionSet{})
	return append(effs, Send{Request: req})
}

// OnLeaveGroupResponse clears the LeaveGroup marker; the member has already reset.
func (c Consumer) OnLeaveGroupResponse(impl.LeaveGroupResponse) (Consumer, []Effect) {
	c.take(KindLeave)
	return c, nil
}

// RequestTimedOut is a lost response: a retriable failure that marks the coordinator unknown
// without resetting the member (KAFKA-13214). A lost JoinGroup is re-sent at the next poll; a
// lost SyncGroup fails the round (the next poll sends a new JoinGroup); a lost commit reports
// an unknown outcome. Reference: docs/protocol.md §1.11.
func (c Consumer) RequestTimedOut(k RequestKind) (Consumer, []Effect) {
	p, ok := c.take(k)
	if !ok {
		return c, nil
	}
	switch k {
	case KindSync:
		if c.Active() {
			c.roundFailed()
		}
	case KindCommit:
		return c, []Effect{CommitResult{TimedOut: true, Partitions: p.Partitions, Generation: p.Sent.ID}}
	}
	return c, nil
}
