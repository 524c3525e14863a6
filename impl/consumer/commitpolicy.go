package consumer

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// CommitPolicy is how the application's commits reach the coordinator: in which join states
// a commit is sent, with which generation, and how the client reacts to the commit's error
// answers. Each real client's own handling is a variant. docs/protocol.md §1.8, §1.11.
type CommitPolicy uint8

const (
	// CommitJava is Java's ConsumerCoordinator, for commitSync and commitAsync alike: a
	// commit carries generationIfStable(), so outside STABLE it fails locally
	// (sendOffsetCommitRequest: RebalanceInProgressException while rebalancing,
	// CommitFailedException otherwise), and OffsetCommitResponseHandler reacts as
	// OnOffsetCommitResponse documents. An application committing from onPartitionsRevoked
	// commits while still STABLE (onJoinPrepare runs before the JoinGroup is sent).
	CommitJava CommitPolicy = iota
	// CommitLibrdkafka is librdkafka's classic consumer (rdkafka_cgrp.c,
	// rd_kafka_cgrp_offsets_commit): a commit goes out in any join state with the generation
	// and member id the client holds (rkcg_generation_id, rkcg_member_id); one after the
	// assignment was lost fails locally (__ASSIGNMENT_LOST). The answer
	// (rd_kafka_cgrp_op_handle_OffsetCommit): UNKNOWN_MEMBER_ID clears the member id and
	// loses the assignment, whatever generation the commit carried; ILLEGAL_GENERATION does
	// the same with the generation unless the client is rebalancing
	// (RD_KAFKA_CGRP_REBALANCING); FENCED_INSTANCE_ID is fatal (rdkafka_request.c,
	// rd_kafka_handle_OffsetCommit: ACTION_FATAL); REBALANCE_IN_PROGRESS only fails the commit.
	CommitLibrdkafka
	// CommitFranzGo is franz-go's kgo (pkg/kgo/consumer_group.go, groupConsumer.commit): a
	// commit carries the member id and generation the client holds (memberGen), and waits
	// while a JoinGroup or SyncGroup is in flight (noCommitDuringJoinAndSync), so it is
	// never sent then. UNKNOWN_MEMBER_ID and ILLEGAL_GENERATION make the classic client
	// rejoin at once without giving anything up (commitHasFatalMemberError → g.rejoin; the
	// JoinGroup's own answer then does the rest); FENCED_INSTANCE_ID and
	// REBALANCE_IN_PROGRESS only fail the commit.
	CommitFranzGo
	numCommitPolicies
)

var commitPolicyNames = [numCommitPolicies]string{"java", "librdkafka", "franz-go"}

func (p CommitPolicy) String() string {
	if p < numCommitPolicies {
		return commitPolicyNames[p]
	}
	return fmt.Sprintf("CommitPolicy(%d)", uint8(p))
}

// ParseCommitPolicy reads a policy's name.
func ParseCommitPolicy(s string) (CommitPolicy, bool) {
	for i, n := range commitPolicyNames {
		if n == s {
			return CommitPolicy(i), true
		}
	}
	return 0, false
}

// CommitGate is what a commit the application makes now does under policy p: Send it (with
// the generation the client holds), fail it locally with Local, or neither (Wait: the client
// holds it back until the join round ends, or, franz-go after a lost membership, has nothing
// left to commit: manageFailWait ran onLost and dropped the uncommitted offsets).
// Reference: CommitPolicy's constants.
type CommitGate struct {
	Send  bool
	Wait  bool
	Local impl.ErrorCode // when neither Send nor Wait
}

// GateCommit decides a commit by policy, join status and whether the generation was reset
// (membership lost; the owned partitions are lost at the next onJoinPrepare).
func GateCommit(p CommitPolicy, s ClientState, reset bool) CommitGate {
	switch p {
	case CommitLibrdkafka:
		if reset {
			return CommitGate{Local: impl.IllegalGeneration} // __ASSIGNMENT_LOST
		}
		return CommitGate{Send: true}
	case CommitFranzGo:
		if reset || s == PreparingRebalance || s == CompletingRebalance {
			return CommitGate{Wait: true}
		}
		return CommitGate{Send: true}
	}
	switch s {
	case Stable:
		return CommitGate{Send: true}
	case PreparingRebalance, CompletingRebalance:
		return CommitGate{Local: impl.RebalanceInProgress}
	}
	return CommitGate{Local: impl.IllegalGeneration}
}

// CommitReaction is what a client does with a commit's error answer.
type CommitReaction uint8

const (
	CommitNothing         CommitReaction = iota // only the commit failed
	CommitRejoin                                // rejoin, keeping member id, generation and partitions
	CommitResetGeneration                       // generation reset: partitions lost, rejoin
	CommitResetMember                           // generation and member id reset: partitions lost, rejoin
	CommitFatal                                 // the consumer stops with the error
)

// ReactToCommit is a client's reaction under policy p to a commit answered err. current says
// whether the commit carried the generation the client holds now; s is its join status.
// Reference: CommitPolicy's constants; Java's rows are docs/protocol.md §1.11 (OffsetCommit).
func ReactToCommit(p CommitPolicy, err impl.ErrorCode, current bool, s ClientState) CommitReaction {
	switch p {
	case CommitLibrdkafka:
		switch err {
		case impl.UnknownMemberID:
			return CommitResetMember
		case impl.IllegalGeneration:
			if s == PreparingRebalance || s == CompletingRebalance {
				return CommitNothing
			}
			return CommitResetGeneration
		case impl.FencedInstanceID:
			return CommitFatal
		}
		return CommitNothing
	case CommitFranzGo:
		if err == impl.UnknownMemberID || err == impl.IllegalGeneration {
			return CommitRejoin
		}
		return CommitNothing
	}
	switch err {
	case impl.RebalanceInProgress:
		return CommitRejoin
	case impl.UnknownMemberID, impl.IllegalGeneration:
		if current || s != PreparingRebalance {
			if err == impl.UnknownMemberID {
				return CommitResetMember
			}
			return CommitResetGeneration
		}
	case impl.FencedInstanceID:
		if current {
			return CommitFatal
		}
	}
	return CommitNothing
}
