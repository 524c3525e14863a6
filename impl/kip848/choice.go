package kip848

import "github.com/groupcheck/groupcheck/impl"

// HeartbeatTargeting is Heartbeat with the requesting member's entry of the target assignment
// taken to be x when it reconciles: the `any` assignor, decided one member at a time. A
// checker that judges a real coordinator's answers does not know the broker's assignor (nor
// its inputs: subscriptions and metadata are not in a history), but a member's reconciliation
// reads only its own entry (CurrentAssignmentBuilder; docs/protocol.md §3.4), so it can try
// each entry the member's answer allows instead of every whole target. The other members'
// entries lose x, so that the target stays one assignment; a target recomputed by this
// request (the group epoch was ahead) gives every other member an empty entry, to be chosen
// when it reconciles. x must lie within the member's subscribed topics' partitions (others
// are ignored by reconciliation).
func (g Group) HeartbeatTargeting(req impl.ConsumerGroupHeartbeatRequest, fresh impl.MemberID, x impl.PartitionSet) (Group, []impl.Reply) {
	empty := func(s AssignmentSpec) Target {
		t := make(Target, len(s.Members))
		for i, m := range s.Members {
			t[i] = MemberTarget{ID: m.ID}
		}
		return t
	}
	return g.heartbeat(req, fresh, empty, &x)
}

// with is t with id's entry x, taken from every other entry.
func (t Target) with(id impl.MemberID, x impl.PartitionSet) Target {
	out := make([]MemberTarget, 0, len(t)+1)
	for _, e := range t {
		if e.ID != id {
			out = append(out, MemberTarget{ID: e.ID, Partitions: e.Partitions.Minus(x)})
		}
	}
	return NewTarget(append(out, MemberTarget{ID: id, Partitions: x})...)
}
