package consumer

// FollowupTick carries out a follow-up rebalance the assignor asked for (FollowupDue), as
// Kafka Streams does: its StreamThread.runLoop checks after each poll, "but don't trigger it
// until the current rebalance is done" (KAFKA-14382: !taskManager.rebalanceInProgress(), i.e.
// no JoinGroup or SyncGroup of this member under way and its assignment applied), then calls
// mainConsumer.enforceRebalance(reason) and clears the schedule. enforceRebalance (KIP-568,
// ClassicKafkaConsumer.enforceRebalance → AbstractCoordinator.requestRejoin) only sets
// rejoinNeeded and the reason: the next poll rejoins, running onJoinPrepare as for any
// rebalance — a cooperative member keeps what it owns, an eager one revokes everything
// (docs/protocol.md §2.3). The variant KIP records TriggerFollowup, which keeps the owned partitions
// and sends JoinReason UPGRADE.
//
// The coordinator is unchanged: a follower whose JoinGroup metadata equals what the Stable
// group holds gets the current generation back without a rebalance (docs/protocol.md §1.4), which is
// why Streams puts a counter in its subscription (SubscriptionInfo uniqueField, KAFKA-10455).
// Nothing happens while a round is under way or when nothing is due.
// Reference: KIP-441; KIP-568; apache/kafka StreamThread.runLoop,
// StreamsPartitionAssignor.maybeScheduleFollowupRebalance.
func (c Consumer) FollowupTick() (Consumer, []Effect) {
	if !c.Active() || !c.FollowupDue || c.Rebalancing() || c.Status == PreparingRebalance || c.Status == CompletingRebalance {
		return c, nil
	}
	c.FollowupDue = false
	c.RejoinNeeded = true
	c.addTrigger(TriggerFollowup)
	return c, nil
}
