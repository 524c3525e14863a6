// Package leader is the consumer group leader's job in the classic protocol: the partition
// assignors and the cooperative plan. Everything is a pure, deterministic function of the
// cluster metadata and the members' subscriptions from the JoinGroup response.
//
//   - Assignors (docs/protocol.md §2.4–2.5): Range, RoundRobin, Sticky (eager, KIP-54/KIP-341) and
//     CooperativeSticky (KIP-429 with KAFKA-14639 arbitration and AdjustAssignment), found by
//     name with Lookup; RebalanceProtocolOf derives a member's protocol from its assignors.
//   - AllAssignments / EachAssignment: the model's "any" assignor, every valid assignment.
//   - Plan: the KIP variant's cooperative leader (KIP-429 §2 steps 1–6): owned, assigned,
//     MaybeRevoking, ReadyToMigrate, UnknownButOwned, the final assignment and NEEDS_REJOIN.
//   - Lead / LeadWith: one leader round per variant: Kafka (assignor, then
//     ValidateCooperative for non-built-in cooperative assignors) or KIP (assignor, then Plan).
//
// # Usage
//
//	out := leader.Lead(leader.LeaderInput{
//		Variant:      impl.Kafka,
//		Protocol:     impl.Cooperative,
//		AssignorName: leader.CooperativeStickyName,
//		ReadVersion:  impl.MaxSubscriptionVersion,
//		Cluster:      cluster,
//		Members:      joinResponse.Members,
//	})
//	if out.Failed { /* the leader threw: no SyncGroup assignment this round */ }
//	// send out.Assignments in SyncGroup
//
//	// The "any" assignor: every valid assignment, each post-processed by the variant.
//	for a := range leader.EachAssignment(cluster, members, true) {
//		out := leader.LeadWith(in, a)
//		...
//	}
//
// # Implementation notes
//
// Outputs are always one entry per member, sorted by member id, so that two equal rounds give
// equal values. Inputs are never modified; partition sets are immutable. Maps are not used:
// members are addressed by their index in the id-sorted list and partitions by their index in
// the sorted partition list.
//
// The sticky balancing (stickyBalance) does not reproduce Java's partition-for-partition
// choices; it follows the rules instead: keep owned partitions up to the quota, take away the
// extras, give the rest to the least loaded member, and stop when no single move evens the load.
// The faults that belong to the leader are honoured here: FaultValidateBuiltinCooperative (B9)
// in LeadWith, FaultDropLowerGenerationClaims (B10) in CooperativeSticky and
// FaultStickyMergeWithoutGeneration (B11) in Sticky, FaultBalanceMovesOwned (B27) in the
// sticky balancing, and the KIP-429 hazards FaultPlanSkipsWithhold and FaultPlanSkipsNeedsRejoin
// in Plan.
package leader
