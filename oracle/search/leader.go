package search

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
)

// withLeaders is n and, when the step from prev completed a join phase (a new generation in
// CompletingRebalance), n with each other member of the generation as its leader: Kafka
// elects an arbitrary rejoined member where the old leader did not rejoin, and the reference
// fixes that choice (coordinator.WithLeader). The answers the completion sent are renamed to
// match: every one names the new leader, and the leader's alone lists the members.
//
// Every member is allowed, also where Kafka would have kept a leader that rejoined: the
// search does not see inside the step, and an earlier arbitrary choice (a leader removed in
// PreparingRebalance is replaced by any remaining member) may have made it the leader.
func withLeaders(prev, n config) []config {
	g := n.coord
	if g.State() != coordinator.CompletingRebalance || g.Generation() == prev.coord.Generation() {
		return []config{n}
	}
	out := []config{n}
	members := g.Members()
	list := make([]impl.JoinGroupMember, len(members))
	for i, id := range members {
		list[i] = impl.JoinGroupMember{MemberID: id}
	}
	for _, id := range members {
		if id == g.Leader() {
			continue
		}
		lg, ok := g.WithLeader(id)
		if !ok {
			continue
		}
		v := n
		v.coord = lg
		v.open = slices.Clone(n.open)
		for i, o := range v.open {
			r, ok := o.reply.(impl.JoinGroupResponse)
			if o.status != answered || !ok || r.Error != impl.None || r.Generation != g.Generation() {
				continue
			}
			r.Leader, r.Members = id, nil
			if r.MemberID == id {
				r.Members = list
			}
			v.open[i].reply = r
		}
		v.via = append(slices.Clip(n.via), move{kind: moveElect, what: string(id)})
		out = append(out, v)
	}
	return out
}
