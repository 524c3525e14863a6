package kip848

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

// NoPartitionEpoch (-1) is the partition epoch of a free partition: no member holds it in
// its assigned or pending-revocation set (docs/protocol.md §3.2, currentPartitionEpoch).
const NoPartitionEpoch impl.Epoch = -1

// RebalanceTimer is a member's rebalance (revocation) timer: armed when the member enters
// UNREVOKED_PARTITIONS, tagged with the epoch it was armed at (docs/protocol.md §3.5).
type RebalanceTimer struct {
	Armed bool
	Epoch impl.Epoch
}

// Member is the coordinator's record of one member (ConsumerGroupMember; docs/protocol.md §3.2).
// Its partition sets and topic list are immutable and may be shared between values.
type Member struct {
	ID                  impl.MemberID
	InstanceID          impl.InstanceID // empty for dynamic members
	MemberEpoch         impl.Epoch
	PreviousMemberEpoch impl.Epoch
	State               MemberState
	// AssignedPartitions are the partitions the member may use now (sent as Assignment).
	AssignedPartitions impl.PartitionSet
	// PartitionsPendingRevocation are still held by the member until it acknowledges their
	// revocation; they are never sent in an Assignment.
	PartitionsPendingRevocation impl.PartitionSet
	// SubscribedTopics, sorted; never nil for a member (empty means subscribed to nothing).
	SubscribedTopics []string
	RebalanceTimer   RebalanceTimer
	// RevocationTargetEpoch is only used under impl.FaultRecomputeWhileRevoking (B17): the
	// target epoch the pending revocation was computed for. Always 0 otherwise.
	RevocationTargetEpoch impl.Epoch
	// AssignedAt is the assignment epoch of every partition the member holds (assigned or
	// pending revocation), kept only under CommitAssignmentEpochs (nil under CommitExactEpoch):
	// the target epoch at which it was given the partition (ConsumerGroupMember's
	// per-partition epochs, set by CurrentAssignmentBuilder.computeNextAssignment), in
	// ascending epoch order, each partition once.
	AssignedAt []PartitionsAt
	// Classic is set for a member that speaks the classic protocol (JoinGroup, SyncGroup,
	// Heartbeat, LeaveGroup) inside this consumer group, nil for a consumer-protocol member
	// (ConsumerGroupMember.classicMemberMetadata). It is immutable and may be shared; a
	// transition replaces it.
	Classic *ClassicMetadata
}

// UsesClassicProtocol reports whether the member speaks the classic protocol
// (ConsumerGroupMember.useClassicProtocol).
func (m Member) UsesClassicProtocol() bool { return m.Classic != nil }

// PartitionsAt are partitions a member was assigned at one assignment epoch.
type PartitionsAt struct {
	Epoch      impl.Epoch
	Partitions impl.PartitionSet
}

// AssignmentEpoch is the epoch at which the member was assigned tp (KIP-1251), if it holds tp
// and its epochs are kept (CommitAssignmentEpochs).
func (m Member) AssignmentEpoch(tp impl.TopicPartition) (impl.Epoch, bool) {
	for _, a := range m.AssignedAt {
		if a.Partitions.Contains(tp) {
			return a.Epoch, true
		}
	}
	return 0, false
}

// withAssignmentEpochs keeps AssignedAt in step with what the member holds: a partition it
// no longer holds loses its epoch, one it newly holds takes the member's epoch, which is the
// target epoch it was assigned at (reconciliation gives new partitions only when it moves
// the member to the target epoch; a temporary leave and a static replacement give none).
func (m Member) withAssignmentEpochs() Member {
	holds := m.Holds()
	var at []PartitionsAt
	known := impl.PartitionSet{}
	for _, a := range m.AssignedAt {
		if ps := a.Partitions.Intersect(holds); !ps.IsEmpty() {
			at = append(at, PartitionsAt{Epoch: a.Epoch, Partitions: ps})
			known = known.Union(ps)
		}
	}
	if fresh := holds.Minus(known); !fresh.IsEmpty() {
		i := len(at)
		for i > 0 && at[i-1].Epoch > m.MemberEpoch {
			i--
		}
		if i > 0 && at[i-1].Epoch == m.MemberEpoch {
			at[i-1].Partitions = at[i-1].Partitions.Union(fresh)
		} else {
			at = slices.Insert(at, i, PartitionsAt{Epoch: m.MemberEpoch, Partitions: fresh})
		}
	}
	m.AssignedAt = at
	return m
}

// IsStatic reports whether the member has a group.instance.id.
func (m Member) IsStatic() bool { return m.InstanceID != "" }

// Holds is every partition the member holds: assigned ∪ pending revocation. These are the
// partitions whose partition epoch is the member's epoch.
func (m Member) Holds() impl.PartitionSet {
	return m.AssignedPartitions.Union(m.PartitionsPendingRevocation)
}

// IsStableAt reports whether the member is STABLE at epoch e: fully reconciled.
func (m Member) IsStableAt(e impl.Epoch) bool { return m.State == Stable && m.MemberEpoch == e }

// Group is one KIP-848 consumer group as its coordinator sees it: a pure value. Every
// transition returns the successor; the receiver is never modified and successors share no
// mutable memory with it (members are copied on write, sets are immutable).
//
// Partition epochs are derived from the members, never stored: the epoch of a partition is
// the epoch of the one member holding it. Every transition ends by checking that no two
// members hold one partition and panics otherwise, as Kafka's addPartitionEpochs throws.
type Group struct {
	cfg             Config
	groupEpoch      impl.Epoch
	assignmentEpoch impl.Epoch
	target          Target   // sorted by member id
	members         []Member // sorted by ID
	cluster         impl.Cluster
}

// New is an EMPTY group at epoch 0 assigning from the given cluster metadata.
func New(cfg Config, cluster impl.Cluster) Group { return Group{cfg: cfg, cluster: cluster} }

// Config is the group's configuration.
func (g Group) Config() Config { return g.cfg }

// GroupEpoch is the group epoch (docs/protocol.md §3.2).
func (g Group) GroupEpoch() impl.Epoch { return g.groupEpoch }

// AssignmentEpoch is the epoch of the target assignment: the group epoch it was computed for.
func (g Group) AssignmentEpoch() impl.Epoch { return g.assignmentEpoch }

// Cluster is the topic metadata the group assigns from.
func (g Group) Cluster() impl.Cluster { return g.cluster }

// Target is the whole target assignment, sorted by member id. The caller must not modify it.
func (g Group) Target() Target { return g.target }

// TargetOf is the member's target partitions (empty if it has no entry).
func (g Group) TargetOf(id impl.MemberID) impl.PartitionSet { return g.target.Of(id) }

// Members returns a copy of every member record, in id order.
func (g Group) Members() []Member { return slices.Clone(g.members) }

// Member returns a copy of the member's record.
func (g Group) Member(id impl.MemberID) (Member, bool) {
	if i, ok := g.index(id); ok {
		return g.members[i], true
	}
	return Member{}, false
}

// StaticMember is the member currently holding the instance id.
func (g Group) StaticMember(inst impl.InstanceID) (Member, bool) {
	if inst == "" {
		return Member{}, false
	}
	for _, m := range g.members {
		if m.InstanceID == inst {
			return m, true
		}
	}
	return Member{}, false
}

// State is the derived group state. Reference: docs/protocol.md §3.2.
func (g Group) State() GroupState {
	switch {
	case len(g.members) == 0:
		return Empty
	case g.groupEpoch > g.assignmentEpoch:
		return Assigning
	}
	for _, m := range g.members {
		if !m.IsStableAt(g.assignmentEpoch) {
			return Reconciling
		}
	}
	return StableGroup
}

// PartitionEpoch is the epoch of the member holding tp, or NoPartitionEpoch if it is free.
func (g Group) PartitionEpoch(tp impl.TopicPartition) impl.Epoch {
	for _, m := range g.members {
		if m.AssignedPartitions.Contains(tp) || m.PartitionsPendingRevocation.Contains(tp) {
			return m.MemberEpoch
		}
	}
	return NoPartitionEpoch
}

// PartitionHolding is one entry of the partition-epoch map.
type PartitionHolding struct {
	Partition impl.TopicPartition
	Epoch     impl.Epoch
	Holder    impl.MemberID
}

// PartitionEpochs is the whole partition-epoch map, sorted by partition. It panics if two
// members hold one partition: the single-holder rule (docs/protocol.md §3.2) is an internal contract.
func (g Group) PartitionEpochs() []PartitionHolding {
	out, err := g.partitionEpochs()
	if err != nil {
		panic("kip848: PartitionEpochs: " + err.Error())
	}
	return out
}

func (g Group) partitionEpochs() ([]PartitionHolding, error) {
	var out []PartitionHolding
	for _, m := range g.members {
		for _, tp := range m.Holds().Slice() {
			out = append(out, PartitionHolding{tp, m.MemberEpoch, m.ID})
		}
	}
	slices.SortFunc(out, func(a, b PartitionHolding) int { return a.Partition.Compare(b.Partition) })
	var dup []string
	for i := 1; i < len(out); i++ {
		if out[i].Partition == out[i-1].Partition {
			dup = append(dup, fmt.Sprintf("%s held by %s and %s", out[i].Partition,
				out[i-1].Holder, out[i].Holder))
		}
	}
	if dup != nil {
		return nil, fmt.Errorf("partition epoch already set: %s", strings.Join(dup, ", "))
	}
	return out, nil
}

// checked enforces the internal contracts at the end of a transition: single holder per
// partition, target entries disjoint and naming members. It panics naming the transition.
func (g Group) checked(transition string) Group {
	if _, err := g.partitionEpochs(); err != nil {
		panic("kip848: " + transition + ": " + err.Error())
	}
	if err := g.target.validate(g); err != nil {
		panic("kip848: " + transition + ": " + err.Error())
	}
	return g
}

func (g Group) index(id impl.MemberID) (int, bool) {
	return slices.BinarySearchFunc(g.members, id, func(m Member, id impl.MemberID) int {
		return strings.Compare(string(m.ID), string(id))
	})
}

// withMember returns the group with m inserted or replacing the member with the same id.
func (g Group) withMember(m Member) Group {
	if g.cfg.CommitRule.KeepsAssignmentEpochs() {
		m = m.withAssignmentEpochs()
	}
	ms := slices.Clone(g.members)
	if i, ok := g.index(m.ID); ok {
		ms[i] = m
	} else {
		ms = slices.Insert(ms, i, m)
	}
	g.members = ms
	return g
}

// withoutMember returns the group without the member and its target entry.
func (g Group) withoutMember(id impl.MemberID) Group {
	if i, ok := g.index(id); ok {
		g.members = slices.Delete(slices.Clone(g.members), i, i+1)
	}
	g.target = g.target.without(id)
	return g
}

// lookup is the partition-epoch lookup Reconcile uses, over the current members.
func (g Group) lookup() func(impl.TopicPartition) impl.Epoch { return g.PartitionEpoch }
