package leader

import (
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

// The names of the built-in assignors, as in partition.assignment.strategy (docs/protocol.md §2.4).
const (
	RangeName             = "range"
	RoundRobinName        = "roundrobin"
	StickyName            = "sticky"
	CooperativeStickyName = "cooperative-sticky"
	// AnyName is the model's "every valid assignment" assignor (docs/protocol.md §6.4). It is not
	// an Assignor (it has many outputs): see AllAssignments.
	AnyName = "any"
)

// Assignor is a partition assignor as the leader runs it: a pure, deterministic function of the
// cluster metadata and the members' subscriptions (docs/protocol.md §2.4 step 3).
type Assignor interface {
	// Name is the protocol name the assignor is selected by.
	Name() string
	// SupportedProtocols lists the rebalance protocols the assignor supports, lowest first
	// (ConsumerPartitionAssignor.supportedProtocols, docs/protocol.md §2.1).
	SupportedProtocols() []impl.RebalanceProtocol
	// Assign returns one entry per member, sorted by member id, possibly empty. It panics on
	// duplicate member ids (a broken leader contract: the coordinator never sends them).
	Assign(cluster impl.Cluster, members []impl.JoinGroupMember) []impl.MemberAssignment
}

// Lookup returns the correct built-in assignor called name. "any" is not one (see AllAssignments).
func Lookup(name string) (Assignor, bool) { return LookupWith(name, 0) }

// LookupWith returns the built-in assignor called name, honouring the faults that belong to it:
// FaultStickyMergeWithoutGeneration (sticky) and FaultDropLowerGenerationClaims
// (cooperative-sticky).
func LookupWith(name string, faults impl.Faults) (Assignor, bool) {
	switch name {
	case RangeName:
		return Range{}, true
	case RoundRobinName:
		return RoundRobin{}, true
	case StickyName:
		return Sticky{Faults: faults}, true
	case CooperativeStickyName:
		return CooperativeSticky{Faults: faults}, true
	}
	return nil, false
}

// Names lists the built-in assignors' names, sorted.
func Names() []string {
	return []string{CooperativeStickyName, RangeName, RoundRobinName, StickyName}
}

// RebalanceProtocolOf is a member's rebalance protocol: the highest protocol supported by all of
// its configured assignors (EAGER < COOPERATIVE). An empty list or an unknown name gives Eager,
// the protocol every client supports.
// Reference: docs/protocol.md §2.1 (row 2: rebalance.protocol was not added).
func RebalanceProtocolOf(assignorNames []string) impl.RebalanceProtocol {
	if len(assignorNames) == 0 {
		return impl.Eager
	}
	best := impl.Cooperative
	for _, n := range assignorNames {
		a, ok := Lookup(n)
		if !ok {
			return impl.Eager
		}
		best = min(best, slices.Max(a.SupportedProtocols()))
	}
	return best
}

// MemberGeneration is the generation a member's subscription claims its owned partitions at:
// the v2 Generation field if present, else the generation in the sticky user data, else -1.
// Reference: docs/protocol.md §2.2 (CooperativeStickyAssignor.memberData).
func MemberGeneration(s impl.Subscription) impl.Generation {
	if s.Version >= 2 && s.Generation >= 0 {
		return s.Generation
	}
	if s.UserData.Generation >= 0 {
		return s.UserData.Generation
	}
	return impl.NoGeneration
}

// sortedMembers returns the members sorted by member id, panicking on duplicates.
func sortedMembers(transition string, members []impl.JoinGroupMember) []impl.JoinGroupMember {
	ms := slices.Clone(members)
	slices.SortFunc(ms, func(a, b impl.JoinGroupMember) int { return strings.Compare(string(a.MemberID), string(b.MemberID)) })
	for i := 1; i < len(ms); i++ {
		if ms[i].MemberID == ms[i-1].MemberID {
			panic("leader: " + transition + ": duplicate member id " + string(ms[i].MemberID))
		}
	}
	return ms
}

// memberInfoOrder sorts members as Kafka's MemberInfo.compareTo does for range and roundrobin:
// static members first by group.instance.id, then dynamic members by member id (KIP-345, so a
// restarted static member keeps its place). Without static members this is member-id order.
func memberInfoOrder(ms []impl.JoinGroupMember) []impl.JoinGroupMember {
	out := slices.Clone(ms)
	slices.SortStableFunc(out, func(a, b impl.JoinGroupMember) int {
		switch {
		case a.InstanceID != "" && b.InstanceID != "":
			return strings.Compare(string(a.InstanceID), string(b.InstanceID))
		case a.InstanceID != "":
			return -1
		case b.InstanceID != "":
			return 1
		}
		return strings.Compare(string(a.MemberID), string(b.MemberID))
	})
	return out
}

// subscribedTopics is the sorted union of the members' subscribed topics.
func subscribedTopics(ms []impl.JoinGroupMember) []string {
	var ts []string
	for _, m := range ms {
		ts = append(ts, m.Metadata.Topics...)
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}

// assignmentsOf builds the sorted output of an assignor from per-member partition lists, indexed
// like ms (which is sorted by member id).
func assignmentsOf(ms []impl.JoinGroupMember, parts [][]impl.TopicPartition) []impl.MemberAssignment {
	out := make([]impl.MemberAssignment, len(ms))
	for i, m := range ms {
		out[i] = impl.MemberAssignment{MemberID: m.MemberID, Assignment: impl.Assignment{Partitions: impl.NewPartitionSet(parts[i]...)}}
	}
	return out
}

// indexOf finds a member's index in ms (sorted by member id).
func indexOf(ms []impl.JoinGroupMember, id impl.MemberID) (int, bool) {
	return slices.BinarySearchFunc(ms, id, func(m impl.JoinGroupMember, id impl.MemberID) int {
		return strings.Compare(string(m.MemberID), string(id))
	})
}
