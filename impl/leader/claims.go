package leader

import (
	"cmp"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

// Claim is a member's claim to own a partition, with the generation it claims it at.
type Claim struct {
	Partition  impl.TopicPartition
	Owner      impl.MemberID
	Generation impl.Generation
}

// arbitration selects how conflicting claims are resolved.
type arbitration int8

const (
	// byGeneration: a sole claim is kept whatever its generation; among several claimants the
	// highest generation wins; several claimants at the highest generation all lose (KAFKA-14639).
	byGeneration arbitration = iota
	// dropLower: first every claim of a member whose generation is below the maximum over all
	// members is dropped, then byGeneration (pre-KAFKA-14639, docs/bugs.md B10).
	dropLower
	// mergeAll: every claim is kept, conflicts included (pre-KIP-341 sticky, docs/bugs.md B11).
	mergeAll
)

// claimSource reads a member's claimed partitions and their generation from its subscription.
type claimSource func(impl.Subscription) (impl.PartitionSet, impl.Generation)

// ownedClaims is cooperative-sticky's source: OwnedPartitions at MemberGeneration.
func ownedClaims(s impl.Subscription) (impl.PartitionSet, impl.Generation) {
	return s.OwnedPartitions, MemberGeneration(s)
}

// userDataClaims is eager sticky's source: the previous assignment in UserData at its
// generation (StickyAssignor always reads user data: eager members own nothing when joining).
func userDataClaims(s impl.Subscription) (impl.PartitionSet, impl.Generation) {
	return s.UserData.Previous, s.UserData.Generation
}

// ValidClaims is cooperative-sticky's ownership arbitration of the members' OwnedPartitions:
// claims on partitions that do not exist or whose topic nobody subscribes to are ignored; a
// partition claimed by exactly one member stays that member's whatever its generation; among
// several claimants the highest generation wins; several claimants at the same highest
// generation all lose and the partition is treated as unowned. The result is sorted by
// partition and has at most one claim per partition. Members must have distinct ids.
// Reference: docs/protocol.md §2.5 (post KAFKA-14639).
func ValidClaims(cluster impl.Cluster, members []impl.JoinGroupMember) []Claim {
	return arbitrate(cluster, sortedMembers("ValidClaims", members), ownedClaims, byGeneration)
}

// arbitrate collects the claims of ms from source and resolves conflicts by mode.
func arbitrate(cluster impl.Cluster, ms []impl.JoinGroupMember, source claimSource, mode arbitration) []Claim {
	topics := subscribedTopics(ms)
	maxGen := impl.NoGeneration
	for _, m := range ms {
		_, g := source(m.Metadata)
		maxGen = max(maxGen, g)
	}
	var all []Claim
	for _, m := range ms {
		owned, g := source(m.Metadata)
		if mode == dropLower && g < maxGen {
			continue
		}
		for _, tp := range owned.Slice() {
			if cluster.Exists(tp) && slices.Contains(topics, tp.Topic) {
				all = append(all, Claim{Partition: tp, Owner: m.MemberID, Generation: g})
			}
		}
	}
	if mode == mergeAll {
		return all
	}
	// Highest generation first within a partition; ties are dropped below, so their order
	// (member id) only keeps the sort deterministic.
	slices.SortFunc(all, func(a, b Claim) int {
		return cmp.Or(a.Partition.Compare(b.Partition), cmp.Compare(b.Generation, a.Generation),
			strings.Compare(string(a.Owner), string(b.Owner)))
	})
	var out []Claim
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].Partition == all[i].Partition {
			j++
		}
		if j-i == 1 || all[i+1].Generation < all[i].Generation {
			out = append(out, all[i])
		}
		i = j
	}
	return out
}

// claimsByMember splits claims into per-member partition sets indexed like ms.
func claimsByMember(ms []impl.JoinGroupMember, claims []Claim) []impl.PartitionSet {
	lists := make([][]impl.TopicPartition, len(ms))
	for _, c := range claims {
		i, ok := indexOf(ms, c.Owner)
		if !ok {
			panic("leader: claimsByMember: claim by unknown member " + string(c.Owner))
		}
		lists[i] = append(lists[i], c.Partition)
	}
	out := make([]impl.PartitionSet, len(ms))
	for i, l := range lists {
		out[i] = impl.NewPartitionSet(l...)
	}
	return out
}
