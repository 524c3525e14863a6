package differential

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/leader"
)

// Round is one classic leader round as a client's leader sees it: the selected assignor,
// the topic metadata it assigns from, and the members of its JoinGroup response.
type Round struct {
	Assignor string           // range, roundrobin, sticky or cooperative-sticky
	Cluster  map[string]int32 // topic → partition count
	Members  []Member
}

// LeaderResult is what the reference leader does with a Round.
type LeaderResult struct {
	// Assignments is what Apache Kafka's leader sends in SyncGroup (impl/leader, variant
	// Kafka: cooperative-sticky with KAFKA-14639 arbitration and AdjustAssignment), one
	// entry per member (member id → topic → partitions), nil when the leader failed.
	Assignments map[string]map[string][]int32
	// Failed says why the leader threw instead of assigning; "" when it assigned.
	Failed string
	// Revoke and Add are, per member, owned − assigned and assigned − owned: what a
	// cooperative member revokes, and what it is newly given (docs/protocol.md §2.6).
	Revoke, Add map[string]map[string][]int32
	// Plan is KIP-429 §2 plan over the assignor's raw output (cooperative
	// assignors only; nil otherwise).
	Plan *Plan
}

// Plan is the KIP variant's cooperative leader plan (KIP-429 §2.1–§2.6, leader.Plan).
type Plan struct {
	Owned           map[string][]int32 // §2.1: the union of the members' claims
	Assigned        map[string][]int32 // §2.2: the union of the assignor's output
	MaybeRevoking   map[string][]int32 // §2.3.1: owned ∩ assigned
	ReadyToMigrate  map[string][]int32 // §2.3.2: assigned − owned
	UnknownButOwned map[string][]int32 // §2.3.3: owned − assigned
	Withheld        map[string][]int32 // §2.6: kept from their new owner this round
	// Final is what the KIP variant's leader sends, per member.
	Final map[string]map[string][]int32
	// NeedsRejoin: KIP-429's NEEDS_REJOIN is set in every member's assignment (§2.6).
	NeedsRejoin bool
}

// Lead runs the reference leader on a round. An unknown assignor, a duplicate member or
// bad partition data is an error; a leader that throws (the cooperative validation of
// docs/protocol.md §2.4 step 4) is LeaderResult.Failed, because Kafka's leader does that too.
// Reference: docs/protocol.md §2.4–2.5; KIP-429 §2.
func Lead(r Round) (LeaderResult, error) {
	if _, ok := leader.Lookup(r.Assignor); !ok {
		return LeaderResult{}, fmt.Errorf("round: unknown assignor %q (want one of %s)", r.Assignor, strings.Join(leader.Names(), ", "))
	}
	cluster, err := NewCluster(r.Cluster)
	if err != nil {
		return LeaderResult{}, fmt.Errorf("round: %v", err)
	}
	if len(r.Members) == 0 {
		return LeaderResult{}, fmt.Errorf("round: no members")
	}
	members, err := JoinGroupMembers(r.Members)
	if err != nil {
		return LeaderResult{}, fmt.Errorf("round: %v", err)
	}
	in := leader.LeaderInput{
		Variant:      impl.Kafka,
		Protocol:     leader.RebalanceProtocolOf([]string{r.Assignor}),
		AssignorName: r.Assignor,
		ReadVersion:  impl.MaxSubscriptionVersion,
		Cluster:      cluster,
		Members:      members,
	}
	out := leader.Lead(in)
	var res LeaderResult
	if out.Failed {
		res.Failed = out.Reason
	} else {
		res.Assignments = assignmentMap(out.Assignments)
		res.Revoke, res.Add = map[string]map[string][]int32{}, map[string]map[string][]int32{}
		for _, m := range members {
			owned := m.Metadata.OwnedPartitions
			got := assignedTo(out.Assignments, m.MemberID)
			res.Revoke[string(m.MemberID)] = FromSet(owned.Minus(got))
			res.Add[string(m.MemberID)] = FromSet(got.Minus(owned))
		}
	}
	if in.Protocol == impl.Cooperative {
		in.Variant = impl.KIP
		if p := leader.Lead(in).Plan; p != nil {
			res.Plan = &Plan{
				Owned: FromSet(p.OwnedPartitions), Assigned: FromSet(p.AssignedPartitions),
				MaybeRevoking: FromSet(p.MaybeRevoking), ReadyToMigrate: FromSet(p.ReadyToMigrate),
				UnknownButOwned: FromSet(p.UnknownButOwned), Withheld: FromSet(p.Withheld),
				Final: assignmentMap(p.Final), NeedsRejoin: p.Error == impl.NeedsRejoin,
			}
		}
	}
	return res, nil
}

// MemberAssignments converts a leader's assignment in the client's shape (member id →
// topic → partitions) into the reference's, sorted by member id. A bad partition map or an
// empty member id is an error.
func MemberAssignments(a map[string]map[string][]int32) ([]impl.MemberAssignment, error) {
	var out []impl.MemberAssignment
	for _, id := range sortedKeys(a) {
		if id == "" {
			return nil, fmt.Errorf("assignment for an empty member id")
		}
		s, err := ToSet(a[id])
		if err != nil {
			return nil, fmt.Errorf("assignment of %q: %v", id, err)
		}
		out = append(out, impl.MemberAssignment{MemberID: impl.MemberID(id), Assignment: impl.Assignment{Partitions: s}})
	}
	return out, nil
}

// FromMemberAssignments is the client's shape of a reference leader's assignment.
func FromMemberAssignments(as []impl.MemberAssignment) map[string]map[string][]int32 {
	return assignmentMap(as)
}

// PlanFor runs KIP-429 plan (leader.Plan) over the members and an assignment of
// the client's own assignor: what is maybe-revoking, ready to migrate, unknown but owned,
// withheld, and what the KIP variant's leader would send. An assignment for a member not in the
// list is an error.
func PlanFor(members []Member, assigned map[string]map[string][]int32) (Plan, error) {
	ms, as, err := leaderData(members, assigned)
	if err != nil {
		return Plan{}, err
	}
	p := leader.Plan(leader.PlanInput{Members: ms, Assigned: as})
	return Plan{
		Owned: FromSet(p.OwnedPartitions), Assigned: FromSet(p.AssignedPartitions),
		MaybeRevoking: FromSet(p.MaybeRevoking), ReadyToMigrate: FromSet(p.ReadyToMigrate),
		UnknownButOwned: FromSet(p.UnknownButOwned), Withheld: FromSet(p.Withheld),
		Final: assignmentMap(p.Final), NeedsRejoin: p.Error == impl.NeedsRejoin,
	}, nil
}

// ValidateCooperative is Kafka's leader check of a cooperative assignment (docs/protocol.md §2.4
// step 4): the partitions revoked from one member and given to another in the same round.
// Empty means the assignment is valid for the cooperative protocol.
func ValidateCooperative(members []Member, assigned map[string]map[string][]int32) (map[string][]int32, error) {
	ms, as, err := leaderData(members, assigned)
	if err != nil {
		return nil, err
	}
	return FromSet(leader.ValidateCooperative(ms, as)), nil
}

// leaderData validates members and an assignment for the leader functions, which panic on
// an assignment for an unknown member.
func leaderData(members []Member, assigned map[string]map[string][]int32) ([]impl.JoinGroupMember, []impl.MemberAssignment, error) {
	ms, err := JoinGroupMembers(members)
	if err != nil {
		return nil, nil, err
	}
	as, err := MemberAssignments(assigned)
	if err != nil {
		return nil, nil, err
	}
	for _, a := range as {
		if !slices.ContainsFunc(ms, func(m impl.JoinGroupMember) bool { return m.MemberID == a.MemberID }) {
			return nil, nil, fmt.Errorf("assignment for %q, which is not a member", a.MemberID)
		}
	}
	return ms, as, nil
}

// assignmentMap is the client's shape of a leader's assignments.
func assignmentMap(as []impl.MemberAssignment) map[string]map[string][]int32 {
	out := make(map[string]map[string][]int32, len(as))
	for _, a := range as {
		out[string(a.MemberID)] = FromSet(a.Assignment.Partitions)
	}
	return out
}

func assignedTo(as []impl.MemberAssignment, id impl.MemberID) impl.PartitionSet {
	for _, a := range as {
		if a.MemberID == id {
			return a.Assignment.Partitions
		}
	}
	return impl.PartitionSet{}
}
