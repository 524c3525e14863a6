package consumer

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// OnSyncGroupResponse handles the SyncGroup response (docs/protocol.md §1.11 reaction table,
// SyncGroup rows).
//   - NONE: if the member is still COMPLETING_REBALANCE with the generation it synced with,
//     the round completes (STABLE; OnJoinComplete, or docs/protocol.md §7.3 in the variant KIP); otherwise
//     the generation was reset meanwhile and the round is discarded (Java raises
//     ILLEGAL_GENERATION to retry).
//   - REBALANCE_IN_PROGRESS: rejoin; the generation from the JoinGroup is kept with the old
//     partitions, so the next claim carries them labelled with it (docs/protocol.md §2.8).
//     FaultResetGenerationOnSyncRebalance resets the generation
//     instead, losing every partition at the next onJoinPrepare (KAFKA-13891, docs/bugs.md B8b).
//   - UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION: reset (member id only for UNKNOWN_MEMBER_ID,
//     KAFKA-13419) if the generation is unchanged; a stale answer only fails the round.
//   - FENCED_INSTANCE_ID, INCONSISTENT_GROUP_PROTOCOL: fatal.
//   - anything else (coordinator errors): the round failed; rejoin at the next poll.
func (c Consumer) OnSyncGroupResponse(r impl.SyncGroupResponse) (Consumer, []Effect) {
	sent, ok := c.take(KindSync)
	if !ok || !c.Active() {
		return c, nil
	}
	switch r.Error {
	case impl.None:
		if c.Status != CompletingRebalance || c.Gen != sent.Sent {
			c.RejoinNeeded = true
			return c, nil
		}
		return c.synced(r.Assignment)
	case impl.RebalanceInProgress:
		if c.Config.Faults.Has(impl.FaultResetGenerationOnSyncRebalance) {
			c.resetGeneration(false)
		} else {
			c.roundFailed()
		}
		return c, nil
	case impl.UnknownMemberID, impl.IllegalGeneration:
		if c.Gen == sent.Sent {
			c.resetGeneration(r.Error == impl.UnknownMemberID)
		} else {
			c.roundFailed()
		}
		return c, nil
	case impl.FencedInstanceID, impl.InconsistentGroupProtocol:
		return c, c.roundFatal(r.Error)
	}
	c.roundFailed()
	return c, nil
}

// synced completes a round: STABLE, rejoinNeeded cleared unless something still asks for a
// rejoin (subscription changed since the JoinGroup, leader metadata moved, a KIP trigger is
// pending), onJoinPrepare re-armed for the next rebalance, then the assignment is applied.
// Reference: docs/protocol.md §1.11, §2.6; KIP-429 §3.
func (c Consumer) synced(a impl.Assignment) (Consumer, []Effect) {
	c.Status = Stable
	c.NeedsJoinPrepare = true
	if !c.Leader {
		c.GroupTopics = nil
		c.AssignmentSnapshot = impl.Cluster{}
	}
	c.RejoinNeeded = !slices.Equal(c.JoinedTopics, c.Topics) || c.leaderMetadataStale() || c.Trigger != TriggerNone
	if c.Config.Variant == impl.KIP {
		return ApplySyncGroupKIP(c, a)
	}
	return OnJoinComplete(c, a)
}

// OnJoinComplete applies a completed round's assignment as the Java client does
// (ConsumerCoordinator.onJoinComplete):
//  1. an assignment naming topics outside the subscription is not applied; rejoin instead;
//  2. added = assigned − owned;
//  3. cooperative: revoked = owned − assigned → onPartitionsRevoked(revoked) first, then
//     requestRejoin so the revoked partitions can move in the next round;
//  4. owned := assigned, sticky user data updated, onPartitionsAssigned(added), even empty;
//     the assignor's onAssignment records whether a follow-up rebalance was asked for
//     (FollowupDue; Streams' StreamsPartitionAssignor.onAssignment →
//     maybeScheduleFollowupRebalance, which clears an older request when none was asked).
//
// Eager members reach it with nothing owned (onJoinPrepare revoked everything), so added is
// the whole assignment. Reference: docs/protocol.md §2.6.
func OnJoinComplete(c Consumer, a impl.Assignment) (Consumer, []Effect) {
	assigned := a.Partitions
	if !assigned.OfTopics(c.Topics).Equal(assigned) {
		c.RejoinNeeded = true
		return c, nil
	}
	var effs []Effect
	c.FollowupDue = a.Followup
	added := assigned.Minus(c.OwnedPartitions)
	if c.Config.Protocol() == impl.Cooperative {
		revoked := c.OwnedPartitions.Minus(assigned)
		if !revoked.IsEmpty() {
			effs = callback(effs, Revoked, revoked)
			c.RejoinNeeded = true
		}
	}
	c.adopt(assigned)
	return c, append(effs, Callback{Kind: Assigned, Partitions: added})
}

// adopt records a newly applied assignment as owned, with its generation.
func (c *Consumer) adopt(assigned impl.PartitionSet) {
	c.OwnedPartitions = assigned
	c.OwnedGeneration = c.Gen.ID
	c.UserData = impl.UserData{Previous: assigned, Generation: c.Gen.ID}
}

// SyncPlan is docs/protocol.md §7.3 steps 1–2 for one member.
type SyncPlan struct {
	Added   impl.PartitionSet // assigned − owned: onPartitionsAssigned
	Revoked impl.PartitionSet // owned − assigned: onPartitionsRevoked
	Owned   impl.PartitionSet // the updated assigned-partitions list
}

// ApplySyncGroup computes the newly added and revoked partitions and the updated owned list.
// Reference: KIP-429 §3.1–3.2.
func ApplySyncGroup(owned, assigned impl.PartitionSet) SyncPlan {
	return SyncPlan{Added: assigned.Minus(owned), Revoked: owned.Minus(assigned), Owned: assigned}
}

// ApplySyncGroupKIP is docs/protocol.md §7.3 literally: update the owned list (step 2), call
// onPartitionsAssigned(added) (step 3), then onPartitionsRevoked(revoked) (step 4); on
// NONE the round is complete (5.1); on NEEDS_REJOIN the member sends another JoinGroup at
// once (5.2), having revoked "as required" (§1.f): a cooperative member nothing more, so it
// claims the updated owned partitions; an eager one everything, as before any join.
// A member writing v0 subscriptions is pre-KIP-429 code: it reads the assignment at v0,
// which has no error field, so NEEDS_REJOIN does not reach it (it rejoins when the others'
// rejoin starts a rebalance, revoking everything then).
// Note KIP-429 orders Assigned before Revoked; the two sets are disjoint.
// Reference: KIP-429 §3.1–3.5, §1.f.
func ApplySyncGroupKIP(c Consumer, a impl.Assignment) (Consumer, []Effect) {
	plan := ApplySyncGroup(c.OwnedPartitions, a.Partitions)
	c.adopt(plan.Owned)
	c.FollowupDue = a.Followup
	effs := []Effect{Callback{Kind: Assigned, Partitions: plan.Added}}
	effs = callback(effs, Revoked, plan.Revoked)
	if a.Error != impl.NeedsRejoin || c.Config.SubscriptionVersion == 0 {
		return c, effs
	}
	c.RejoinNeeded = true
	c.NeedsJoinPrepare = false
	c.addTrigger(TriggerNeedsRejoin)
	p := PlanJoinTrigger(c.Trigger, c.OwnedPartitions, c.Metadata)
	if c.Config.Protocol() == impl.Eager {
		p = TriggerPlan{Lost: p.Lost, Revoked: c.OwnedPartitions.Minus(p.Lost)}
	}
	effs = c.applyPlan(effs, p)
	return c, c.sendJoin(effs)
}
