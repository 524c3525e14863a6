package consumer

import "github.com/groupcheck/groupcheck/impl"

// HeartbeatTick sends a Heartbeat when the member is in the group (COMPLETING_REBALANCE or
// STABLE; allowed in CompletingRebalance since KAFKA-10134) and none is in flight.
// Reference: docs/protocol.md §1.6, §1.11 (the heartbeat thread pauses while UNJOINED or
// PREPARING_REBALANCE).
func (c Consumer) HeartbeatTick() (Consumer, []Effect) {
	if !c.Active() || c.Requests[KindHeartbeat].Active || (c.Status != Stable && c.Status != CompletingRebalance) {
		return c, nil
	}
	req := c.heartbeatRequest()
	c.mark(KindHeartbeat, impl.PartitionSet{})
	return c, []Effect{Send{Request: req}}
}

// OnHeartbeatResponse handles the Heartbeat response (docs/protocol.md §1.11, Heartbeat rows):
//   - REBALANCE_IN_PROGRESS: if STABLE, request a rejoin (variant KIP: revoke all first,
//     KIP-429 §1.c); otherwise a rebalance is already under way and it is ignored;
//   - ILLEGAL_GENERATION / UNKNOWN_MEMBER_ID: if sent with the current generation, reset
//     (member id kept only for ILLEGAL_GENERATION) and rejoin (KIP-429 §1.e); a stale answer is
//     ignored (KAFKA-9823);
//   - FENCED_INSTANCE_ID: if sent with the current generation, fatal: the handler resets and
//     raises, and the heartbeat thread stores the FencedInstanceIdException as its failure,
//     which the application's next poll throws (AbstractCoordinator.HeartbeatThread: "Caught
//     fenced group.instance.id … in heartbeat thread"; KIP-345: another process holds the
//     instance id); a stale answer is ignored;
//   - NONE and coordinator errors: nothing (the coordinator is rediscovered).
//
// FaultHeartbeatFencingAsRebalance handles a fencing answer like REBALANCE_IN_PROGRESS
// (IBM/sarama consumer_group.go heartbeatLoop).
func (c Consumer) OnHeartbeatResponse(r impl.HeartbeatResponse) (Consumer, []Effect) {
	sent, ok := c.take(KindHeartbeat)
	if !ok || !c.Active() {
		return c, nil
	}
	switch r.Error {
	case impl.RebalanceInProgress:
		if c.Status == Stable {
			c.RejoinNeeded = true
			c.addTrigger(TriggerRebalanceInProgress)
		}
	case impl.IllegalGeneration, impl.UnknownMemberID:
		switch {
		case c.Gen != sent.Sent:
		case c.Config.Faults.Has(impl.FaultHeartbeatFencingAsRebalance):
			if c.Status == Stable {
				c.RejoinNeeded = true
				c.addTrigger(TriggerRebalanceInProgress)
			}
		default:
			c.resetGeneration(r.Error != impl.IllegalGeneration)
		}
	case impl.FencedInstanceID:
		if c.Gen == sent.Sent {
			c.resetGeneration(true)
			return c, c.fatal(nil, r.Error)
		}
	}
	return c, nil
}

// CommitTick commits the owned partitions, as the configured client does (GateCommit): Java
// sends the generation only while STABLE (generationIfStable) and otherwise fails the commit
// locally, REBALANCE_IN_PROGRESS while rebalancing and ILLEGAL_GENERATION (CommitFailed) when
// not in the group; librdkafka sends in any join state, franz-go holds a commit back while a
// JoinGroup or SyncGroup is in flight. Nothing owned means nothing to commit. One commit at a
// time. Reference: docs/protocol.md §1.11 (generationIfStable), §1.8; CommitPolicy.
func (c Consumer) CommitTick() (Consumer, []Effect) {
	if !c.Active() || c.Requests[KindCommit].Active || c.OwnedPartitions.IsEmpty() {
		return c, nil
	}
	g := GateCommit(c.Config.Commits, c.Status, c.Gen.Reset())
	switch {
	case g.Wait:
		return c, nil
	case !g.Send:
		return c, []Effect{CommitResult{Local: true, Error: g.Local, Partitions: c.OwnedPartitions, Generation: impl.NoGeneration}}
	}
	req := c.commitRequest()
	c.mark(KindCommit, req.Partitions)
	return c, []Effect{Send{Request: req}}
}

// OnOffsetCommitResponse reports the commit's outcome (CommitResult) and reacts as the
// configured client does (ReactToCommit). Java (docs/protocol.md §1.11, OffsetCommit rows):
//   - REBALANCE_IN_PROGRESS: request a rejoin, no reset (variant KIP: revoke all first,
//     KIP-429 §1.c);
//   - UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION: if the generation changed since the commit was
//     sent and the member is PREPARING_REBALANCE, nothing more (RebalanceInProgressException);
//     otherwise reset (member id kept for ILLEGAL_GENERATION) and rejoin (KIP-429 §1.e);
//   - FENCED_INSTANCE_ID: fatal if sent with the current generation, else only a failed commit.
//
// FaultCommitIgnoresFencing reports UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION as a failed commit
// and does nothing else.
//
// A closed or failed consumer still reports the result.
func (c Consumer) OnOffsetCommitResponse(r impl.OffsetCommitResponse) (Consumer, []Effect) {
	sent, ok := c.take(KindCommit)
	if !ok {
		return c, nil
	}
	effs := []Effect{CommitResult{
		Accepted: r.Error == impl.None, Error: r.Error, Partitions: sent.Partitions, Generation: sent.Sent.ID,
	}}
	if !c.Active() || r.Error == impl.None {
		return c, effs
	}
	if c.Config.Faults.Has(impl.FaultCommitIgnoresFencing) && (r.Error == impl.UnknownMemberID || r.Error == impl.IllegalGeneration) {
		return c, effs // IBM/sarama offset_manager.go handleResponse: tell the user, nothing more
	}
	switch ReactToCommit(c.Config.Commits, r.Error, c.Gen == sent.Sent, c.Status) {
	case CommitRejoin:
		c.RejoinNeeded = true
		c.addTrigger(TriggerRebalanceInProgress)
	case CommitResetGeneration:
		c.resetGeneration(false)
	case CommitResetMember:
		c.resetGeneration(true)
	case CommitFatal:
		effs = c.fatal(effs, r.Error)
	}
	return c, effs
}
