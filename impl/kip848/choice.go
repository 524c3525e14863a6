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
//
// deferred leaves a new target uncomputed: the member reconciles against the previous one,
// at the assignment epoch (a new member has no entry there, whatever x). Kafka 4.4 computes targets off the request path, so a heartbeat
// after a group epoch bump may be answered at the old assignment epoch, and a later one
// moves the members on (seen against Kafka 4.4.0: members joining a group of one answered
// at its epoch with nothing, until the target of the new epoch arrives).
func (g Group) HeartbeatTargeting(req impl.ConsumerGroupHeartbeatRequest, fresh impl.MemberID, x impl.PartitionSet, deferred bool) (Group, []impl.Reply) {
	empty := func(s AssignmentSpec) Target {
		t := make(Target, len(s.Members))
		for i, m := range s.Members {
			t[i] = MemberTarget{ID: m.ID}
		}
		return t
	}
	return g.heartbeat(req, fresh, empty, &x, deferred)
}

// StartingAt is an empty group with no members yet at group and assignment epoch e (an empty
// target), or g unchanged if it has members or epochs already. From KAFKA-20268 on (Kafka
// 4.4) a new group starts at epoch 1, so its first member joins at epoch 2; before, at 0.
func (g Group) StartingAt(e impl.Epoch) Group {
	if len(g.members) > 0 || g.groupEpoch != 0 || g.assignmentEpoch != 0 {
		return g
	}
	g.groupEpoch, g.assignmentEpoch = e, e
	return g
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

// MetadataRefreshed is the group after a subscription metadata refresh that found a change
// the caller's cluster does not show: the group epoch is bumped, the target recomputed lazily
// (docs/protocol.md §3.3 step 4). A checker whose cluster is every partition a history names
// cannot tell when each came to exist (a topic created, a partition added), so it offers
// this where the coordinator may not have known a partition yet. An empty group is unchanged.
func (g Group) MetadataRefreshed() Group {
	if len(g.members) == 0 {
		return g
	}
	g.groupEpoch++
	return g
}
