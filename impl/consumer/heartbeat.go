package consumer

import "github.com/groupcheck/groupcheck/impl"

// HeartbeatTick sends a Heartbeat when the member is in the group (COMPLETING_REBALANCE or
// STABLE; allowed in CompletingRebalance since KAFKA-10134) and none is in flight.
// Reference: KAFKA.md §1.6, §1.11 (the heartbeat thread pauses while UNJOINED or
// PREPARING_REBALANCE).
func (c Consumer) HeartbeatTick() (Consumer, []Effect) {
	if !c.Active() || c.Requests[KindHeartbeat].Active || (c.Status != Stable && c.Status != CompletingRebalance) {
		return c, nil
	}
	req := c.heartbeatRequest()
	c.mark(KindHeartbeat, impl.PartitionSet{})
	return c, []Effect{Send{Request: req}}
}

// OnHeartbeatResponse handles the Heartbeat response (KAFKA.md §1.11, Heartbeat rows):
//   - REBALANCE_IN_PROGRESS: if STABLE, request a rejoin (variant KIP: revoke all first,
//     KIP-429 §1.c); otherwise a rebalance is already under way and it is ignored;
//   - ILLEGAL_GENERATION / UNKNOWN_MEMBER_ID / FENCED_INSTANCE_ID: if sent with the current
//     generation, reset (member id kept only for ILLEGAL_GENERATION) and rejoin (KIP-429 §1.e);
//     a stale answer is ignored (KAFKA-9823);
//   - NONE and coordinator errors: nothing (the coordinator is rediscovered).
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
	case impl.IllegalGeneration, impl.UnknownMemberID, impl.FencedInstanceID:
		if c.Gen == sent.Sent {
			c.resetGeneration(r.Error != impl.IllegalGeneration)
		}
	}
	return c, nil
}

// CommitTick commits the owned partitions. The request carries the generation only while
// STABLE (generationIfStable); otherwise the commit fails locally without a request:
// REBALANCE_IN_PROGRESS while rebalancing, ILLEGAL_GENERATION (CommitFailedException) when
// not in the group. Nothing owned means nothing to commit. One commit at a time.
// Reference: KAFKA.md §1.11 (generationIfStable), §1.8.
func (c Consumer) CommitTick() (Consumer, []Effect) {
	if !c.Active() || c.Requests[KindCommit].Active || c.OwnedPartitions.IsEmpty() {
		return c, nil
	}
	if c.Status != Stable {
		code := impl.IllegalGeneration
		if c.Status == PreparingRebalance || c.Status == CompletingRebalance {
			code = impl.RebalanceInProgress
		}
		return c, []Effect{CommitResult{Local: true, Error: code, Partitions: c.OwnedPartitions, Generation: impl.NoGeneration}}
	}
	req := c.commitRequest()
	c.mark(KindCommit, req.Partitions)
	return c, []Effect{Send{Request: req}}
}

// OnOffsetCommitResponse reports the commit's outcome (CommitResult) and reacts
// (KAFKA.md §1.11, OffsetCommit rows):
//   - REBALANCE_IN_PROGRESS: request a rejoin, no reset (variant KIP: revoke all first,
//     KIP-429 §1.c);
//   - UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION: if the generation changed since the commit was
//     sent and the member is PREPARING_REBALANCE, nothing more (RebalanceInProgressException);
//     otherwise reset (member id kept for ILLEGAL_GENERATION) and rejoin (KIP-429 §1.e);
//   - FENCED_INSTANCE_ID: fatal if sent with the current generation, else only a failed commit.
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
	if !c.Active() {
		return c, effs
	}
	switch r.Error {
	case impl.RebalanceInProgress:
		c.RejoinNeeded = true
		c.addTrigger(TriggerRebalanceInProgress)
	case impl.UnknownMemberID, impl.IllegalGeneration:
		if c.Gen == sent.Sent || c.Status != PreparingRebalance {
			c.resetGeneration(r.Error == impl.UnknownMemberID)
		}
	case impl.FencedInstanceID:
		if c.Gen == sent.Sent {
			effs = c.fatal(effs, r.Error)
		}
	}
	return c, effs
}
