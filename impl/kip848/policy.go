package kip848

import (
	"fmt"
	"strings"
)

// MigrationPolicy is group.consumer.migration.policy: which online conversions between a
// classic group and a consumer group the coordinator performs for a non-empty group (an empty
// group converts either way whatever the policy). Its zero value is Kafka's default,
// bidirectional. Reference: ConsumerGroupMigrationPolicy and GroupCoordinatorConfig
// (CONSUMER_GROUP_MIGRATION_POLICY_DEFAULT), apache/kafka group-coordinator 4.4.0.
type MigrationPolicy int8

const (
	// MigrationBidirectional: upgrade and downgrade are both enabled (the default).
	MigrationBidirectional MigrationPolicy = iota
	// MigrationUpgrade: only classic → consumer.
	MigrationUpgrade
	// MigrationDowngrade: only consumer → classic.
	MigrationDowngrade
	// MigrationDisabled: neither; a classic member may not join or rejoin a non-empty consumer
	// group (INCONSISTENT_GROUP_PROTOCOL, throwIfClassicMemberCannotJoinConsumerGroup).
	MigrationDisabled
)

var policyNames = [...]string{"bidirectional", "upgrade", "downgrade", "disabled"}

func (p MigrationPolicy) String() string {
	if p >= 0 && int(p) < len(policyNames) {
		return policyNames[p]
	}
	return fmt.Sprintf("MigrationPolicy(%d)", p)
}

// ParseMigrationPolicy reads a policy name, case-insensitively as Kafka's config validator
// (CaseInsensitiveValidString) does. An unknown name is an error naming it: Kafka's broker
// refuses such a config at startup rather than falling back (ConsumerGroupMigrationPolicy.parse
// would fall back to disabled, but the validator runs first).
func ParseMigrationPolicy(s string) (MigrationPolicy, error) {
	for i, n := range policyNames {
		if strings.EqualFold(s, n) {
			return MigrationPolicy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown migration policy %q (want one of %s)", s, strings.Join(policyNames[:], ", "))
}

// UpgradeEnabled: a non-empty classic group may be converted to a consumer group.
func (p MigrationPolicy) UpgradeEnabled() bool {
	return p == MigrationBidirectional || p == MigrationUpgrade
}

// DowngradeEnabled: a non-empty consumer group may be converted to a classic group.
func (p MigrationPolicy) DowngradeEnabled() bool {
	return p == MigrationBidirectional || p == MigrationDowngrade
}
