// Package kip848 is the KIP-848 group coordinator for one consumer group (the "consumer"
// rebalance protocol, ConsumerGroupHeartbeat), as a pure value: Group. Every transition takes
// the group and an input — a request, a timer firing, new metadata — and returns the
// successor group and the replies to send. Nothing here performs I/O, reads a clock or draws
// random numbers. It implements docs/protocol.md §3.1–3.6 as shipped (variant impl.Kafka) and the
// draft reconciliation of docs/protocol.md §8 (variant impl.KIP: revoke, acknowledge, then assign).
//
// # Usage
//
//	g := kip848.New(kip848.Config{Variant: impl.Kafka}, impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 2}))
//	none := impl.NewPartitionSet()
//	g, out := g.Heartbeat(impl.ConsumerGroupHeartbeatRequest{Conn: 1, MemberEpoch: impl.EpochJoin,
//		SubscribedTopicNames: []string{"t"}, OwnedPartitions: &none}, "a")
//	// out[0]: member a at epoch 1 with Assignment (t-0 t-1); g.State() == StableGroup.
//	for _, r := range g.RebalanceTimers() { // time is an input
//		g = g.RebalanceTimeoutExpired(r.Member, r.Epoch)
//	}
//
// Timers are inputs, offered by a model checker when they can fire: SessionTimers (every
// member) and RebalanceTimers (members in UNREVOKED_PARTITIONS). Firing a stale timer is a
// no-op. Fresh member ids come from the caller (Heartbeat's fresh argument), never from the
// reference. The target assignment comes from the configured server assignor (Uniform or
// Range); HeartbeatAssign and WithTarget take any valid target instead (AllTargets
// enumerates them), which is how a checker covers every assignor at once.
//
// # Implementation notes
//
// Reconcile is CurrentAssignmentBuilder (§3.4) as an exported pure function; Heartbeat wraps
// it with request validation, member resolution and epoch validation, the group epoch bump,
// the lazy target computation and the rebalance timer. Partition epochs are derived from
// the members (assigned ∪ pending revocation at the member's epoch), never stored; every
// transition ends by checking that no partition has two holders and that the target assigns
// each partition at most once, and panics naming the transition otherwise (Kafka's
// IllegalStateException). Protocol refusals are error codes in replies.
//
// A Group holds only sorted slices (members and target entries by member id) and immutable
// partition sets; transitions copy slices before writing. AppendEncoding is canonical.
//
// Choices where docs/protocol.md leaves room:
//   - The group always exists: a non-join heartbeat to an empty group is UNKNOWN_MEMBER_ID,
//     not GROUP_ID_NOT_FOUND; DEAD is not modelled, nor is the UNKNOWN member state.
//   - The model has no RebalanceTimeoutMs: a request is "full" when it is a join or carries
//     both SubscribedTopicNames and OwnedPartitions.
//   - Metadata refreshes happen in MetadataChanged, not on a deadline.
//   - In computeNextAssignment a partition still pending revocation by the same member is
//     not "unreleased" (only someone else can hold it back).
//   - A temporary leave (-2) cancels the rebalance timer (its firing would be ignored anyway)
//     and leaves the member state as it was; a replacing static member starts STABLE at
//     epoch 0 with the old assignment and subscription.
//   - A static epoch-0 join while the instance id is held at an epoch other than -2 gets
//     UNRELEASED_INSTANCE_ID even when the member id is the holder's own. This is Kafka's
//     rule (getOrMaybeSubscribeStaticConsumerGroupMember → throwIfInstanceIdIsUnreleased,
//     apache/kafka 1eb7644, reads only the holder's epoch), and it makes one lost answer
//     fatal for a static member under either kind of member id (README Findings; apache/kafka
//     PR #23542, open, would rejoin the holder in place).
//
// Variant KIP (docs/protocol.md §8: revoke, acknowledge, then assign) differs in one rule: the
// acknowledgement of a revocation moves the member to the target epoch directly, and if the
// target has meanwhile taken more away the member revokes again at its old epoch (Kafka
// advances it by one, E+1, per completed revocation step). Under KIP a commit at the old
// epoch therefore stays accepted after the first revocation was acknowledged.
//
// Faults: impl.FaultRecomputeWhileRevoking (B17, KAFKA-16249) recomputes a member in
// UNREVOKED_PARTITIONS from every newer target without reading its owned partitions (an ack
// in that request is lost; the client does not resend), and re-arms its rebalance timer for
// the new target — modelled by tagging the timer with the target epoch, so it never fences.
// impl.FaultStaleCheckOnRejoin (B18, KAFKA-19233) applies the member-epoch check to epoch-0
// rejoins of a registered member, so a fenced member cannot rejoin until its session expires.
package kip848
