package kip848

import "github.com/groupcheck/groupcheck/impl"

// Config is the coordinator's fixed configuration. It travels inside every Group value but
// never changes, and it is not part of the canonical encoding.
type Config struct {
	// Variant selects the reconciliation rules: impl.Kafka is CurrentAssignmentBuilder after
	// KAFKA-16249 (docs/protocol.md §3.4); impl.KIP is the KIP-848 draft (docs/protocol.md §8): revoke, wait for
	// the acknowledgement, then move to the target epoch and assign.
	Variant impl.Variant
	// Assignor is the server assignor run by Heartbeat: AssignorUniform (the default when
	// empty) or AssignorRange. HeartbeatAssign takes any other AssignFunc (the `any` assignor).
	Assignor string
	// Faults switches on deliberate defects: impl.FaultRecomputeWhileRevoking (B17) and
	// impl.FaultStaleCheckOnRejoin (B18).
	Faults impl.Faults
	// MaxSize is group.consumer.max.size; 0 means unlimited. Reference: docs/protocol.md §3.3 step 2.
	MaxSize int
	// CommitRule is how an OffsetCommit's member epoch is validated: KIP-1251's assignment
	// epochs (the zero value, Kafka 4.3 on) or the exact epoch of Kafka 4.0 to 4.2.
	// Reference: docs/protocol.md §3.1 (OffsetCommit).
	CommitRule CommitRule
	// MigrationPolicy is group.consumer.migration.policy: whether classic members may join
	// and when the group converts to and from a classic group (policy.go, migration.go).
	MigrationPolicy MigrationPolicy
	// ClassicMaxSize is group.max.size, consulted by an online downgrade: a group with more
	// members stays a consumer group. 0 means unlimited.
	ClassicMaxSize int
}

// CommitRule is the coordinator's rule for the member epoch an OffsetCommit carries.
type CommitRule int8

const (
	// CommitAssignmentEpochs is KIP-1251's rule (KAFKA-20066, Kafka 4.3 on): a commit at an
	// epoch older than the member's is accepted for partitions the member was assigned at or
	// before that epoch (ConsumerGroup.validateOffsetCommit, createAssignmentEpochValidator).
	// It is the zero value: the current Kafka's rule. Each member then keeps the epoch it was
	// assigned each partition at (Member.AssignedAt).
	CommitAssignmentEpochs CommitRule = iota
	// CommitExactEpoch is the rule of Kafka 4.0 to 4.2: a commit must carry the member's
	// epoch exactly (ConsumerGroup.validateOffsetCommit → validateMemberEpoch).
	CommitExactEpoch
)

// commitRuleNames are the rules' names in the config-file format (spec's commit-epochs).
var commitRuleNames = [...]string{CommitAssignmentEpochs: "kip-1251", CommitExactEpoch: "exact"}

// String is the rule's name in the config-file format: kip-1251 or exact.
func (r CommitRule) String() string {
	if r < 0 || int(r) >= len(commitRuleNames) {
		return "invalid-commit-rule"
	}
	return commitRuleNames[r]
}

// ParseCommitRule is the rule a name (CommitRule.String) stands for.
func ParseCommitRule(s string) (CommitRule, bool) {
	for r, name := range commitRuleNames {
		if name == s {
			return CommitRule(r), true
		}
	}
	return 0, false
}

// KeepsAssignmentEpochs reports whether the rule reads the epoch each partition was assigned
// at, so that members must keep it.
func (r CommitRule) KeepsAssignmentEpochs() bool { return r == CommitAssignmentEpochs }

// The server-side assignors (group.consumer.assignors; docs/protocol.md §3.3 step 5).
const (
	AssignorUniform = "uniform"
	AssignorRange   = "range"
)

// MemberState is the coordinator's reconciliation state of one member
// (modern/MemberState.java; docs/protocol.md §3.4). UNKNOWN (a state written by a newer broker) is
// not modelled.
type MemberState int8

const (
	// Stable: the member holds its whole reconciled assignment at its epoch.
	Stable MemberState = iota
	// UnrevokedPartitions: the member must first revoke PartitionsPendingRevocation; its
	// rebalance timer runs.
	UnrevokedPartitions
	// UnreleasedPartitions: the member is at the target epoch but waits for partitions that
	// other members still hold.
	UnreleasedPartitions
)

func (s MemberState) String() string {
	switch s {
	case Stable:
		return "STABLE"
	case UnrevokedPartitions:
		return "UNREVOKED_PARTITIONS"
	case UnreleasedPartitions:
		return "UNRELEASED_PARTITIONS"
	}
	return "INVALID_MEMBER_STATE"
}

// GroupState is the derived state of the group (ConsumerGroup.maybeUpdateGroupState;
// docs/protocol.md §3.2). DEAD (deleted or unloaded) is not modelled: the group always exists.
type GroupState int8

const (
	// Empty: no members.
	Empty GroupState = iota
	// Assigning: the group epoch is ahead of the target assignment epoch (lazy assignment).
	Assigning
	// Reconciling: some member is not STABLE at the assignment epoch.
	Reconciling
	// StableGroup: every member is STABLE at the assignment epoch.
	StableGroup
)

func (s GroupState) String() string {
	switch s {
	case Empty:
		return "EMPTY"
	case Assigning:
		return "ASSIGNING"
	case Reconciling:
		return "RECONCILING"
	case StableGroup:
		return "STABLE"
	}
	return "INVALID_GROUP_STATE"
}
