package leader

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// RequestFollowup marks member id's assignment with a follow-up request (impl.Assignment
// Followup): once the member has applied it, it asks for another rebalance. It returns a new
// slice (the input is not modified) and false when id has no assignment in the round (a
// member the leader did not see cannot be asked; the caller refuses the step).
//
// This is what an assignor that schedules its own rebalances does: Kafka Streams'
// StreamsPartitionAssignor.addClientAssignments sets AssignmentInfo.nextRebalanceMs to 0 for
// a consumer from which it withheld tasks still owned elsewhere (the immediate follow-up), and
// to now + probing.rebalance.interval.ms for one consumer of the leader's process when its
// task assignor wants to probe for caught-up standbys (KIP-441's probing rebalance; apache/kafka
// PR #8409, KAFKA-6145). One member per round: Streams encodes a probing rebalance for a single
// consumer, and several immediate ones end in the same next round.
// Reference: KIP-441; KAFKA-9821 (the request travels in the assignment).
func RequestFollowup(as []impl.MemberAssignment, id impl.MemberID) ([]impl.MemberAssignment, bool) {
	i := slices.IndexFunc(as, func(m impl.MemberAssignment) bool { return m.MemberID == id })
	if i < 0 {
		return as, false
	}
	out := slices.Clone(as)
	out[i].Assignment.Followup = true
	return out, true
}
