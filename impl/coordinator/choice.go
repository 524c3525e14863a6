package coordinator

import "github.com/groupcheck/groupcheck/impl"

// WithLeader is the group just after a join phase completed with id as the generation's
// leader instead of the member the reference elected. Where the old leader did not rejoin,
// Kafka's choice is arbitrary (maybeElectNewJoinedLeader takes the first awaiting member of
// a hash map; removeMemberAndUpdateGroup's members.keys.headOption), and the reference fixes
// it to id order; a checker that judges a real coordinator's answers needs the others too.
// ok is false, and the group unchanged, unless the group is in CompletingRebalance and id
// is one of its members. Only the group changes: the JoinGroup answers the completion sent
// named the old leader, and the caller that keeps them must rename it there (the leader's
// answer, and only its, lists the members).
// Reference: docs/protocol.md §1.3 step 2.
func (g Group) WithLeader(id impl.MemberID) (Group, bool) {
	if g.state != CompletingRebalance {
		return g, false
	}
	if _, ok := g.index(id); !ok {
		return g, false
	}
	g.leader = id
	return g, true
}
