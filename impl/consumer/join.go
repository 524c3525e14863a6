package consumer

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// OnJoinGroupResponse handles the JoinGroup response (docs/protocol.md §1.11 reaction table, JoinGroup
// rows). A response that finds the member no longer PREPARING_REBALANCE (its generation was
// reset meanwhile by another response or a poll timeout) is discarded; the member rejoins at
// its next poll, as Java's UnjoinedGroupException does. While a JoinGroup is in flight only
// such a reset changes the generation, so no sentGeneration check is needed here.
//   - NONE: adopt the generation; the leader asks for the assignment (RunAssignment), a
//     follower (or a KIP-814 leader told SkipAssignment) sends SyncGroup at once.
//   - MEMBER_ID_REQUIRED: adopt the member id and re-send at once (KIP-394); the variant KIP
//     first revokes everything (KIP-429 §1.d).
//   - UNKNOWN_MEMBER_ID: reset generation and member id; ILLEGAL_GENERATION: reset the
//     generation only (KIP-429 §1.e); both lose the partitions at the next onJoinPrepare.
//   - FENCED_INSTANCE_ID, INCONSISTENT_GROUP_PROTOCOL, INVALID_SESSION_TIMEOUT,
//     GROUP_MAX_SIZE_REACHED, INVALID_GROUP_ID, INVALID_REQUEST: fatal.
//   - REBALANCE_IN_PROGRESS, coordinator errors, anything else: retry at the next poll
//     (KAFKA-10870; no reset since KAFKA-13214).
func (c Consumer) OnJoinGroupResponse(r impl.JoinGroupResponse) (Consumer, []Effect) {
	if _, ok := c.take(KindJoin); !ok || !c.Active() || c.Status != PreparingRebalance {
		return c, nil
	}
	switch r.Error {
	case impl.None:
		return c.joined(r)
	case impl.MemberIDRequired:
		c.Gen = GroupGeneration{ID: impl.NoGeneration, MemberID: r.MemberID}
		var effs []Effect
		if c.Config.Variant == impl.KIP {
			effs = c.applyPlan(effs, PlanJoinTrigger(TriggerMemberIDRequired, c.OwnedPartitions, c.Metadata))
		}
		return c, c.sendJoin(effs)
	case impl.UnknownMemberID, impl.IllegalGeneration:
		c.resetGeneration(r.Error == impl.UnknownMemberID)
		return c, nil
	}
	if fatalOnJoin(r.Error) {
		return c, c.roundFatal(r.Error)
	}
	return c, nil
}

// fatalOnJoin lists the JoinGroup/SyncGroup errors Java throws to the application.
func fatalOnJoin(e impl.ErrorCode) bool {
	switch e {
	case impl.FencedInstanceID, impl.InconsistentGroupProtocol, impl.InvalidSessionTimeout,
		impl.GroupMaxSizeReached, impl.InvalidGroupID, impl.InvalidRequest:
		return true
	}
	return false
}

// joined adopts a successful JoinGroup response. A leader snapshots the metadata it assigns
// with; a KIP-814 leader told SkipAssignment snapshots its current metadata too, as Java does
// (ConsumerCoordinator.onLeaderElected: assignmentSnapshot = metadataSnapshot before returning
// no assignment, apache/kafka 1eb7644), so a partition added before a static leader's restart
// and unseen by the old process is never assigned (README findings;
// traces/scenarios/static-leader-restart-missed-partition.trace). Reference: docs/protocol.md §1.11, §2.4.
func (c Consumer) joined(r impl.JoinGroupResponse) (Consumer, []Effect) {
	if r.Generation < 0 || r.MemberID == impl.NoMemberID {
		panic("consumer.OnJoinGroupResponse: NONE without a generation or member id")
	}
	c.Gen = GroupGeneration{ID: r.Generation, MemberID: r.MemberID, ProtocolName: r.ProtocolName}
	c.Status = CompletingRebalance
	c.HasJoined = true
	if r.Leader != r.MemberID {
		c.Leader = false
		return c, c.sendSync(nil, nil)
	}
	c.Leader = true
	c.GroupTopics = groupTopics(r.Members)
	c.AssignmentSnapshot = snapshotOf(c.Metadata, c.GroupTopics)
	if r.SkipAssignment {
		return c, c.sendSync(nil, nil)
	}
	c.AwaitingAssignment = true
	return c, []Effect{RunAssignment{
		Generation:   r.Generation,
		ProtocolName: r.ProtocolName,
		Members:      slices.Clone(r.Members),
		Cluster:      c.Metadata,
	}}
}

// AssignmentComputed sends the leader's SyncGroup with the assignments the caller computed.
// Ignored unless the leader is still waiting for them (a reset since discards the round).
// Reference: docs/protocol.md §1.11 (onJoinLeader), §2.4.
func (c Consumer) AssignmentComputed(assignments []impl.MemberAssignment) (Consumer, []Effect) {
	if !c.Active() || !c.AwaitingAssignment {
		return c, nil
	}
	c.AwaitingAssignment = false
	return c, c.sendSync(nil, slices.Clone(assignments))
}

// AssignmentFailed is the leader's assignor throwing (e.g. cooperative validation,
// KAFKA-13406). Java's onJoinLeader turns the exception into a failed join future that
// joinGroupIfNeeded rethrows from poll: no SyncGroup is sent, rejoinNeeded stays set, and
// the next poll sends a new JoinGroup (without onJoinPrepare: the rebalance is still the
// same one). Owned partitions are untouched. Reference: docs/protocol.md §2.4 step 4; docs/bugs.md B9.
func (c Consumer) AssignmentFailed() (Consumer, []Effect) {
	if !c.Active() || !c.AwaitingAssignment {
		return c, nil
	}
	c.AwaitingAssignment = false
	c.roundFailed()
	return c, nil
}

// groupTopics is the sorted union of the members' subscribed topics.
func groupTopics(members []impl.JoinGroupMember) []string {
	var t []string
	for _, m := range members {
		t = append(t, m.Metadata.Topics...)
	}
	return normTopics(t)
}

// snapshotOf restricts a cluster view to the topics that matter (Java's metadata snapshot).
func snapshotOf(cl impl.Cluster, topics []string) impl.Cluster {
	var out []impl.TopicMetadata
	for _, t := range topics {
		if n := cl.PartitionCount(t); n > 0 {
			out = append(out, impl.TopicMetadata{Name: t, Partitions: n})
		}
	}
	return impl.Cluster{Topics: out}
}

// leaderMetadataStale reports whether the leader's assignment snapshot no longer matches its
// metadata, which makes it rejoin (ConsumerCoordinator.rejoinNeededOrPending).
// Reference: docs/protocol.md §2.4 step 5; KIP-429 §1.b.
func (c Consumer) leaderMetadataStale() bool {
	return c.Leader && !snapshotOf(c.Metadata, c.GroupTopics).Equal(c.AssignmentSnapshot)
}

// resetGeneration is Java's resetStateAndRejoin: generation -1 (member id too when asked),
// UNJOINED, rejoin needed, and onJoinPrepare re-armed so the next JoinGroup is preceded by
// onPartitionsLost (KAFKA-12983). FaultSkipJoinPrepareAfterReset leaves NeedsJoinPrepare as
// it was (docs/bugs.md B7).
func (c *Consumer) resetGeneration(resetMemberID bool) {
	member := c.Gen.MemberID
	if resetMemberID {
		member = impl.NoMemberID
	}
	c.Gen = GroupGeneration{ID: impl.NoGeneration, MemberID: member}
	c.Status = Unjoined
	c.RejoinNeeded = true
	c.AwaitingAssignment = false
	if !c.Config.Faults.Has(impl.FaultSkipJoinPrepareAfterReset) {
		c.NeedsJoinPrepare = true
	}
}

// roundFailed ends a join round that failed without a reset: the member is still
// rebalancing and re-sends JoinGroup at its next poll.
func (c *Consumer) roundFailed() {
	if c.Status == CompletingRebalance {
		c.Status = PreparingRebalance
	}
	c.RejoinNeeded = true
}
