package consumer

import "github.com/groupcheck/groupcheck/impl"

// JoinTrigger is the event that makes a KIP-429 consumer rejoin (docs/protocol.md §7.1 a–f). The
// variant KIP decides what to do with its owned partitions before the JoinGroup by it;
// triggers accumulate and the strongest pending one wins (revoking all beats the others).
type JoinTrigger int8

const (
	TriggerNone JoinTrigger = iota
	// TriggerFollowup: the assignor asked for a follow-up rebalance (FollowupTick; KIP-441):
	// keep the owned partitions, as KIP-568's enforceRebalance does. The weakest trigger: any
	// other pending one decides what is revoked.
	TriggerFollowup
	// TriggerNeedsRejoin: SyncGroup assignment carried NEEDS_REJOIN (§1.f): keep the
	// updated owned partitions.
	TriggerNeedsRejoin
	// TriggerMetadataChange: topic metadata changed (§1.b): keep owned, lose vanished ones.
	TriggerMetadataChange
	// TriggerFenced: UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION (§1.e): lose everything.
	TriggerFenced
	// TriggerMemberIDRequired: JoinGroup answered MEMBER_ID_REQUIRED (§1.d): revoke all.
	TriggerMemberIDRequired
	// TriggerRebalanceInProgress: REBALANCE_IN_PROGRESS from Heartbeat or OffsetCommit
	// (§1.c): revoke all.
	TriggerRebalanceInProgress
	// TriggerSubscriptionChange: the subscription changed (§1.a): revoke all.
	TriggerSubscriptionChange
)

var triggerNames = [...]string{"none", "followup", "needs-rejoin", "metadata-change", "fenced",
	"member-id-required", "rebalance-in-progress", "subscription-change"}

func (t JoinTrigger) String() string {
	if t >= 0 && int(t) < len(triggerNames) {
		return triggerNames[t]
	}
	return "invalid-trigger"
}

// TriggerPlan is what a KIP-429 consumer does with its owned partitions before rejoining.
type TriggerPlan struct {
	Keep    impl.PartitionSet // still owned, sent as OwnedPartitions
	Revoked impl.PartitionSet // onPartitionsRevoked
	Lost    impl.PartitionSet // onPartitionsLost
}

// PlanJoinTrigger applies docs/protocol.md §7.1 to the owned set: a, c, d revoke everything; b keeps
// what still exists in the cluster and loses the rest; e loses everything; f (and no
// trigger, or an assignor's follow-up) keeps everything. Reference: KIP-429 §1.a–f; KIP-441.
func PlanJoinTrigger(t JoinTrigger, owned impl.PartitionSet, cluster impl.Cluster) TriggerPlan {
	switch t {
	case TriggerSubscriptionChange, TriggerRebalanceInProgress, TriggerMemberIDRequired:
		return TriggerPlan{Revoked: owned}
	case TriggerFenced:
		return TriggerPlan{Lost: owned}
	case TriggerMetadataChange:
		return TriggerPlan{Keep: owned.Filter(cluster.Exists), Lost: owned.Filter(func(tp impl.TopicPartition) bool {
			return !cluster.Exists(tp)
		})}
	case TriggerNone, TriggerFollowup, TriggerNeedsRejoin:
		return TriggerPlan{Keep: owned}
	}
	panic("consumer.PlanJoinTrigger: invalid trigger " + t.String())
}

// applyPlan carries a trigger plan out: callbacks (lost, then revoked) and the new owned set.
func (c *Consumer) applyPlan(effs []Effect, p TriggerPlan) []Effect {
	effs = callback(effs, Lost, p.Lost)
	effs = callback(effs, Revoked, p.Revoked)
	c.OwnedPartitions = p.Keep
	if p.Keep.IsEmpty() && !p.Lost.IsEmpty() {
		c.OwnedGeneration = impl.NoGeneration
	}
	return effs
}

// addTrigger records a KIP-429 join trigger, keeping the strongest pending one.
func (c *Consumer) addTrigger(t JoinTrigger) {
	if c.Config.Variant == impl.KIP && t > c.Trigger {
		c.Trigger = t
	}
}

// OnJoinPrepare runs before a JoinGroup, once per rebalance (ConsumerCoordinator.onJoinPrepare):
//  1. auto-commit the owned partitions, only while STABLE (the commit carries the generation
//     and may still be in flight when the JoinGroup goes out);
//  2. a reset generation loses everything (onPartitionsLost);
//  3. otherwise eager revokes everything; cooperative Kafka revokes only partitions of topics no
//     longer subscribed; cooperative KIP applies the pending trigger (PlanJoinTrigger);
//  4. leadership and the group subscription are forgotten.
//
// Under FaultSkipJoinPrepareAfterReset a reset does not re-arm NeedsJoinPrepare, so a reset
// mid-rebalance skips steps 1–3 (B7). Under FaultEagerKeepsOwnedList an eager member
// calls onPartitionsRevoked but keeps its owned list, which the next JoinGroup advertises (B23).
// Reference: docs/protocol.md §2.3, §1.11; KIP-429 §1.
func OnJoinPrepare(c Consumer) (Consumer, []Effect) {
	var effs []Effect
	full := c.NeedsJoinPrepare
	if full {
		effs = c.autoCommit(effs)
	}
	switch {
	case full && c.Gen.Reset():
		effs = c.applyPlan(effs, PlanJoinTrigger(TriggerFenced, c.OwnedPartitions, c.Metadata))
	case c.Config.Protocol() == impl.Eager && full:
		effs = callback(effs, Revoked, c.OwnedPartitions)
		if !c.Config.Faults.Has(impl.FaultEagerKeepsOwnedList) {
			c.OwnedPartitions = impl.PartitionSet{}
		}
	case c.Config.Variant == impl.KIP:
		effs = c.applyPlan(effs, PlanJoinTrigger(c.Trigger, c.OwnedPartitions, c.Metadata))
	case full:
		gone := c.OwnedPartitions.Filter(func(tp impl.TopicPartition) bool { return !c.subscribes(tp.Topic) })
		effs = c.applyPlan(effs, TriggerPlan{Keep: c.OwnedPartitions.Minus(gone), Revoked: gone})
	}
	c.NeedsJoinPrepare = false
	c.Leader = false
	c.GroupTopics = nil
	return c, effs
}

// autoCommit sends the pre-rebalance commit of the owned partitions when STABLE, nothing is
// committing already and there is something to commit.
func (c *Consumer) autoCommit(effs []Effect) []Effect {
	if c.Status != Stable || c.Requests[KindCommit].Active || c.OwnedPartitions.IsEmpty() {
		return effs
	}
	req := c.commitRequest()
	c.mark(KindCommit, req.Partitions)
	return append(effs, Send{Request: req})
}

func (c Consumer) subscribes(topic string) bool {
	for _, t := range c.Topics {
		if t == topic {
			return true
		}
	}
	return false
}

// PollTick is the application's poll. If a rejoin is needed and no round is under way, it
// runs onJoinPrepare (once per rebalance; in the variant KIP also whenever a trigger is
// pending) and sends JoinGroup. Reference: docs/protocol.md §1.11 (joinGroupIfNeeded).
func (c Consumer) PollTick() (Consumer, []Effect) {
	if !c.WantsToJoin() {
		return c, nil
	}
	var effs []Effect
	if c.NeedsJoinPrepare || c.Trigger != TriggerNone {
		c, effs = OnJoinPrepare(c)
	}
	effs = c.sendJoin(effs)
	return c, effs
}
