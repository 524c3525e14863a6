package impl

import (
	"math/bits"
	"strings"
)

// Fault is one deliberate, named defect that can be switched on in the reference, usually a
// documented real bug (docs/bugs.md). Mutants prove that the checker's properties bite:
// each one must be caught by a general property, never one written for it.
type Fault uint8

// The faults the reference roles know. Each names its source; the role that honours it says
// how in its own doc comment.
const (
	// FaultJoinTimerZero: the join phase times out at once (KAFKA-8653, B1).
	FaultJoinTimerZero Fault = iota
	// FaultNoSyncTimer: no sync-phase timer; a member that never syncs stalls the group in
	// CompletingRebalance (KAFKA-12890, B3).
	FaultNoSyncTimer
	// FaultSkipJoinPrepareAfterReset: after a reset mid-rebalance the consumer does not re-run
	// onJoinPrepare, so it keeps claiming its partitions (KAFKA-12983, B7).
	FaultSkipJoinPrepareAfterReset
	// FaultStaleClaimAfterSyncRebalance: after REBALANCE_IN_PROGRESS on SyncGroup the
	// consumer's claim holds the old partitions under the new generation's label — as Java's
	// v2 field always does — and the fault extends the stale label to cooperative-sticky's
	// user-data generation, which a leader reading v1 subscriptions trusts (KAFKA-13419, B8a).
	FaultStaleClaimAfterSyncRebalance
	// FaultResetGenerationOnSyncRebalance: the consumer resets its generation on
	// REBALANCE_IN_PROGRESS from SyncGroup (KAFKA-13891 → KAFKA-14016, B8b).
	FaultResetGenerationOnSyncRebalance
	// FaultValidateBuiltinCooperative: the leader validates the built-in cooperative-sticky
	// assignment and fails the round on stale conflicting claims (KAFKA-13406, B9).
	FaultValidateBuiltinCooperative
	// FaultDropLowerGenerationClaims: the cooperative-sticky leader ignores every claim of a
	// member whose generation is below the maximum (pre-KAFKA-14639 arbitration, B10).
	FaultDropLowerGenerationClaims
	// FaultStickyMergeWithoutGeneration: the eager sticky assignor merges members' cached
	// previous assignments without generation precedence (KAFKA-7026, B11).
	FaultStickyMergeWithoutGeneration
	// FaultEagerKeepsOwnedList: an eager member revokes everything but still advertises its
	// last assignment as owned in the next subscription (franz-go #686, B23).
	FaultEagerKeepsOwnedList
	// FaultRecomputeWhileRevoking: the KIP-848 coordinator recomputes a revoking member's
	// assignment from a new target without looking at its owned partitions, and re-arms the
	// rebalance timer on every target change (KAFKA-16249, B17).
	FaultRecomputeWhileRevoking
	// FaultStaleCheckOnRejoin: the KIP-848 coordinator applies the stale-epoch check to an
	// epoch-0 rejoin of a registered member (KAFKA-19233, B18).
	FaultStaleCheckOnRejoin
	// FaultInFlightStuckOnError: the KIP-848 client never clears its heartbeat in-flight marker
	// on an error response, so it never heartbeats again (KAFKA-16215/16178, B21).
	FaultInFlightStuckOnError
	// FaultBalanceMovesOwned: the sticky balancing puts balance before stickiness — unowned
	// partitions are heaped on the first member, then moved off it without preferring the ones
	// it did not own — so an owned partition can move where a newly placed one would balance as
	// well: under cooperative one more revocation, hence a third round (KAFKA-8767,
	// apache/kafka#7130, B27).
	FaultBalanceMovesOwned
	// FaultPlanSkipsWithhold: the KIP variant's leader plan encodes a maybe-revoking partition to its
	// new owner instead of withholding it (docs/protocol.md §7.2.6 omitted: the hazard the step exists for).
	FaultPlanSkipsWithhold
	// FaultPlanSkipsNeedsRejoin: the KIP variant's leader plan withholds but sets no NEEDS_REJOIN, so
	// nothing tells the members to rejoin for the withheld partition (docs/protocol.md §7.2.6, §7.3.5.2).
	FaultPlanSkipsNeedsRejoin
	// FaultHeartbeatFencingAsRebalance: the classic consumer takes a Heartbeat answered
	// UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION or FENCED_INSTANCE_ID for a rebalance: it rejoins
	// but keeps its member id and generation, so its partitions are revoked, not lost, and its
	// next JoinGroup carries the fenced member id (IBM/sarama consumer_group.go heartbeatLoop,
	// which ends the session as for REBALANCE_IN_PROGRESS and keeps memberID).
	FaultHeartbeatFencingAsRebalance
	// FaultCommitIgnoresFencing: the classic consumer reports an OffsetCommit answered
	// UNKNOWN_MEMBER_ID or ILLEGAL_GENERATION as a failed commit and does nothing else; only a
	// later heartbeat resets it (IBM/sarama offset_manager.go handleResponse, whose default
	// branch tells the user and redispatches).
	FaultCommitIgnoresFencing
	// FaultKeepsEpochWhenFenced: the KIP-848 client answered FENCED_MEMBER_EPOCH loses its
	// partitions and rejoins but keeps its member epoch, so its join heartbeat carries the
	// fenced epoch (the inverse of AbstractMembershipManager.transitionToFenced's resetEpoch).
	FaultKeepsEpochWhenFenced
	// FaultJoinWaitsForTimer: the classic coordinator never completes a join phase early:
	// every phase waits for its timer, as the initial delay does, although every member has
	// rejoined (GroupCoordinator.tryCompleteJoin's early completion dropped; docs/protocol.md
	// §1.3). Appended so that the faults above keep their bits.
	FaultJoinWaitsForTimer
	numFaults
)

var faultNames = [numFaults]string{
	"join-timer-zero",
	"no-sync-timer",
	"skip-join-prepare-after-reset",
	"stale-claim-after-sync-rebalance",
	"reset-generation-on-sync-rebalance",
	"validate-builtin-cooperative",
	"drop-lower-generation-claims",
	"sticky-merge-without-generation",
	"eager-keeps-owned-list",
	"recompute-while-revoking",
	"stale-check-on-rejoin",
	"in-flight-stuck-on-error",
	"balance-moves-owned",
	"plan-skips-withhold",
	"plan-skips-needs-rejoin",
	"heartbeat-fencing-as-rebalance",
	"commit-ignores-fencing",
	"keeps-epoch-when-fenced",
	"join-waits-for-timer",
}

// String is the fault's kebab-case name, as used on the command line and in config files.
func (f Fault) String() string {
	if f < numFaults {
		return faultNames[f]
	}
	return "invalid-fault"
}

// ParseFault maps a fault name back to the fault.
func ParseFault(name string) (Fault, bool) {
	for i, n := range faultNames {
		if n == name {
			return Fault(i), true
		}
	}
	return 0, false
}

// AllFaults lists every fault in declaration order.
func AllFaults() []Fault {
	out := make([]Fault, numFaults)
	for i := range out {
		out[i] = Fault(i)
	}
	return out
}

// Faults is a set of faults; the zero value is the correct reference.
type Faults uint32

// With returns the set with f switched on.
func (s Faults) With(f Fault) Faults { return s | 1<<f }

// Has reports whether f is switched on.
func (s Faults) Has(f Fault) bool { return s&(1<<f) != 0 }

// String lists the faults switched on, comma-separated, or "none".
func (s Faults) String() string {
	if s == 0 {
		return "none"
	}
	names := make([]string, 0, bits.OnesCount32(uint32(s)))
	for _, f := range AllFaults() {
		if s.Has(f) {
			names = append(names, f.String())
		}
	}
	return strings.Join(names, ",")
}
