package impl

import (
	"slices"
)

// Subscription is the consumer protocol's subscription, carried as the metadata of each
// protocol in a JoinGroup (ConsumerProtocolSubscription, docs/protocol.md §2.2). Which fields exist
// depends on Version: v0 has Topics and UserData; v1 (KIP-429) adds OwnedPartitions; v2
// (KIP-792) adds Generation.
type Subscription struct {
	Version         int8
	Topics          []string     // sorted, distinct
	OwnedPartitions PartitionSet // v1+: the partitions the member owns when it joins
	Generation      Generation   // v2+: the member's generation when it built the JoinGroup
	UserData        UserData
}

// UserData is what the sticky assignors keep in a subscription's opaque user data: the
// member's previous assignment and the generation it belongs to (KIP-341). Generation is
// NoGeneration when absent, as before KIP-341 (the root of KAFKA-7026, docs/bugs.md B11).
type UserData struct {
	Previous   PartitionSet
	Generation Generation
}

// Highest subscription version the reference knows.
const MaxSubscriptionVersion int8 = 2

// NewSubscription builds a subscription of the given version; fields the version lacks are
// dropped, so the value is exactly what a reader of that version would see.
func NewSubscription(version int8, topics []string, owned PartitionSet, gen Generation) Subscription {
	t := slices.Clone(topics)
	slices.Sort(t)
	s := Subscription{Version: version, Topics: slices.Compact(t), OwnedPartitions: owned, Generation: gen}
	return s.ReadAs(version)
}

// ReadAs is the subscription as parsed by a reader that understands versions up to v: a v0-only
// leader cannot see owned partitions (KIP-429's upgrade hazard, docs/protocol.md §7.4), and
// a reader below v2 sees no generation.
func (s Subscription) ReadAs(v int8) Subscription {
	if v < 1 {
		s.OwnedPartitions = PartitionSet{}
	}
	if v < 2 {
		s.Generation = NoGeneration
	}
	if v < s.Version {
		s.Version = v
	}
	return s
}

// Equal reports whether two subscriptions carry the same bytes on the wire.
func (s Subscription) Equal(o Subscription) bool {
	return s.Version == o.Version && slices.Equal(s.Topics, o.Topics) &&
		s.OwnedPartitions.Equal(o.OwnedPartitions) && s.Generation == o.Generation &&
		s.UserData.Previous.Equal(o.UserData.Previous) && s.UserData.Generation == o.UserData.Generation
}

// Subscribes reports whether the subscription lists topic.
func (s Subscription) Subscribes(topic string) bool {
	_, ok := slices.BinarySearch(s.Topics, topic)
	return ok
}

// GroupProtocol is one entry of a JoinGroup's protocol list: an assignor name and the member's
// subscription for it (docs/protocol.md §1.1). A member lists its assignors in preference order.
type GroupProtocol struct {
	Name     string
	Metadata Subscription
}

// Assignment is the consumer protocol's assignment, carried in SyncGroup (ConsumerProtocol
// Assignment, docs/protocol.md §2.2). Error is KIP-429's per-member error code (NEEDS_REJOIN, docs/protocol.md §7
// §2.6, §3.5); shipped Kafka has no such field and it is always None there.
//
// Followup is an assignor's request, in the assignment's user data, that the member rejoin
// once it has applied the assignment: Kafka Streams' AssignmentInfo.nextRebalanceMs below
// Long.MAX_VALUE — 0 for an immediate follow-up (tasks withheld until their owner revoked
// them), a later time for a KIP-441 probing rebalance (StreamsPartitionAssignor
// addClientAssignments). Like all user data the coordinator stores it with the assignment
// and hands it out again unchanged (KAFKA-9821 put it there so that a restarted member still
// sees it). Time is abstract here, so an immediate and a delayed follow-up are one flag.
type Assignment struct {
	Partitions PartitionSet
	Error      ErrorCode
	Followup   bool
}

// Equal compares two assignments.
func (a Assignment) Equal(o Assignment) bool {
	return a.Partitions.Equal(o.Partitions) && a.Error == o.Error && a.Followup == o.Followup
}
