package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/worlds"
)

// Mutant is a named fault of the reference (impl.Fault), documented with its real source, and
// the smallest world in which the explorer catches it — by a general property, never one
// written for that mutant. Mutants are how we know the properties bite.
type Mutant struct {
	Fault   impl.Fault
	Bug     string // the docs/bugs.md entry, e.g. "B7", or "KIP-429" for a hazard docs/protocol.md §7 guards against
	Source  string // JIRA id, PR or the docs/protocol.md section
	Summary string // one line: what goes wrong
	// World is the config (in the config-file format, without a fault directive) in which
	// the fault is caught; empty when no safety property can catch it.
	World string
	// Catches are the properties the fault violates in World, and which hold there without
	// the fault; ConvergesName is the liveness check (Liveness).
	Catches []string
	// MaxRounds, when set, is the bound on rebalances after one environment event in a
	// converged group (Liveness's Rounds, explore --max-rounds) that the correct model meets
	// in World and the fault exceeds: how an efficiency bug that still converges is caught.
	MaxRounds int
	// Uncaught says why no property catches the mutant yet, when Catches is empty and
	// MaxRounds is 0.
	Uncaught string
	// Base are faults of the code base the bug lived in, switched on in both the faulty and
	// the correct world: the catch is measured against that base, not the shipped reference.
	// A fault whose harm exists only next to another defect (B9's validation was a safety net
	// for B10's arbitration and failed the round instead) is caught this way; empty means the
	// shipped reference.
	Base []impl.Fault
	// MaxStates bounds the faulty world's exploration when the fault makes it grow without
	// end (an eviction loop); 0 means it is explored exhaustively. BFS still returns the
	// shortest counterexample within the bound.
	MaxStates int64
}

// Config is the mutant's world with its base faults and its fault switched on.
func (m Mutant) Config() (spec.Config, error) {
	c, err := m.BaseConfig()
	if err != nil {
		return spec.Config{}, err
	}
	c.Faults = c.Faults.With(m.Fault)
	return c, nil
}

// BaseConfig is the mutant's world without its fault: the reference, with the base faults
// switched on. Every property the mutant catches holds here.
func (m Mutant) BaseConfig() (spec.Config, error) {
	c, err := spec.ParseConfigString(m.Fault.String(), m.World)
	if err != nil {
		return spec.Config{}, fmt.Errorf("mutant %s: %w", m.Fault, err)
	}
	for _, f := range m.Base {
		c.Faults = c.Faults.With(f)
	}
	return c, nil
}

// LookupMutant finds a mutant by its fault name.
func LookupMutant(name string) (Mutant, bool) {
	for _, m := range Mutants {
		if m.Fault.String() == name {
			return m, true
		}
	}
	return Mutant{}, false
}

const (
	twoCooperative = `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t
`
	// twoKIP848 is the smallest KIP-848 world: two members of one two-partition topic.
	twoKIP848 = `protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t
member b topics=t
`
	// threeCooperativeV1 is threeCooperative with v1 subscriptions (KIP-429 without KIP-792's
	// generation field): claims carry the generation of cooperative-sticky's user data.
	threeCooperativeV1 = `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 3
member a topics=t version=1
member b topics=t version=1
member c topics=t absent version=1
`
	twoEagerSticky = `protocol eager
consumer kafka
coordinator kafka
assignor sticky
topic t 2
member a topics=t
member b topics=t
`
)

// Mutants is the registry, in docs/bugs.md order.
var Mutants = []Mutant{
	{
		Fault: impl.FaultJoinTimerZero, Bug: "B1", Source: "KAFKA-8653",
		Summary: "JoinGroup v0's rebalance timeout is lost: the join phase times out at once and evicts live members",
		// No budget lets the coordinator remove a live member here, so the zombie the fault
		// makes is not the expected window: the strict form catches it. The eviction loop
		// itself is a liveness failure.
		World:     worlds.MustText("mutants/join-timer-zero"),
		Catches:   []string{"exclusive-ownership-strict"},
		MaxStates: 30000,
	},
	{
		Fault: impl.FaultNoSyncTimer, Bug: "B3", Source: "KAFKA-12890",
		Summary: "no sync-phase timer: a member that never syncs keeps the group in CompletingRebalance",
		// a leads gen 1 and hangs in its assignor (budget hangs: its heartbeat thread goes on,
		// so its session never expires of itself). b's SyncGroup waits for the leader's; with
		// no sync timer nothing removes a, and no step is enabled: a dead end. With the timer
		// (free, since a will never sync) a is removed and b converges alone.
		World:   worlds.MustText("mutants/no-sync-timer"),
		Catches: []string{ConvergesName},
	},
	{
		Fault: impl.FaultSkipJoinPrepareAfterReset, Bug: "B7", Source: "KAFKA-12983",
		Summary: "after a reset mid-rebalance the consumer skips onJoinPrepare and keeps claiming its partitions",
		World:   worlds.MustText("mutants/skip-join-prepare-after-reset"),
		Catches: []string{"exclusive-ownership", "no-handover-while-owned", "reset-loses-partitions"},
	},
	{
		Fault: impl.FaultStaleClaimAfterSyncRebalance, Bug: "B8a", Source: "KAFKA-13419",
		Summary: "after REBALANCE_IN_PROGRESS on SyncGroup the old partitions are claimed under the new generation's label, user data included",
		// B10's world: c misses gen 2's SyncGroup (REBALANCE_IN_PROGRESS) and rejoins with
		// what it owned in gen 1, its user data labelling it gen 2. Only the message can show
		// it: under the KAFKA-14639 arbitration a label decides only between conflicting
		// claims, and true claims never conflict, so every other verdict, the rounds (2) and
		// the unavailability (38) are the correct model's (TestB8aHasNoConsequence). Its harm
		// in Kafka came through B9's validation or B10's arbitration, and under B10 it does
		// the opposite: it removes the double ownership, as the late member no longer looks
		// older than the rest.
		World:   worlds.MustText("mutants/stale-claim-after-sync-rebalance"),
		Catches: []string{"claims-truthful"},
	},
	{
		Fault: impl.FaultResetGenerationOnSyncRebalance, Bug: "B8b", Source: "KAFKA-13891 → KAFKA-14016",
		Summary: "REBALANCE_IN_PROGRESS on SyncGroup resets the generation, so the member gives up more than it must",
		// a and b hold gen 1; c joins; gen 2 revokes a partition from one of them, which
		// rejoins at once, so the other's SyncGroup is answered REBALANCE_IN_PROGRESS. The
		// fault resets its generation while the coordinator still holds it at gen 2: the next
		// onJoinPrepare reports every partition it owns lost (KAFKA-14016's over-revocation:
		// the worst-case unavailability after the join rises from 38 to 55 partition-steps,
		// rounds unchanged).
		World:   worlds.MustText("mutants/reset-generation-on-sync-rebalance"),
		Catches: []string{"lost-only-after-membership-lost"},
	},
	{
		Fault: impl.FaultValidateBuiltinCooperative, Bug: "B9", Source: "KAFKA-13406",
		Summary: "the leader validates the built-in cooperative-sticky assignment and fails the round on stale claims",
		// The validation fails only when one round revokes a partition from one member and
		// adds it to another, which the shipped arbitration (KAFKA-14639) never asks for: on
		// the reference the fault changes nothing. It bit in Kafka 3.0–3.1, whose arbitration
		// dropped the claims of members below the highest generation (B10), so the base is
		// B10's world with B10's fault: there c's sole stale claim on t-1 is dropped and gen 3
		// gives t-1 to b, a double ownership. The validation sees t-1 revoked from c and
		// added to b, fails the round, and the leader rejoins; every round computes the same
		// assignment and fails again — the double ownership becomes a livelock (a fair cycle;
		// every safety property holds), which is what KAFKA-13406 reported. The sync timer
		// that would remove the failing leader costs budget here (the leader is alive and
		// keeps rejoining) and none is given; in Kafka it fires, and the next leader computes
		// the same round from the same claims. (With sync-timeouts=1 the liveness graph did
		// not fit in 22 GB in 10 minutes, so that variant is unchecked.)
		World:   worlds.MustText("mutants/validate-builtin-cooperative"),
		Base:    []impl.Fault{impl.FaultDropLowerGenerationClaims},
		Catches: []string{ConvergesName},
	},
	{
		Fault: impl.FaultDropLowerGenerationClaims, Bug: "B10", Source: "KAFKA-14639",
		Summary: "the leader drops every claim of a member below the highest generation, so a sole stale owner's partition is handed over while owned",
		// The member that misses a round is one whose SyncGroup is answered
		// REBALANCE_IN_PROGRESS because a revoking peer rejoined at once (docs/protocol.md §2.8):
		// a and c hold gen 1 (a t-0 and t-2, c t-1); b joins; gen 2 revokes t-2 from a,
		// which rejoins before c syncs. c keeps t-1 but its claim carries generation 1 while
		// a's carries 2. With v1 subscriptions the generation is cooperative-sticky's user
		// data, the generation of the last assignment applied (the v2 field would say 2 for
		// c too, docs/protocol.md §2.8, and the fault would not bite); the fault drops c's sole claim
		// and gen 3 gives t-1 to b while c owns it.
		World:   worlds.MustText("mutants/drop-lower-generation-claims"),
		Catches: []string{"exclusive-ownership", "no-handover-while-owned", "sticky-least-movement"},
	},
	{
		Fault: impl.FaultStickyMergeWithoutGeneration, Bug: "B11", Source: "KAFKA-7026 (KIP-341)",
		Summary: "the eager sticky assignor merges cached previous assignments without generation precedence",
		World:   worlds.MustText("mutants/sticky-merge-without-generation"),
		Catches: []string{"exclusive-ownership", "sync-assignment-valid", "sticky-least-movement"},
	},
	{
		Fault: impl.FaultEagerKeepsOwnedList, Bug: "B23", Source: "franz-go #686 (fix #720, v1.17.0)",
		Summary: "an eager member revokes everything but still advertises its last assignment as owned",
		World:   worlds.MustText("mutants/eager-keeps-owned-list"),
		Catches: []string{"exclusive-ownership", "no-handover-while-owned", "revoke-before-reassign", "eager-joins-empty"},
	},
	{
		Fault: impl.FaultRecomputeWhileRevoking, Bug: "B17", Source: "KAFKA-16249",
		Summary: "KIP-848: a new target is applied to a revoking member without its acknowledgement, and the rebalance timer is re-armed",
		// A third member joins while a revokes: the second target is applied to a in
		// UNREVOKED_PARTITIONS ignoring the acknowledgement its request carried; the client
		// does not resend it, so a's record keeps the revoked partition forever, the new owner
		// waits in UNRELEASED_PARTITIONS, and the re-armed timer never fences a.
		// The coordinator still enforces a single holder: 720 of 8,326 worlds can never
		// converge, ending in a dead end. kip848-revocation-timer sees the reset timer at once
		// (10 steps: a revokes t-0 at epoch 1 under a timer armed for epoch 3).
		World:   worlds.MustText("mutants/recompute-while-revoking"),
		Catches: []string{ConvergesName, "kip848-revocation-timer"},
	},
	{
		Fault: impl.FaultStaleCheckOnRejoin, Bug: "B18", Source: "KAFKA-19233 (apache/kafka#21305)",
		Summary: "KIP-848: an epoch-0 rejoin of a still-registered member is judged stale and fenced again",
		// The client must be fenced while the coordinator still holds it at an epoch whose
		// previous epoch is not 0: two group-epoch bumps it never hears of. a and b join
		// (epochs 1, 2); a's response to the heartbeat that moves it to epoch 2 is lost; b
		// crashes and its (free) session expiry bumps the epoch to 3; a's retry at epoch 1 is
		// still its previous epoch, so it is accepted and moves a to 3, and that response is
		// lost too. a's next heartbeat at epoch 1 is fenced; it drops its partition and
		// rejoins at epoch 0, which the fault judges stale: fenced again, forever — the
		// partition stays with a on the coordinator and with nobody in the client. Nothing is
		// owned twice, so no safety property fails: a fair cycle of two steps (rejoin, fenced).
		// The session timeout that ends it in Kafka is a budgeted event here, never forced.
		World:   worlds.MustText("mutants/stale-check-on-rejoin"),
		Catches: []string{ConvergesName},
	},
	{
		Fault: impl.FaultInFlightStuckOnError, Bug: "B21", Source: "KAFKA-16215 / KAFKA-16178",
		Summary: "KIP-848 client: an error response never clears the in-flight heartbeat, so the member never heartbeats again",
		// a's session expires while it is alive; its next heartbeat is answered
		// UNKNOWN_MEMBER_ID, it loses its partitions and is stuck JOINING without sending.
		// The stuck member owns nothing and sends nothing, so no safety property fails: 1,658
		// of 1,775 worlds can never converge, ending in a dead end.
		World:   worlds.MustText("mutants/in-flight-stuck-on-error"),
		Catches: []string{ConvergesName},
	},
	{
		Fault: impl.FaultBalanceMovesOwned, Bug: "B27", Source: "KAFKA-8767 (apache/kafka#7130, #7503)",
		Summary: "sticky balancing sacrifices stickiness for balance after the revocation round, so cooperative needs a third rebalance",
		// Converged: a owns t-0, b t-1 and t-2. c joins; gen N+1 takes b's t-1 for c (revoked,
		// withheld). In gen N+2 the freed t-1 lands on a, which is then overloaded, and the
		// fault moves a's owned t-0 rather than t-1: a second revocation, so gen N+3. Every
		// partition still has one owner at a time (cooperative withholds it), so no
		// ownership property fails and the group converges: the bound on rounds sees the
		// third rebalance (docs/protocol.md §2.8: normally two), sticky-least-movement the round that
		// keeps one claim where a balanced one keeps two.
		World:     worlds.MustText("mutants/balance-moves-owned"),
		Catches:   []string{"sticky-least-movement"},
		MaxRounds: 2,
	},
	{
		Fault: impl.FaultPlanSkipsWithhold, Bug: "KIP-429", Source: "docs/protocol.md §7.2.6",
		Summary: "the KIP variant's leader plan hands a maybe-revoking partition to its new owner instead of withholding it",
		// a leads gen 1 alone and owns t-0 t-1 t-2; t gains a partition and a's metadata
		// rejoin keeps all three (§1.b) while b joins; gen 2 moves t-2 to b, and the plan
		// encodes it to b at once while a owns it until it applies its own assignment.
		World:   worlds.MustText("mutants/plan-skips-withhold"),
		Catches: []string{"exclusive-ownership", "no-handover-while-owned"},
	},
	{
		Fault: impl.FaultPlanSkipsNeedsRejoin, Bug: "KIP-429", Source: "docs/protocol.md §7.2.6, §7.3.5.2",
		Summary: "the KIP variant's leader plan withholds a moving partition but sets no NEEDS_REJOIN, so nobody rejoins for it",
		// The same round: t-2 is withheld from b and revoked by a, but under KIP-429's
		// consumer only NEEDS_REJOIN makes a member rejoin after a completed round (§3.5), so
		// the group stays Stable with t-2 owned by nobody: a dead end.
		World:   worlds.MustText("mutants/plan-skips-needs-rejoin"),
		Catches: []string{ConvergesName},
	},
	{
		Fault: impl.FaultHeartbeatFencingAsRebalance, Bug: "sarama", Source: "IBM/sarama consumer_group.go heartbeatLoop",
		Summary: "a Heartbeat answered UNKNOWN_MEMBER_ID is taken for a rebalance: the member rejoins keeping its member id and generation",
		// a's session expires while it lives; its next heartbeat is answered
		// UNKNOWN_MEMBER_ID and it rejoins as after REBALANCE_IN_PROGRESS, still a#1 at its
		// generation, owning its partitions (revoked, not lost, had it been eager). Its
		// JoinGroup is answered UNKNOWN_MEMBER_ID in turn, and then it resets: the group
		// converges, every other safety property holds (the zombie window is the expected
		// one), and only fenced-means-stop sees the answer ignored.
		World:   worlds.MustText("mutants/heartbeat-fencing-as-rebalance"),
		Catches: []string{"fenced-means-stop"},
	},
	{
		Fault: impl.FaultCommitIgnoresFencing, Bug: "sarama", Source: "IBM/sarama offset_manager.go handleResponse",
		Summary: "an OffsetCommit answered UNKNOWN_MEMBER_ID or ILLEGAL_GENERATION is only reported as failed; the member keeps its identity",
		// a's session expires while it lives; its commit is answered UNKNOWN_MEMBER_ID and it
		// carries on as a#1, committing again until a heartbeat tells it the same. Nothing
		// is accepted from it (commit-fencing holds) and it converges once the heartbeat
		// resets it: only fenced-means-stop sees the answer ignored.
		World:   worlds.MustText("mutants/commit-ignores-fencing"),
		Catches: []string{"fenced-means-stop"},
	},
	{
		Fault: impl.FaultKeepsEpochWhenFenced, Bug: "invert", Source: "AbstractMembershipManager.transitionToFenced (resetEpoch), inverted",
		Summary: "KIP-848: a member answered FENCED_MEMBER_EPOCH loses its partitions and rejoins, but keeps its epoch",
		// B18's world: a's heartbeat at epoch 1 is fenced (two group-epoch bumps it never
		// heard of). It drops its partition and rejoins under epoch 1, which is fenced
		// again, forever: no safety property fails (it owns nothing), fenced-means-stop sees
		// the first answer kept (the shortest trace), and converges the loop it makes.
		World:   worlds.MustText("mutants/keeps-epoch-when-fenced"),
		Catches: []string{"fenced-means-stop", ConvergesName},
	},
	{
		Fault: impl.FaultJoinWaitsForTimer, Bug: "invert", Source: "GroupCoordinator.tryCompleteJoin (docs/protocol.md §1.3), dropped",
		Summary: "the classic coordinator completes no join phase early: every phase waits for the rebalance timeout though all members rejoined",
		// b joins after the initial delay made a the group alone: a rejoins, and the phase
		// with both parked waits for its timer. The same steps happen, only later (the join
		// timer is free once everyone rejoined), so every other property holds and the rounds
		// are the same; prompt sees the phase that waits, the time to converge grows by the
		// rebalance timeout.
		World:   twoCooperative,
		Catches: []string{PromptName},
	},
}
