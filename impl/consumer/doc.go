// Package consumer is the client side of one member of a classic consumer group: Java's
// AbstractCoordinator and ConsumerCoordinator, eager and cooperative (KIP-429), in two
// variants: Kafka (docs/protocol.md §1.11, §2.3, §2.6, §2.8, as Apache Kafka ships) and KIP (docs/protocol.md §7
// §1 a–f and §3, as the KIP was written).
//
// A Consumer is a pure value. Each input (ticks, subscription and metadata changes,
// responses, the leader's assignment) returns the next Consumer and the effects the caller
// executes: Send a request, invoke a rebalance Callback, RunAssignment as leader, report a
// Fatal error or a CommitResult.
//
// # Usage
//
//	c := consumer.New(consumer.Config{
//		Assignors: []string{consumer.CooperativeSticky}, SubscriptionVersion: 2,
//		JoinGroupVersion: 9, Conn: 1,
//	}, cluster)
//	c, _ = c.Subscribe([]string{"t"})
//	c, effs := c.PollTick() // [Send{JoinGroup}]
//	// ... deliver effs[0] to the coordinator, then feed its answer back:
//	c, effs = c.Step(consumer.Received{Response: joinResponse})
//	// a leader gets RunAssignment: run impl/leader and answer
//	c, effs = c.Step(consumer.AssignmentComputed{Assignments: plan})
//
// # Implementation notes
//
// Joining is poll-driven: responses only set flags, and the next PollTick sends JoinGroup
// (after onJoinPrepare, once per rebalance). Only MEMBER_ID_REQUIRED (KIP-394) and KIP-429's
// NEEDS_REJOIN (§3.5.2) re-send within the step, as the protocol says "at once". A model may
// deliver PollTick at any time, so this covers Java's in-poll retry loop.
//
// At most one request of each kind is in flight, each remembering the generation it was sent
// with (Java's sentGeneration, KAFKA-9823). Responses without a marker are ignored; a lost
// response is the RequestTimedOut input, never a reset (KAFKA-13214).
//
// The leader does not run the assignor: it emits RunAssignment (members, protocol, its own
// metadata view) and waits for AssignmentComputed or AssignmentFailed. A failure is Java's
// exception thrown from poll: no SyncGroup, rejoin at the next poll (KAFKA-13406, B9).
//
// Callbacks: Revoked and Lost are emitted only for non-empty sets, Assigned after every
// completed round even when empty (ConsumerCoordinator.onJoinComplete). In the variant
// Kafka a step's Revoked/Lost precede its Assigned; the variant KIP follows docs/protocol.md §7.3 step
// order (Assigned, then Revoked — the sets are disjoint), and on NEEDS_REJOIN then applies
// any pending §1 trigger before the immediate JoinGroup.
//
// Choices where the sources leave room (see the doc comments for each):
//   - KIP triggers a–f accumulate and the strongest pending one is applied before the next
//     JoinGroup; b (metadata) and d (MEMBER_ID_REQUIRED) act at once because a follower never
//     rejoins for b and the re-send for d is immediate. e is carried by the generation reset
//     (so that B7 bites in both variants). KIP-429's "following step 1.e" in §3.5.2 is read
//     as §1.f. The KIP variant uses Kafka's reactions where KIP-429 is silent (SyncGroup
//     errors, fatal errors, stale responses).
//   - The rebalance protocol is decided in one place, Config.Protocol: the highest protocol
//     every assignor supports (docs/protocol.md §2.1), or in the variant KIP KIP-429's
//     rebalance.protocol config when Config.RebalanceProtocol sets it (docs/protocol.md §7
//     "Compatibility"). Kafka has no such config; New panics if it is set there.
//   - The v2 claim label (Subscription.Generation) is the current generation Gen.ID, as Java
//     writes it (docs/protocol.md §2.2, §2.8). After REBALANCE_IN_PROGRESS on SyncGroup, or when the
//     leader's assignor failed, that is the generation of the round just joined, whose
//     assignment the member never saw: a newer label on older content, made safe by the
//     leader's KAFKA-14639 arbitration (docs/bugs.md B8, B10). Cooperative-sticky's user-data
//     generation is set only when an assignment is applied, so it stays the owned content's
//     generation; FaultStaleClaimAfterSyncRebalance's consumer half (B8a) relabels it with
//     Gen.ID as well, so that a leader reading v0/v1 subscriptions (no v2 field) also sees
//     the newer label (KAFKA-13419 before KIP-792).
//   - Close calls onPartitionsLost when the generation was reset, a rebalance is under way
//     or the consumer failed, onPartitionsRevoked otherwise (Java onLeavePrepare).
//   - Heartbeat FENCED_INSTANCE_ID resets and rejoins as docs/protocol.md §1.11's table says; on
//     JoinGroup/SyncGroup (and a same-generation commit) it is fatal.
package consumer
