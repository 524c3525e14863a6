// Package migration is one group id as Kafka 4.x's group coordinator holds it while its
// members migrate between the classic protocol and the consumer protocol (KIP-848): a classic
// group (impl/coordinator) or a consumer group (impl/kip848), never both, with every request
// routed to the half that holds the group and the group converted between the halves online.
// It implements docs/protocol.md §9.
//
// # Usage
//
//	g := migration.New(migration.Config{Consumer: kip848.Config{}, Cluster: cluster})
//	g, out := g.Handle(joinGroup, "m1")        // a classic JoinGroup: a classic group
//	g, out = g.Heartbeat(heartbeat0, "m2")      // a KIP-848 join: the group is upgraded
//	g, out = g.Handle(leaveGroup, "")           // …and downgraded when the last one leaves
//
// # Implementation notes
//
// The conversions are kip848.FromClassic and coordinator.FromConsumerGroup; whether a request
// converts is decided where Kafka decides it: Upgrade (validateOnlineUpgrade) for a
// KIP-848 join to a classic group, kip848's FenceDowngrade for every fence of a consumer-group
// member, and kip848.ClassicJoinGroup's Downgrade for a static member restarted on the classic
// protocol. A fence answers its request from the consumer group (the reply Kafka sends) and
// converts the group as it was before the request, as Kafka converts the group object whose
// records from this request are not replayed yet.
//
// Reference: GroupMetadataManager (getOrMaybeCreateConsumerGroup, classicGroupJoin,
// classicGroupSync, classicGroupHeartbeat, classicGroupLeave, consumerGroupFenceMembers,
// convertToConsumerGroup, convertToClassicGroup), apache/kafka group-coordinator 4.4.0.
package migration

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/impl/kip848"
)

// Config is the coordinator's configuration for both halves and the cluster a consumer group
// assigns from. The migration policy and the size limits are kip848.Config's MigrationPolicy,
// MaxSize (group.consumer.max.size) and ClassicMaxSize (group.max.size).
type Config struct {
	Classic  coordinator.Config
	Consumer kip848.Config
	Cluster  impl.Cluster
}

// Group is the group as one of the two halves: IsConsumer says which. A pure value.
type Group struct {
	cfg        Config
	isConsumer bool
	classic    coordinator.Group
	consumer   kip848.Group
}

// New is a group that does not exist yet: an empty classic group, which either kind of
// first request turns into its own kind (an empty group of either kind converts whatever the
// policy, maybeDeleteEmptyClassicGroup / maybeDeleteEmptyConsumerGroup).
func New(cfg Config) Group {
	return Group{cfg: cfg, classic: coordinator.New(cfg.Classic)}
}

// OfClassic is the group whose classic half is c: a classic group as a caller that keeps the
// halves itself (spec's mixed worlds hold them as separate fields) hands it back.
func OfClassic(cfg Config, c coordinator.Group) Group {
	return Group{cfg: cfg}.withClassic(c)
}

// OfConsumer is the group whose consumer half is k: a consumer group, as OfClassic.
func OfConsumer(cfg Config, k kip848.Group) Group {
	return Group{cfg: cfg}.withConsumer(k)
}

// IsConsumer reports whether the group is a consumer group.
func (g Group) IsConsumer() bool { return g.isConsumer }

// Classic is the classic group; only meaningful when !IsConsumer.
func (g Group) Classic() coordinator.Group { return g.classic }

// Consumer is the consumer group; only meaningful when IsConsumer.
func (g Group) Consumer() kip848.Group { return g.consumer }

func (g Group) withClassic(c coordinator.Group) Group {
	g.isConsumer, g.classic, g.consumer = false, c, kip848.Group{}
	return g
}

func (g Group) withConsumer(k kip848.Group) Group {
	g.isConsumer, g.consumer, g.classic = true, k, coordinator.Group{}
	return g
}

// Upgrade converts a classic group for a KIP-848 join (getOrMaybeCreateConsumerGroup with
// createIfNotExists): an empty classic group becomes an empty consumer group whatever the
// policy (maybeDeleteEmptyClassicGroup); a non-empty one is converted when validateOnlineUpgrade
// allows — the policy enables upgrades and the group fits group.consumer.max.size — else
// GROUP_ID_NOT_FOUND and nothing changes. Converting first answers every parked JoinGroup and
// SyncGroup REBALANCE_IN_PROGRESS (convertToConsumerGroup: completeAllJoinFutures,
// completeAllSyncFutures), and that stays done when the conversion then fails: the classic group
// returned is the one with nothing parked. It fails where kip848.FromClassic does:
// UNKNOWN_SERVER_ERROR for a group that has not completed its first join phase (Optional.get()
// on its protocol name, an exception nothing catches), GROUP_ID_NOT_FOUND otherwise (Kafka's
// SchemaException and UnsupportedVersionException). On success the consumer group is returned
// with the classic group it replaces.
func Upgrade(c coordinator.Group, cfg Config) (coordinator.Group, kip848.Group, []impl.Reply, impl.ErrorCode) {
	members := c.AllMembers()
	if len(members) == 0 {
		return c, kip848.New(cfg.Consumer, cfg.Cluster), nil, impl.None
	}
	if !cfg.Consumer.MigrationPolicy.UpgradeEnabled() || (cfg.Consumer.MaxSize > 0 && len(members) > cfg.Consumer.MaxSize) {
		return c, kip848.Group{}, nil, impl.GroupIDNotFound
	}
	c, parked := c.AnswerParked(impl.RebalanceInProgress)
	if c.ProtocolName() == "" {
		return c, kip848.Group{}, parked, impl.UnknownServerError
	}
	in := make([]kip848.ClassicGroupMember, len(members))
	for i, m := range members {
		in[i] = kip848.ClassicGroupMember{ID: m.ID, InstanceID: m.InstanceID, Protocols: m.Protocols, Assignment: m.Assignment}
	}
	k, err := kip848.FromClassic(cfg.Consumer, cfg.Cluster, c.Generation(), c.ProtocolName(), in)
	if err != nil {
		return c, kip848.Group{}, parked, impl.GroupIDNotFound
	}
	return c, k, parked, impl.None
}

// Downgrade is the classic group d converts the consumer group k into: its members but the
// leaving ones and the one the joiner replaces, each holding its target partitions (the
// joiner the replaced member's), at the group epoch as generation, rebalancing as d says.
// Reference: GroupMetadataManager.convertToClassicGroup, ClassicGroup.fromConsumerGroup.
func Downgrade(k kip848.Group, d kip848.Downgrade, cfg coordinator.Config) (coordinator.Group, error) {
	var ms []coordinator.ConvertedMember
	for _, m := range k.Members() {
		if contains(d.Leaving, m.ID) || (d.Joining != nil && m.ID == d.Replaced) {
			continue
		}
		if !m.UsesClassicProtocol() {
			return coordinator.Group{}, fmt.Errorf("migration: Downgrade: member %s speaks the consumer protocol", m.ID)
		}
		ms = append(ms, coordinator.ConvertedMember{ID: m.ID, InstanceID: m.InstanceID, Protocols: m.Classic.Protocols, Assignment: k.TargetOf(m.ID)})
	}
	if j := d.Joining; j != nil {
		ms = append(ms, coordinator.ConvertedMember{ID: j.ID, InstanceID: j.InstanceID, Protocols: j.Classic.Protocols, Assignment: k.TargetOf(d.Replaced)})
	}
	return coordinator.FromConsumerGroup(cfg, impl.Generation(k.GroupEpoch()), ms, d.Rebalance)
}

func contains(ids []impl.MemberID, id impl.MemberID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// downgrade performs d on the consumer group as it was before the request; a conversion
// that cannot be built is a broken contract (FenceDowngrade and ClassicJoinGroup only ask for
// groups of classic members sharing a protocol).
func (g Group) downgrade(d kip848.Downgrade) Group {
	c, err := Downgrade(g.consumer, d, g.cfg.Classic)
	if err != nil {
		panic(err.Error())
	}
	return g.withClassic(c)
}
