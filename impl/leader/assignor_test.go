package leader

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

func TestRangeAssign(t *testing.T) {
	static := func(m impl.JoinGroupMember, inst string) impl.JoinGroupMember {
		m.InstanceID = impl.InstanceID(inst)
		return m
	}
	tests := []struct {
		name    string
		cluster impl.Cluster
		members []impl.JoinGroupMember
		want    []impl.MemberAssignment
	}{
		// Reference: RangeAssignor javadoc, docs/protocol.md §2.4.
		{"javadoc two consumers two topics", cluster("t0:3 t1:3"),
			ms(plain("C1", "t0 t1"), plain("C0", "t0 t1")),
			want(as("C0", "t0-0 t0-1 t1-0 t1-1"), as("C1", "t0-2 t1-2"))},
		// Reference: docs/protocol.md §2.4 (range is per topic, over that topic's subscribers).
		{"per topic subscribers only", cluster("t:3 u:2"),
			ms(plain("C0", "t"), plain("C1", "t u")),
			want(as("C0", "t-0 t-1"), as("C1", "t-2 u-0 u-1"))},
		{"more members than partitions", cluster("t:2"),
			ms(plain("C0", "t"), plain("C1", "t"), plain("C2", "t")),
			want(as("C0", "t-0"), as("C1", "t-1"), as("C2", ""))},
		{"subscribed topic missing from metadata", cluster("t:1"),
			ms(plain("C0", "gone")), want(as("C0", ""))},
		// Reference: KIP-345 (MemberInfo order: static members first, by instance id).
		{"static members ordered by instance id", cluster("t:3"),
			ms(static(plain("a", "t"), "z"), static(plain("b", "t"), "y"), plain("0", "t")),
			want(as("0", "t-2"), as("a", "t-1"), as("b", "t-0"))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, Range{}.Assign(tc.cluster, tc.members), cmpOpts); d != "" {
				t.Errorf("Range.Assign (-want +got):\n%s", d)
			}
		})
	}
}

func TestRoundRobinAssign(t *testing.T) {
	tests := []struct {
		name    string
		cluster impl.Cluster
		members []impl.JoinGroupMember
		want    []impl.MemberAssignment
	}{
		// Reference: RoundRobinAssignor javadoc, first example.
		{"javadoc identical subscriptions", cluster("t0:3 t1:3"),
			ms(plain("C0", "t0 t1"), plain("C1", "t0 t1")),
			want(as("C0", "t0-0 t0-2 t1-1"), as("C1", "t0-1 t1-0 t1-2"))},
		// Reference: RoundRobinAssignor javadoc, second example (skip unsubscribed members).
		{"javadoc different subscriptions", cluster("t0:1 t1:2 t2:3"),
			ms(plain("C0", "t0"), plain("C1", "t0 t1"), plain("C2", "t0 t1 t2")),
			want(as("C0", "t0-0"), as("C1", "t1-0"), as("C2", "t1-1 t2-0 t2-1 t2-2"))},
		{"no partitions", cluster(""), ms(plain("C0", "t")), want(as("C0", ""))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, RoundRobin{}.Assign(tc.cluster, tc.members), cmpOpts); d != "" {
				t.Errorf("RoundRobin.Assign (-want +got):\n%s", d)
			}
		})
	}
}

func TestDuplicateMemberPanics(t *testing.T) {
	// A broken leader contract panics naming the transition (docs/protocol.md §6.8).
	defer func() {
		if r := recover(); r == nil {
			t.Fatal("no panic on duplicate member ids")
		}
	}()
	Range{}.Assign(cluster("t:1"), ms(plain("a", "t"), plain("a", "t")))
}

func TestLookupAndNames(t *testing.T) {
	for _, n := range Names() {
		a, ok := Lookup(n)
		if !ok || a.Name() != n {
			t.Errorf("Lookup(%q) = %v, %v", n, a, ok)
		}
	}
	for _, n := range []string{AnyName, "uniform", ""} {
		if _, ok := Lookup(n); ok {
			t.Errorf("Lookup(%q) found an assignor", n)
		}
	}
	f := impl.Faults(0).With(impl.FaultDropLowerGenerationClaims)
	if a, _ := LookupWith(CooperativeStickyName, f); a.(CooperativeSticky).Faults != f {
		t.Errorf("LookupWith lost the faults")
	}
}

func TestRebalanceProtocolOf(t *testing.T) {
	// Reference: docs/protocol.md §2.1 row 2, §2.7 (bounce 1: [cooperative-sticky, range] is eager).
	tests := []struct {
		names []string
		want  impl.RebalanceProtocol
	}{
		{[]string{"cooperative-sticky"}, impl.Cooperative},
		{[]string{"cooperative-sticky", "range"}, impl.Eager},
		{[]string{"range"}, impl.Eager},
		{[]string{"sticky", "roundrobin"}, impl.Eager},
		{nil, impl.Eager},
		{[]string{"cooperative-sticky", "unknown"}, impl.Eager},
	}
	for _, tc := range tests {
		if got := RebalanceProtocolOf(tc.names); got != tc.want {
			t.Errorf("RebalanceProtocolOf(%v) = %v, want %v", tc.names, got, tc.want)
		}
	}
}

func TestMemberGeneration(t *testing.T) {
	// Reference: docs/protocol.md §2.2 (v2 field, else user data, else -1).
	withUD := func(s impl.Subscription, g impl.Generation) impl.Subscription { s.UserData.Generation = g; return s }
	tests := []struct {
		name string
		sub  impl.Subscription
		want impl.Generation
	}{
		{"v2 field", withUD(impl.NewSubscription(2, nil, ps(""), 5), 3), 5},
		{"v2 field absent falls back to user data", withUD(impl.NewSubscription(2, nil, ps(""), -1), 3), 3},
		{"v1 has no field: user data", withUD(impl.NewSubscription(1, nil, ps(""), 5), 3), 3},
		{"v2 read as v1: user data", withUD(impl.NewSubscription(2, nil, ps(""), 5).ReadAs(1), 4), 4},
		{"nothing", withUD(impl.NewSubscription(1, nil, ps(""), -1), -1), -1},
	}
	for _, tc := range tests {
		if got := MemberGeneration(tc.sub); got != tc.want {
			t.Errorf("%s: MemberGeneration = %d, want %d", tc.name, got, tc.want)
		}
	}
}
