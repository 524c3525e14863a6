package invariants

import (
	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// Property is one named property of spec worlds. Exactly one of State and Step is set. Each
// returns "" when the property holds and otherwise says why it does not, naming members and
// partitions, so that a report can explain a counterexample's last step. Both read their
// worlds by pointer (a World is 456 bytes, and a step runs some thirty step properties) and
// must neither write through it nor keep it past the call.
type Property struct {
	Name      string
	Kind      explorer.Kind
	Statement string // one line
	Source    string // KIP section, docs/protocol.md section or JIRA id
	State     func(w *spec.World) string
	Step      func(pre *spec.World, ev []spec.Event, post *spec.World) string
	// Applies says whether the property is meaningful for a config (e.g. "a fenced member is
	// reachable" only when fencing events are budgeted). Nil means always.
	Applies func(c spec.Config) bool
	// Expected, when it returns a reason, marks a violation as one the protocol cannot
	// prevent in that config (the zombie window): it is reported, with its counterexample
	// and the reason, but does not fail the run. Nil means never expected.
	Expected func(c spec.Config) string
}

// ExpectedViolation is the reason a violation of p is expected in c, or "".
func (p Property) ExpectedViolation(c spec.Config) string {
	if p.Expected == nil {
		return ""
	}
	return p.Expected(c)
}

// For lists the properties that apply to a config, in a fixed order.
func For(c spec.Config) []Property {
	var out []Property
	for _, p := range All() {
		if c.Mixed() && !mixedProperties[p.Name] {
			continue // written for worlds of one protocol (see mixed.go)
		}
		if p.Applies == nil || p.Applies(c) {
			out = append(out, p)
		}
	}
	return out
}

// All is every property groupcheck knows, in report order.
func All() []Property {
	return []Property{
		exclusiveOwnership, exclusiveOwnershipStrict, syncAssignmentValid, commitFencing,
		noHandoverWhileOwned, generationMonotonic, coordinatorTransitions, callbackConsistency,
		lostOnlyAfterMembershipLost, claimsTruthful, convergedReachable, fencedReachable,
		// KIP-848 (protocol consumer), after the classic ones so that their report order stays.
		kip848PartitionEpochs, kip848TargetExclusive, kip848ExclusiveOwnership,
		kip848ExclusiveOwnershipStrict, kip848EpochMonotonic, kip848CommitFencing,
		kip848ConvergedReachable,
		// Reaction properties (both protocols), last so that the state properties' order stays.
		fencedMeansStop, noOrphanMember,
		// Only where group-max-size is set: no other config's report changes.
		groupMaxSize,
		// The strict form of commit-fencing, appended so that the report order stays.
		commitFencingStrict,
		// The commits' vacuity guard, last for the same reason.
		commitAccepted,
		// KIP-848 timers (revocations bounded, fencing reached where timers are budgeted) and
		// well-formed heartbeats.
		kip848RevocationTimer, kip848FencedReachable, kip848RequestsValid, kip848NoFatal,
		// The built-in assignors' balance where the group settled, last for the same reason.
		convergedBalanced,
		// Classic client bookkeeping (answers matched to requests) and the auto-commit before a
		// revocation, appended for the same reason.
		answersExpected, commitBeforeRevoke,
		// Classic members stop only for a cause the config allows; an accepted leave was
		// applied.
		noFatal, leaveApplied,
		// A rebalance (a KIP-848 epoch bump) has a cause.
		rebalanceCause, kip848EpochCause,
		// The KIP-848 epoch rule; commits reported as answered.
		kip848EpochChecked, commitReported,
		// The classic coordinator's answers: a JoinGroup answer's shape, a generation's leader
		// joined it, KIP-389's refusal only past the bound, a rebalance when one is due.
		joinAnswer, joinedLeader, maxSizeRefusal, joinReaction,
		// KIP-848: one record per instance, a target fixed within its epoch, a member's own
		// leave accepted.
		kip848StaticUnique, kip848TargetStable, kip848LeaveAccepted,
		// The classic group's state agrees with its members; the KIP-848 server assignors'
		// balance.
		coordinatorConsistent, kip848TargetBalanced,
		// The classic protocol vote.
		protocolVote,
		// The classic leader's assignors against their documented algorithms.
		assignorExact, anyComplete,
		// The KIP-848 client's listener contract, its leave, its commit before a revocation; a
		// fatal stop reported (both protocols).
		kip848Listener, kip848LeaveSent, kip848CommitBeforeRevoke, fatalReported,
		// The sticky assignors' balance and stickiness per round; a follow-up on the member asked.
		stickyLeastMovement, followupAsked,
		// The classic rebalance listener's contract: when each callback is called.
		callbackContract,
		// A failed or closed classic client stays as it stopped.
		stoppedStaysStopped,
		// A classic client rejoins only for a cause; a follow-up is carried out as Streams does.
		rejoinCause,
		// KIP-394: the member id MEMBER_ID_REQUIRED hands out is adopted.
		memberIDAdopted,
		// Both protocols: a client gives its coordinator up only when told it moved.
		rediscoverWhenTold,
		// A classic member without a generation joins owning nothing.
		resetLosesPartitions,
		// KIP-423: a JoinGroup says why the member rejoins.
		joinReason,
		// A classic client's state changes only for its cause; a poll timeout resets it.
		clientStates,
		// An eager member joins owning nothing.
		eagerJoinsEmpty,
		// The classic join phase's deadline: due exactly when firing changes the group.
		joinDeadline,
		// KIP-394's coordinator half: a v4+ dynamic join without id gets MEMBER_ID_REQUIRED.
		memberIDRequired,
		// Both protocols: what an old broker and a loading coordinator answer.
		awayAnswer,
		// A classic leader reads each subscription at its own version.
		leaderReadsOwnVersion,
		// KIP-345: a slow static member survives the join deadline (reachability).
		staticKept,
		// KIP-429 §1: the KIP variant's member enters each JoinGroup owning what its trigger keeps.
		joinPlan,
		// Both protocols: no timer waited on when the protocol could move without it.
		prompt,
		// Mixed worlds: ownership and commit fencing across the classic/consumer seam.
		mixedExclusiveOwnership, mixedExclusiveOwnershipStrict, mixedCommitFencing,
		mixedCounterMonotonic,
	}
}

// Lookup finds a property by name.
func Lookup(name string) (Property, bool) {
	for _, p := range All() {
		if p.Name == name {
			return p, true
		}
	}
	return Property{}, false
}
