package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// Mutant is a named fault of the reference (impl.Fault), documented with its real source, and
// the smallest world in which the explorer catches it — by a general property, never one
// written for that mutant. Mutants are how we know the properties bite.
type Mutant struct {
	Fault   impl.Fault
	Bug     string // the BUGS.md entry, e.g. "B7"
	Source  string // JIRA id, PR or the seed section
	Summary string // one line: what goes wrong
	// World is the config (in the config-file format, without a fault directive) in which
	// the fault is caught; empty when no safety property can catch it.
	World string
	// Catches are the properties the fault violates in World, and which hold there without
	// the fault; ConvergesName is the liveness check (Liveness).
	Catches []string
	// Uncaught says why no property catches the mutant yet, when Catches is empty.
	Uncaught string
	// MaxStates bounds the faulty world's exploration when the fault makes it grow without
	// end (an eviction loop); 0 means it is explored exhaustively. BFS still returns the
	// shortest counterexample within the bound.
	MaxStates int64
}

// Config is the mutant's world with its fault switched on.
func (m Mutant) Config() (spec.Config, error) {
	c, err := spec.ParseConfigString(m.Fault.String(), m.World)
	if err != nil {
		return spec.Config{}, fmt.Errorf("mutant %s: %w", m.Fault, err)
	}
	c.Faults = c.Faults.With(m.Fault)
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
	twoEagerSticky = `protocol eager
consumer kafka
coordinator kafka
assignor sticky
topic t 2
member a topics=t
member b topics=t
`
)

// Mutants is the registry, in BUGS.md order.
var Mutants = []Mutant{
	{
		Fault: impl.FaultJoinTimerZero, Bug: "B1", Source: "KAFKA-8653",
		Summary: "JoinGroup v0's rebalance timeout is lost: the join phase times out at once and evicts live members",
		// No budget lets the coordinator remove a live member here, so the zombie the fault
		// makes is not the expected window: the strict form catches it. The eviction loop
		// itself is a liveness failure.
		World:     twoCooperative + "budget leaves=1\n",
		Catches:   []string{"exclusive-ownership-strict"},
		MaxStates: 30000,
	},
	{
		Fault: impl.FaultNoSyncTimer, Bug: "B3", Source: "KAFKA-12890",
		Summary:  "no sync-phase timer: a member that never syncs keeps the group in CompletingRebalance",
		Uncaught: "a liveness bug (the group never stabilises); needs eventually-properties",
	},
	{
		Fault: impl.FaultSkipJoinPrepareAfterReset, Bug: "B7", Source: "KAFKA-12983",
		Summary: "after a reset mid-rebalance the consumer skips onJoinPrepare and keeps claiming its partitions",
		World:   twoCooperative + "budget session-timeouts=1\n",
		Catches: []string{"exclusive-ownership", "no-handover-while-owned"},
	},
	{
		Fault: impl.FaultStaleClaimAfterSyncRebalance, Bug: "B8a", Source: "KAFKA-13419",
		Summary:  "after REBALANCE_IN_PROGRESS on SyncGroup the old partitions are claimed under the new generation's label, user data included",
		Uncaught: "the KAFKA-14639 arbitration makes a stale label harmless in the worlds explored; the world where labels go stale (static members, join and sync timeouts) already fails without the fault",
	},
	{
		Fault: impl.FaultResetGenerationOnSyncRebalance, Bug: "B8b", Source: "KAFKA-13891 → KAFKA-14016",
		Summary:  "REBALANCE_IN_PROGRESS on SyncGroup resets the generation, so the member gives up more than it must",
		Uncaught: "over-revocation and extra rounds: a liveness/efficiency bug, not a safety one",
	},
	{
		Fault: impl.FaultValidateBuiltinCooperative, Bug: "B9", Source: "KAFKA-13406",
		Summary:  "the leader validates the built-in cooperative-sticky assignment and fails the round on stale claims",
		Uncaught: "a livelock (the round fails forever); needs eventually-properties",
	},
	{
		Fault: impl.FaultDropLowerGenerationClaims, Bug: "B10", Source: "KAFKA-14639",
		Summary:  "the leader drops every claim of a member below the highest generation, so a sole stale owner's partition is handed over while owned",
		Uncaught: "needs a member that missed a round while keeping its partitions; the small world that has one (two static members, a join timeout) already fails without the fault (README: static members kept with stale metadata)",
	},
	{
		Fault: impl.FaultStickyMergeWithoutGeneration, Bug: "B11", Source: "KAFKA-7026 (KIP-341)",
		Summary: "the eager sticky assignor merges cached previous assignments without generation precedence",
		World:   twoEagerSticky + "budget lost-responses=1\n",
		Catches: []string{"exclusive-ownership", "sync-assignment-valid"},
	},
	{
		Fault: impl.FaultEagerKeepsOwnedList, Bug: "B23", Source: "franz-go #686 (fix #720, v1.17.0)",
		Summary: "an eager member revokes everything but still advertises its last assignment as owned",
		World:   twoEagerSticky + "budget crashes=1\n",
		Catches: []string{"exclusive-ownership", "no-handover-while-owned", "revoke-before-reassign"},
	},
	{
		Fault: impl.FaultRecomputeWhileRevoking, Bug: "B17", Source: "KAFKA-16249",
		Summary: "KIP-848: a new target is applied to a revoking member without its acknowledgement, and the rebalance timer is re-armed",
		// A third member joins while a revokes: the second target is applied to a in
		// UNREVOKED_PARTITIONS ignoring the acknowledgement its request carried; the client
		// does not resend it, so a's record keeps the revoked partition forever, the new owner
		// waits in UNRELEASED_PARTITIONS, and the re-armed timer never fences a.
		// No safety property fails (the coordinator still enforces a single holder): 720 of
		// 8,206 worlds can never converge, ending in a dead end.
		World:   twoKIP848 + "member c topics=t absent\nbudget joins=1\n",
		Catches: []string{ConvergesName},
	},
	{
		Fault: impl.FaultStaleCheckOnRejoin, Bug: "B18", Source: "KAFKA-19233 (apache/kafka#21305)",
		Summary: "KIP-848: an epoch-0 rejoin of a still-registered member is judged stale and fenced again",
		Uncaught: "a liveness bug, and not reached in the two-member worlds explored (crashes, session and rebalance " +
			"timeouts, up to two lost responses): a client is only fenced while still registered when it is two " +
			"epochs behind, which needs two target changes it misses; there the faulty and correct worlds have " +
			"the same state counts (e.g. 35477 with lost-responses=2)",
	},
	{
		Fault: impl.FaultInFlightStuckOnError, Bug: "B21", Source: "KAFKA-16215 / KAFKA-16178",
		Summary: "KIP-848 client: an error response never clears the in-flight heartbeat, so the member never heartbeats again",
		// a's session expires while it is alive; its next heartbeat is answered
		// UNKNOWN_MEMBER_ID, it loses its partitions and is stuck JOINING without sending.
		// The stuck member owns nothing and sends nothing, so no safety property fails: 1,658
		// of 1,775 worlds can never converge, ending in a dead end.
		World:   twoKIP848 + "budget session-timeouts=1 rebalance-timeouts=1\n",
		Catches: []string{ConvergesName},
	},
}
