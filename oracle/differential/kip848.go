package differential

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
)

// The KIP-848 member states as Kafka names them (docs/protocol.md §3.4).
const (
	StateStable               = "STABLE"
	StateUnrevokedPartitions  = "UNREVOKED_PARTITIONS"
	StateUnreleasedPartitions = "UNRELEASED_PARTITIONS"
)

// ReconcileInput is one KIP-848 reconciliation step of a member as the coordinator sees it
// (CurrentAssignmentBuilder's inputs, docs/protocol.md §3.4), in the client's shape.
type ReconcileInput struct {
	// Variant: impl.Kafka (as shipped, the default) or impl.KIP (docs/protocol.md §8's draft).
	Variant impl.Variant
	// State is the member's state: StateStable ("" means stable), StateUnrevokedPartitions
	// or StateUnreleasedPartitions.
	State             string
	MemberEpoch       int32
	Assigned          map[string][]int32 // what the member may use now
	PendingRevocation map[string][]int32 // what it still holds until it acknowledges
	SubscribedTopics  []string
	// TargetEpoch and Target are the target assignment's epoch and this member's share.
	TargetEpoch int32
	Target      map[string][]int32
	// Owned is what the member reported owning in this heartbeat; nil when not sent.
	Owned map[string][]int32
	// HeldByOthers are the partitions other members still hold (assigned or pending
	// revocation): they are not free for this member yet.
	HeldByOthers map[string][]int32
}

// ReconcileResult is the member's record after the step.
type ReconcileResult struct {
	State             string
	MemberEpoch       int32
	Assigned          map[string][]int32 // sent as the heartbeat response's assignment
	PendingRevocation map[string][]int32
}

// Reconcile runs the reference reconciliation (kip848.Reconcile) on a member's state and
// its target: what the coordinator answers it and whether it must revoke first. Bad
// partition maps, an unknown state or an assigned set overlapping the pending revocation
// are errors.
func Reconcile(in ReconcileInput) (ReconcileResult, error) {
	state, err := parseMemberState(in.State)
	if err != nil {
		return ReconcileResult{}, err
	}
	sets := map[string]map[string][]int32{"assigned": in.Assigned, "pending revocation": in.PendingRevocation,
		"target": in.Target, "held by others": in.HeldByOthers}
	conv := map[string]impl.PartitionSet{}
	for _, name := range []string{"assigned", "pending revocation", "target", "held by others"} {
		s, err := ToSet(sets[name])
		if err != nil {
			return ReconcileResult{}, fmt.Errorf("reconcile: %s: %v", name, err)
		}
		conv[name] = s
	}
	if both := conv["assigned"].Intersect(conv["pending revocation"]); !both.IsEmpty() {
		return ReconcileResult{}, fmt.Errorf("reconcile: %s both assigned and pending revocation", both)
	}
	topics, err := topicList("reconcile: subscribed topics", in.SubscribedTopics)
	if err != nil {
		return ReconcileResult{}, err
	}
	if topics == nil {
		topics = []string{}
	}
	var owned *impl.PartitionSet
	if in.Owned != nil {
		o, err := ToSet(in.Owned)
		if err != nil {
			return ReconcileResult{}, fmt.Errorf("reconcile: owned: %v", err)
		}
		owned = &o
	}
	held := conv["held by others"]
	m := kip848.Reconcile(kip848.ReconcileInput{
		Member: kip848.Member{
			ID: "member", MemberEpoch: impl.Epoch(in.MemberEpoch), State: state,
			AssignedPartitions: conv["assigned"], PartitionsPendingRevocation: conv["pending revocation"],
			SubscribedTopics: topics,
		},
		TargetEpoch: impl.Epoch(in.TargetEpoch),
		Target:      conv["target"],
		Owned:       owned,
		PartitionEpoch: func(tp impl.TopicPartition) impl.Epoch {
			if held.Contains(tp) {
				return impl.Epoch(in.MemberEpoch) // any epoch but NoPartitionEpoch: someone holds it
			}
			return kip848.NoPartitionEpoch
		},
		Variant: in.Variant,
	})
	return ReconcileResult{
		State: m.State.String(), MemberEpoch: int32(m.MemberEpoch),
		Assigned: FromSet(m.AssignedPartitions), PendingRevocation: FromSet(m.PartitionsPendingRevocation),
	}, nil
}

func parseMemberState(s string) (kip848.MemberState, error) {
	switch s {
	case "", StateStable:
		return kip848.Stable, nil
	case StateUnrevokedPartitions:
		return kip848.UnrevokedPartitions, nil
	case StateUnreleasedPartitions:
		return kip848.UnreleasedPartitions, nil
	}
	return 0, fmt.Errorf("reconcile: unknown member state %q (want %s, %s or %s)", s,
		StateStable, StateUnrevokedPartitions, StateUnreleasedPartitions)
}

// ServerMember is one member as a KIP-848 server assignor sees it.
type ServerMember struct {
	ID     string
	Topics []string
}

// ServerAssign runs a reference KIP-848 server assignor ("uniform" or "range", docs/protocol.md
// §3.3 step 5) and returns the target, member id → topic → partitions. previous is the
// previous target (for the uniform assignor's stickiness); nil for none.
func ServerAssign(assignor string, cluster map[string]int32, members []ServerMember, previous map[string]map[string][]int32) (map[string]map[string][]int32, error) {
	var assign kip848.AssignFunc
	switch assignor {
	case kip848.AssignorUniform:
		assign = kip848.Uniform
	case kip848.AssignorRange:
		assign = kip848.Range
	default:
		return nil, fmt.Errorf("server assignor %q: want %q or %q", assignor, kip848.AssignorUniform, kip848.AssignorRange)
	}
	c, err := NewCluster(cluster)
	if err != nil {
		return nil, err
	}
	spec := kip848.AssignmentSpec{Cluster: c}
	seen := map[string]bool{}
	for _, m := range members {
		if m.ID == "" || seen[m.ID] {
			return nil, fmt.Errorf("server assignor: member id %q empty or listed twice", m.ID)
		}
		seen[m.ID] = true
		ts, err := topicList(fmt.Sprintf("member %q: topics", m.ID), m.Topics)
		if err != nil {
			return nil, err
		}
		spec.Members = append(spec.Members, kip848.MemberSpec{ID: impl.MemberID(m.ID), SubscribedTopics: ts})
	}
	slices.SortFunc(spec.Members, func(a, b kip848.MemberSpec) int { return cmpID(a.ID, b.ID) })
	var prev []kip848.MemberTarget
	for _, id := range sortedKeys(previous) {
		s, err := ToSet(previous[id])
		if err != nil {
			return nil, fmt.Errorf("previous target of %q: %v", id, err)
		}
		prev = append(prev, kip848.MemberTarget{ID: impl.MemberID(id), Partitions: s})
	}
	spec.Previous = kip848.NewTarget(prev...)
	out := map[string]map[string][]int32{}
	for _, e := range assign(spec) {
		out[string(e.ID)] = FromSet(e.Partitions)
	}
	return out, nil
}

func cmpID(a, b impl.MemberID) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
