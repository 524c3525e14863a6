package kip848

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

func spec(prev Target, members ...MemberSpec) AssignmentSpec {
	return AssignmentSpec{Members: members, Cluster: cluster, Previous: prev}
}

func TestAssignors(t *testing.T) {
	abT := spec(nil, MemberSpec{ID: "a", SubscribedTopics: []string{"t"}}, MemberSpec{ID: "b", SubscribedTopics: []string{"t", "u"}})
	for _, tc := range []struct {
		name   string
		assign AssignFunc
		s      AssignmentSpec
		want   Target
	}{
		// Reference: docs/protocol.md §3.3 step 5 ("range"): contiguous ranges per topic.
		{"range", Range, abT, NewTarget(MemberTarget{"a", ps("t-0 t-1")}, MemberTarget{"b", ps("t-2 t-3 u-0 u-1")})},
		// Reference: docs/protocol.md §3.3 step 5 ("uniform"): balanced over eligible members.
		{"uniform from scratch", Uniform, abT, NewTarget(MemberTarget{"a", ps("t-0 t-1 t-2")}, MemberTarget{"b", ps("t-3 u-0 u-1")})},
		// Sticky: the previous target is kept where still balanced.
		{"uniform sticky", Uniform, spec(NewTarget(MemberTarget{"a", ps("t-1 t-3")}, MemberTarget{"b", ps("t-0 t-2")}),
			MemberSpec{ID: "a", SubscribedTopics: []string{"t"}}, MemberSpec{ID: "b", SubscribedTopics: []string{"t"}}),
			NewTarget(MemberTarget{"a", ps("t-1 t-3")}, MemberTarget{"b", ps("t-0 t-2")})},
		// A newcomer takes from the loaded member only what balance needs.
		{"uniform newcomer", Uniform, spec(NewTarget(MemberTarget{"a", ps("t-0 t-1 t-2 t-3")}),
			MemberSpec{ID: "a", SubscribedTopics: []string{"t"}}, MemberSpec{ID: "b", SubscribedTopics: []string{"t"}}),
			NewTarget(MemberTarget{"a", ps("t-2 t-3")}, MemberTarget{"b", ps("t-0 t-1")})},
		{"uniform no members", Uniform, spec(nil), Target{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.assign(tc.s)
			if d := cmp.Diff(tc.want, got, cmpOpts); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if err := CheckTarget(tc.s, got); err != nil {
				t.Errorf("invalid target: %v", err)
			}
		})
	}
}

// The `any` assignor: every complete valid target, each exactly once.
func TestAllTargets(t *testing.T) {
	s := AssignmentSpec{Members: []MemberSpec{{ID: "a", SubscribedTopics: []string{"u"}}, {ID: "b", SubscribedTopics: []string{"u"}}, {ID: "c"}},
		Cluster: cluster}
	all := AllTargets(s)
	if len(all) != 4 { // u-0, u-1 each to a or b
		t.Fatalf("got %d targets, want 4", len(all))
	}
	seen := map[string]bool{}
	for _, tg := range all {
		if err := CheckTarget(s, tg); err != nil {
			t.Errorf("invalid: %v", err)
		}
		k := tg.Of("a").String() + "|" + tg.Of("b").String()
		if seen[k] {
			t.Errorf("duplicate %s", k)
		}
		seen[k] = true
	}
	if n := len(AllTargets(AssignmentSpec{Cluster: cluster})); n != 1 {
		t.Errorf("no members: %d targets, want 1 (empty)", n)
	}
}

func TestCheckTarget(t *testing.T) {
	s := spec(nil, MemberSpec{ID: "a", SubscribedTopics: []string{"t"}}, MemberSpec{ID: "b", SubscribedTopics: []string{"t"}})
	for name, tg := range map[string]Target{
		"missing entry":  NewTarget(MemberTarget{"a", ps("t-0")}),
		"wrong member":   NewTarget(MemberTarget{"a", ps("")}, MemberTarget{"c", ps("")}),
		"unsubscribed":   NewTarget(MemberTarget{"a", ps("u-0")}, MemberTarget{"b", ps("")}),
		"nonexistent":    NewTarget(MemberTarget{"a", ps("t-9")}, MemberTarget{"b", ps("")}),
		"assigned twice": NewTarget(MemberTarget{"a", ps("t-0")}, MemberTarget{"b", ps("t-0")}),
	} {
		if CheckTarget(s, tg) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestWithTarget(t *testing.T) {
	g := New(Config{}, cluster)
	g, _ = step(t, g, joinReq("a", "t"), "")
	g, _ = step(t, g, joinReq("b", "t"), "")
	g = g.SessionExpired("b") // epoch 3 pending
	tg := NewTarget(MemberTarget{"a", ps("t-0")})
	g = g.WithTarget(tg)
	if g.AssignmentEpoch() != 3 || !g.Target().Equal(tg) {
		t.Errorf("after WithTarget: %s", g)
	}
	g = g.WithTarget(tg) // same target again: allowed
	for name, f := range map[string]func(){
		"different target at the same epoch": func() { g.WithTarget(NewTarget(MemberTarget{"a", ps("t-1")})) },
		"duplicate entries":                  func() { NewTarget(MemberTarget{"a", ps("")}, MemberTarget{"a", ps("")}) },
		"unknown assignor":                   func() { New(Config{Assignor: "sticky"}, cluster).Heartbeat(joinReq("a", "t"), "") },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		})
	}
}

// Reference: docs/protocol.md §3.3 step 5 (config group.consumer.assignors): the range assignor.
func TestHeartbeatWithRangeAssignor(t *testing.T) {
	g := New(Config{Assignor: AssignorRange}, cluster)
	g, _ = step(t, g, joinReq("a", "t"), "")
	g, _ = step(t, g, joinReq("b", "t"), "")
	if !g.TargetOf("a").Equal(ps("t-0 t-1")) || !g.TargetOf("b").Equal(ps("t-2 t-3")) {
		t.Errorf("target = %v", g.Target())
	}
	_ = impl.Kafka
}
