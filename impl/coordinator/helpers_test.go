package coordinator

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/groupcheck/groupcheck/impl"
)

var cmpOpts = cmp.Options{
	cmp.AllowUnexported(Group{}),
	cmp.Comparer(func(a, b impl.PartitionSet) bool { return a.Equal(b) }),
	cmpopts.EquateEmpty(),
}

// subOf is a v1 subscription to the topics.
func subOf(topics ...string) impl.Subscription {
	return impl.NewSubscription(1, topics, impl.PartitionSet{}, impl.NoGeneration)
}

// protos lists assignors in preference order, each subscribed to topic t.
func protos(names ...string) []impl.GroupProtocol {
	out := make([]impl.GroupProtocol, len(names))
	for i, n := range names {
		out[i] = impl.GroupProtocol{Name: n, Metadata: subOf("t")}
	}
	return out
}

// protosU lists one assignor subscribed to topic u (changed metadata).
func protosU(name string) []impl.GroupProtocol {
	return []impl.GroupProtocol{{Name: name, Metadata: subOf("u")}}
}

var rng = protos("range")

func asg(ps ...int32) impl.Assignment {
	tps := make([]impl.TopicPartition, len(ps))
	for i, p := range ps {
		tps[i] = impl.TP("t", p)
	}
	return impl.Assignment{Partitions: impl.NewPartitionSet(tps...)}
}

func dyn(id impl.MemberID) Member { return Member{ID: id, Protocols: rng} }

func static(id impl.MemberID, inst impl.InstanceID) Member {
	return Member{ID: id, InstanceID: inst, Protocols: rng}
}

func joined(m Member, conn impl.Conn) Member {
	m.Join = ParkedJoin{Parked: true, Conn: conn, Version: 9}
	return m
}

// stable is a Stable group at generation 2 with protocol range, the first member leading,
// each member holding partition i.
func stable(ms ...Member) Group {
	g := Group{state: Stable, generation: 2, protocol: "range", leader: ms[0].ID}
	for i, m := range ms {
		m.Assignment = asg(int32(i))
		g.members = append(g.members, m)
	}
	slices.SortFunc(g.members, func(a, b Member) int { return cmpID(a.ID, b.ID) })
	return g
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

// mod returns a copy of g with f applied (members copied first).
func mod(g Group, f func(*Group)) Group {
	g.members = slices.Clone(g.members)
	g.pending = slices.Clone(g.pending)
	f(&g)
	return g
}

// at is a pointer to the member record with id in g (test setup only).
func at(g *Group, id impl.MemberID) *Member {
	i, ok := g.index(id)
	if !ok {
		panic("no member " + string(id))
	}
	return &g.members[i]
}

func reply(to impl.Conn, r impl.Response) impl.Reply { return impl.Reply{To: to, Response: r} }

func joinErr(to impl.Conn, id impl.MemberID, code impl.ErrorCode) impl.Reply {
	return reply(to, impl.JoinGroupResponse{Error: code, Generation: impl.NoGeneration, MemberID: id})
}

// jgr builds a JoinGroup request.
func jgr(conn impl.Conn, version int16, id impl.MemberID, inst impl.InstanceID, ps []impl.GroupProtocol) impl.JoinGroupRequest {
	return impl.JoinGroupRequest{Conn: conn, Version: version, MemberID: id, InstanceID: inst, Protocols: ps}
}

// memberList is the leader's view of g's members for protocol range, subscribed to t.
func memberList(ms ...Member) []impl.JoinGroupMember {
	out := make([]impl.JoinGroupMember, len(ms))
	for i, m := range ms {
		out[i] = impl.JoinGroupMember{MemberID: m.ID, InstanceID: m.InstanceID, Metadata: m.Protocols[0].Metadata}
	}
	return out
}

// check compares a handler's result with the expectation.
func check(t *testing.T, what string, gotG Group, gotOut []impl.Reply, wantG Group, wantOut []impl.Reply) {
	t.Helper()
	if d := cmp.Diff(wantG, gotG, cmpOpts); d != "" {
		t.Errorf("%s group (-want +got):\n%s", what, d)
	}
	if d := cmp.Diff(wantOut, gotOut, cmpOpts); d != "" {
		t.Errorf("%s replies (-want +got):\n%s", what, d)
	}
}
