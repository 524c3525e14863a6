package consumer

import "github.com/groupcheck/groupcheck/impl"

// Subscription is the ConsumerProtocolSubscription this member sends for one assignor:
// topics, the owned partitions it claims and their generation label, and the assignor's
// user data. The version drops what it cannot carry (v0: no owned list; v0/v1: no
// generation). Reference: docs/protocol.md §2.2; KIP-792.
func (c Consumer) Subscription(assignor string) impl.Subscription {
	s := impl.NewSubscription(c.Config.SubscriptionVersion, c.Topics, c.OwnedPartitions, c.claimGeneration())
	s.UserData = c.userDataFor(assignor)
	return s
}

// claimGeneration is the generation label of the owned claim (the v2 field). Like Java it is
// the member's current generation id, which after REBALANCE_IN_PROGRESS on SyncGroup is the
// generation of a round whose assignment it never saw: a newer label on older content
// (docs/protocol.md §2.8, docs/bugs.md B8). The leader's KAFKA-14639 arbitration is what makes that safe.
func (c Consumer) claimGeneration() impl.Generation {
	if c.Gen.Reset() {
		return impl.NoGeneration
	}
	return c.Gen.ID
}

// userDataFor is the assignor's subscription user data: StickyAssignor sends its last
// assignment and generation (KIP-341), CooperativeStickyAssignor its generation only
// (docs/protocol.md §2.2), the others nothing.
func (c Consumer) userDataFor(assignor string) impl.UserData {
	switch assignor {
	case Sticky:
		return c.UserData
	case CooperativeSticky:
		return impl.UserData{Generation: c.claimGenerationUserData()}
	}
	return impl.UserData{Generation: impl.NoGeneration}
}

// claimGenerationUserData is cooperative-sticky's user-data generation: set only when an
// assignment is applied, so it is the owned content's generation; the B8a fault relabels it
// with the JoinGroup generation too, so that a leader reading v1 subscriptions (no v2 field)
// also sees the stale label (KAFKA-13419 before KIP-792).
func (c Consumer) claimGenerationUserData() impl.Generation {
	if c.Config.Faults.Has(impl.FaultStaleClaimAfterSyncRebalance) && !c.Gen.Reset() {
		return c.Gen.ID
	}
	return c.UserData.Generation
}

// joinReason is the KIP-423 JoinReason the variant KIP sends: RESTART for the first join of
// an incarnation, TOPIC_METADATA_CHANGE for a leader's metadata rejoin, UPGRADE for an
// assignor's follow-up (KIP-423's one reason that always rebalances; its motivation names
// this case: Streams members that finished restoring must be able to ask for a rebalance,
// docs/protocol.md §4.1). Kafka sends none (KIP-800's free text, e.g. Streams' "triggered followup
// rebalance scheduled for …", is informational only, docs/protocol.md §4).
func (c Consumer) joinReason() impl.JoinReason {
	if c.Config.Variant != impl.KIP {
		return impl.ReasonUnspecified
	}
	if !c.HasJoined {
		return impl.ReasonRestart
	}
	if c.Trigger == TriggerMetadataChange {
		return impl.ReasonTopicMetadataChange
	}
	if c.Trigger == TriggerFollowup {
		return impl.ReasonUpgrade
	}
	return impl.ReasonUnspecified
}

func (c Consumer) joinGroupRequest(reason impl.JoinReason) impl.JoinGroupRequest {
	protocols := make([]impl.GroupProtocol, len(c.Config.Assignors))
	for i, a := range c.Config.Assignors {
		protocols[i] = impl.GroupProtocol{Name: a, Metadata: c.Subscription(a)}
	}
	return impl.JoinGroupRequest{
		Conn:       c.Config.Conn,
		Version:    c.Config.JoinGroupVersion,
		MemberID:   c.Gen.MemberID,
		InstanceID: c.Config.InstanceID,
		Protocols:  protocols,
		Reason:     reason,
	}
}

func (c Consumer) syncGroupRequest(assignments []impl.MemberAssignment) impl.SyncGroupRequest {
	return impl.SyncGroupRequest{
		Conn:         c.Config.Conn,
		MemberID:     c.Gen.MemberID,
		InstanceID:   c.Config.InstanceID,
		Generation:   c.Gen.ID,
		ProtocolName: c.Gen.ProtocolName,
		Assignments:  assignments,
	}
}

func (c Consumer) heartbeatRequest() impl.HeartbeatRequest {
	return impl.HeartbeatRequest{
		Conn: c.Config.Conn, MemberID: c.Gen.MemberID, InstanceID: c.Config.InstanceID, Generation: c.Gen.ID,
	}
}

func (c Consumer) commitRequest() impl.OffsetCommitRequest {
	return impl.OffsetCommitRequest{
		Conn: c.Config.Conn, MemberID: c.Gen.MemberID, InstanceID: c.Config.InstanceID,
		Generation: c.Gen.ID, Partitions: c.OwnedPartitions,
	}
}

func (c Consumer) leaveGroupRequest() impl.LeaveGroupRequest {
	return impl.LeaveGroupRequest{
		Conn:    c.Config.Conn,
		Members: []impl.LeaveMember{{MemberID: c.Gen.MemberID, InstanceID: c.Config.InstanceID}},
	}
}

// sendJoin sends a JoinGroup and enters PREPARING_REBALANCE (Java initiateJoinGroup).
func (c *Consumer) sendJoin(effs []Effect) []Effect {
	req := c.joinGroupRequest(c.joinReason())
	c.Trigger = TriggerNone
	c.JoinedTopics = c.Topics
	c.Status = PreparingRebalance
	c.mark(KindJoin, impl.PartitionSet{})
	return append(effs, Send{Request: req})
}

// sendSync sends a SyncGroup for the current generation.
func (c *Consumer) sendSync(effs []Effect, assignments []impl.MemberAssignment) []Effect {
	req := c.syncGroupRequest(assignments)
	c.mark(KindSync, impl.PartitionSet{})
	return append(effs, Send{Request: req})
}
