package oracle

// The properties Check asserts. Each is a promise of the protocol that a client or coordinator
// can break and a history can show.
const (
	// ExclusiveOwnership: no two members that the coordinator still considers current own one
	// partition at the same time, as their callbacks say (ownership from an assign's begin to
	// the revoke's or lost's end, a crash, a restart or the end of a close). An overlap of
	// positive duration is reported; one where the earlier owner was cut off or fenced and not
	// yet told is a zombie (docs/clients.md §6.4, "the epoch-qualified property"; docs/protocol.md §1.12,
	// §3.9).
	ExclusiveOwnership = "exclusive-ownership"

	// RevokeBeforeAssign: a new owner's onPartitionsAssigned begins only after the previous
	// owner's onPartitionsRevoked (or Lost) for that partition returned. Judged on the
	// callback edges in Seq order, so it also catches overlaps too short for the clock to show
	// (KIP-429 seed, docs/protocol.md §7: "revoke partitions as required before sending the join-group
	// request"; KIP-848 draft, docs/protocol.md §8: partitions are assigned "when they are revoked by the
	// other members"; docs/protocol.md §2.6, §3.4).
	RevokeBeforeAssign = "revoke-before-assign"

	// LostOnlyAfterMembershipLost: a member calls onPartitionsLost with partitions only when it
	// has lost its membership: some sign since its last successful generation (a cut, a Fenced
	// event, a failed request or commit other than flow control) must come before the lost
	// callback returns. The close path needs no other sign: once the member has begun to close
	// (a Close begin) or has left (an accepted LeaveGroup, a consumer heartbeat at epoch -1 or
	// -2), lost is allowed, because Java's ConsumerCoordinator.onLeavePrepare calls
	// onPartitionsLost instead of onPartitionsRevoked when a rebalance is in progress or the
	// generation is unknown, before it sends LeaveGroup. An empty onPartitionsLost is never
	// reported: kgo calls it routinely (docs/clients.md §2, "Empty callbacks are normal"; docs/protocol.md
	// §2.1 table, §3.7).
	LostOnlyAfterMembershipLost = "lost-only-after-membership-lost"

	// CommitFromOwner: an accepted offset commit (the client's, or an OffsetCommit request
	// seen only on the wire) comes from a member that owned every
	// committed partition when the commit began, and that had not been fenced (a Fenced event:
	// the coordinator's own record) or left (an accepted leave, the end of its close) before it
	// began, unless admitted again since (docs/clients.md §6.4, "every commit from a fenced member is
	// rejected"; docs/protocol.md §1.8, §3.1, §3.9). A fencing answer alone does not count: it is what
	// the member was told, and a test harness may inject one without fencing the member. A
	// commit rejected with a fencing error is listed as a zombie, not a failure, unless it is
	// ILLEGAL_GENERATION after the member's own rejoin moved it to a newer generation (the
	// coordinator answers a connection in order: the commit was judged after the JoinGroup).
	CommitFromOwner = "commit-from-owner"

	// GenerationMonotonic: within one member ID a node's observed generation (epoch) never goes
	// down, except to the values a client resets to: 0, -1 or -2 in the consumer protocol
	// (join, leave, static leave: docs/protocol.md §3.1, §3.9) and -1 in the classic one (no
	// generation: docs/protocol.md §2.2).
	GenerationMonotonic = "generation-monotonic"

	// ClaimsTruthful: a classic JoinGroup's owned list is what the member owns by its
	// callbacks when it sends it (an assign counts from its begin, a revoke or lost until its
	// end): the leader decides by these claims and cannot check them (KIP-429 §2; docs/protocol.md
	// §2.2; franz-go #686, docs/bugs.md B23). Only a claim that names partitions is judged: an
	// empty one cannot be told from one the recorder did not note.
	ClaimsTruthful = "claims-truthful"

	// CallbacksConsistent: a member's own callbacks, taken as deltas in the order they were
	// called, agree with each other: onPartitionsAssigned names only partitions the member does
	// not hold, onPartitionsRevoked and onPartitionsLost only partitions it holds (a revoke or
	// lost gives them up when it begins). Kafka's listener contract: assigned gets the
	// partitions added, revoked and lost partitions previously assigned (docs/protocol.md §2.6, §3.7;
	// ConsumerRebalanceListener). A client whose callbacks contradict each other has lost
	// track of what it owns, and every other ownership property reads its history wrongly.
	CallbacksConsistent = "callbacks-consistent"

	// OneLeaderPerGeneration: every accepted classic JoinGroup answer at one generation names
	// the same leader: the coordinator elects one leader per generation and tells every member
	// of it (docs/protocol.md §1.4, "the leader is chosen once per generation"). Not judged once a
	// static member appears: its rejoin renames the member and may keep the generation
	// (docs/protocol.md §1.10).
	OneLeaderPerGeneration = "one-leader-per-generation"

	// MemberIDUnique: a member ID the coordinator hands out (an answer to a JoinGroup or
	// ConsumerGroupHeartbeat naming another ID than the request did, accepted or
	// MEMBER_ID_REQUIRED) is handed to one node only (docs/protocol.md §1.4: a fresh UUID per join
	// without ID; §3.3).
	MemberIDUnique = "member-id-unique"

	// CoordinatorGenerationRises: generations only rise. A JoinGroup is not answered with a
	// generation below one that an answer returned with before it began; a
	// ConsumerGroupHeartbeat at epoch e > 0 is not answered with a lower epoch (docs/protocol.md §1.3,
	// §3.1, §3.9). Answers without a generation are not judged.
	CoordinatorGenerationRises = "coordinator-generation-rises"

	// RemovedStaysRemoved: the coordinator accepts no request from a member ID that left (an
	// accepted LeaveGroup or ConsumerGroupHeartbeat at epoch -1) or that it removed (a Fenced
	// event, its own record), begun after that, until it rejoins (a KIP-848 heartbeat at
	// epoch 0; after a Fenced event, which may concern one generation only, a classic
	// JoinGroup): a classic member ID that left is unknown (UNKNOWN_MEMBER_ID, docs/protocol.md §1.6,
	// §1.7), a removed KIP-848 member is fenced (docs/protocol.md §3.3, §3.6). Requests with an instance ID (static
	// members keep their identity across member IDs) and leaves are not judged. A fencing
	// answer alone does not count as removal: a harness may inject one.
	RemovedStaysRemoved = "removed-stays-removed"

	// RebalanceCompletes: once the group stops changing, it is settled within the bound the
	// caller gives (Options.Settle; judged only then): no stretch of the history longer than
	// the bound, on the history's own clock, passes with nothing changing while a subscribed
	// partition has no live owner or a live member does not hold the assignment the
	// coordinator last computed for it. Kafka's timers promise it: an expired session removes
	// the member and rebalances, a rebalance finishes within the rebalance timeout, and without
	// further disturbance every member reaches its target (docs/protocol.md §1.9, §1.12, §3.5,
	// §3.9). So the bound must exceed the session and rebalance timeouts the history ran with.
	// A group that keeps changing does not escape it: no stretch longer than the bound with
	// nothing disturbing the group from outside (no start, crash, close, cut, heal, fencing or
	// leave) may pass without the group settled after one of its changes (a livelock: a
	// rebalance that keeps undoing its own progress).
	// How the history shows liveness, subscriptions, targets and change is in stall.go.
	RebalanceCompletes = "rebalance-completes"

	// WellFormed: the history validates (history.History.Validate). Check reports a malformed
	// history as this one violation and checks nothing else in it.
	WellFormed = "well-formed"
)

// Plain are the properties Check always judges, in the order the report lists them: the
// members' (from their callbacks, commits and what they were told) and the coordinator's that
// need no search (each judged at one answer against earlier ones).
var Plain = []string{ExclusiveOwnership, RevokeBeforeAssign, LostOnlyAfterMembershipLost,
	CommitFromOwner, GenerationMonotonic, ClaimsTruthful, CallbacksConsistent,
	OneLeaderPerGeneration, MemberIDUnique, CoordinatorGenerationRises, RemovedStaysRemoved}

// Linearizability names the search check of Options.Linearizability in Report.Checked, and
// NeedsSearch says what it adds to the plain checks.
const (
	Linearizability = "linearizable"
	NeedsSearch     = "the coordinator's answers against the reference coordinator over every order of concurrent requests (group states, SyncGroup assignments, member lists, KIP-848 assignment overlaps)"
)

// The classes of a Violation.
const (
	ClassViolation = "violation" // a broken promise: the report fails
	ClassZombie    = "zombie"    // explained by a member cut off or fenced and not yet told
)
