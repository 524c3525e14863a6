package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
)

// TestCoordinatorConsistent: twoMembers' Stable generation 1 is consistent; groups loaded from
// records that disagree with themselves — a leader that is not a member, a protocol the
// members do not list, an Empty record naming a protocol — are named.
func TestCoordinatorConsistent(t *testing.T) {
	ws := walk(t, config(t, twoMembers), stableScript...)
	stable := ws[len(ws)-1]
	if got := coordinatorConsistent.State(&stable); got != "" {
		t.Fatalf("Stable generation 1: %q", got)
	}
	rec := coordinator.Record{Generation: 1, Protocol: stable.Coord.ProtocolName(), Leader: stable.Coord.Leader(), Members: []coordinator.RecordMember{{ID: "a#1"}, {ID: "b#1"}}}
	for _, tc := range []struct {
		name string
		edit func(r *coordinator.Record)
		want string
	}{
		{"the leader no member", func(r *coordinator.Record) { r.Leader = "c#1" }, "is not among its members"},
		{"an Empty record with a protocol", func(r *coordinator.Record) { r.Members, r.Leader = nil, "" }, "the group is Empty with members [], leader \"\", protocol"},
	} {
		r := rec
		tc.edit(&r)
		if got := inconsistentGroup(coordinator.Load(coordinator.Config{}, r, true)); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want …%s…", tc.name, got, tc.want)
		}
	}
}

// TestProtocolVote: two members ranking roundrobin first and one ranking range first elect
// roundrobin; range (the smaller name: 204, 205, 210, 211's winner) loses the vote, a tie may
// go either way, and an assignor not every member lists never wins.
func TestProtocolVote(t *testing.T) {
	rr := []impl.GroupProtocol{{Name: "roundrobin"}, {Name: "range"}}
	rg := []impl.GroupProtocol{{Name: "range"}, {Name: "roundrobin"}}
	three := []coordinator.Member{{ID: "a#1", Protocols: rr}, {ID: "b#1", Protocols: rr}, {ID: "c#1", Protocols: rg}}
	if got := voteLost(three, "roundrobin"); got != "" {
		t.Errorf("the majority's choice: %q", got)
	}
	if got := voteLost(three, "range"); got != "the group runs range with 1 votes, roundrobin has 2" {
		t.Errorf("the minority's choice: %q", got)
	}
	if got := voteLost(three[1:], "range"); got != "" {
		t.Errorf("a tie: %q", got)
	}
	odd := append(slices.Clone(three), coordinator.Member{ID: "d#1", Protocols: []impl.GroupProtocol{{Name: "roundrobin"}, {Name: "sticky"}}})
	if got := voteLost(odd, "sticky"); !strings.Contains(got, "sticky with 0 votes") {
		t.Errorf("an assignor not all list: %q", got)
	}
}
