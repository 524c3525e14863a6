package mutate

// consumerWorlds are the worlds the triage of the full run of 2026-12-02 (main a47ddf5) added for
// blind spots of impl/consumer: each comment names the mutants it catches.
var consumerWorlds = []World{
	// The KIP variant's consumer asked by its assignor for a follow-up rebalance (KIP-441), with a
	// partition added and a poll timeout: the follow-up may still be due when a metadata
	// rejoin is under way, or after the poll timeout's reset with the JoinGroup in flight
	// (UNJOINED, a round under way). Catches, by rejoin-cause, 495 (the follow-up carried out
	// without a rejoin), 496 (without the follow-up trigger: no KIP-423 UPGRADE), 497–500 (the
	// tick acting mid-round). 2,819 states.
	suiteWorld("cooperative-kip/followup-poll-timeouts"),
	// A classic partition added while the lone leader's first round is under way: only
	// synced's leaderMetadataStale keeps the rejoin MetadataChanged asked for (no classic
	// world added a partition). Catches 728 (converges). 43 states.
	suiteWorld("eager/partition-additions"),
	// The KIP variant's consumer (KIP-429 §1.b) seeing one of its two topics deleted: it loses that
	// topic's partition at once and keeps the other, so it rejoins owning something with its
	// owned generation kept (no classic world deleted a topic). Catches 649 (revoke-before-
	// reassign: the deleted partition dropped without a callback) and 654 (claims-truthful:
	// owned generation reset while partitions are kept). 84 states.
	suiteWorld("cooperative-kip/topic-deletions"),
	// librdkafka's commits while a cooperative member rejoins: a commit sent in
	// PREPARING_REBALANCE under the old generation is answered ILLEGAL_GENERATION once the join
	// has moved the group on, and librdkafka ignores it mid-rebalance (rdkafka_cgrp.c
	// rd_kafka_cgrp_op_handle_OffsetCommit; CommitPolicy). Catches 423 and 425 (a reset there:
	// lost-only-after-membership-lost). 490 states.
	suiteWorld("cooperative-kafka/librdkafka-join-commits"),
	// Two poll timeouts of one member: the second LeaveGroup is sent only if the first one's
	// answer cleared its in-flight marker. Catches 644 (no-orphan-member,
	// lost-only-after-membership-lost). 1,330 states.
	suiteWorld("eager/two-poll-timeouts"),
	// Two processes with one static instance id, committing as librdkafka does (FENCED_INSTANCE_ID
	// fatal whatever the generation): the old process's heartbeat is fenced (it resets and
	// fails) while its commit is still in flight, and the commit's answer reaches a failed
	// client. Catches, by stopped-stays-stopped, 531 (the failed client reacts to the answer:
	// a second fatal error) and 708 (a SyncGroup answer applied after the failure, also caught
	// in static/twin-commits). 606 states.
	suiteWorld("static/twin-librdkafka-commits"),
	// The KIP variant's member with rebalance.protocol=cooperative over the eager range assignor (an
	// upgrade's first bounce), leading alone when a partition is added: its metadata rejoin
	// keeps what it owns (KIP-429 §1.b). Catches, by join-plan, 440 (the override ignored: the
	// member revokes everything as the range assignor's eager protocol would). 43 states.
	suiteWorld("cooperative-kip/range-override-partition-additions"),
	// KIP-429's lone leader keeps its partition through a metadata rejoin (KIP-429 §1.b),
	// its SyncGroup answer is lost, and it changes its subscription before it retries: the
	// retry must run onJoinPrepare again for the revoke-all trigger (§1.a) although this
	// rebalance's first one has run. Catches, by join-plan, 690 (the retry skips onJoinPrepare
	// with a trigger pending: it rejoins still owning t-0) and 657 (a weaker trigger overwrites
	// the subscription change). 1,563 states.
	suiteWorld("cooperative-kip/failed-round-resubscribe"),
	// Two processes with one static instance id; the old one, leading alone, commits and
	// then rejoins for a partition added, and its twin takes the instance id meanwhile: the
	// commit is answered FENCED_INSTANCE_ID under its current generation (fatal) while its
	// JoinGroup is still in flight. Catches, by stopped-stays-stopped, 546 (the failed
	// client acts on that JoinGroup's answer: a second fatal error). 12,651 states.
	suiteWorld("static/twin-rejoin-commits"),
}
