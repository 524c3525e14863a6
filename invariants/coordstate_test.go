package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl/coordinator"
)

// TestCoordinatorConsistent: twoMembers' Stable generation 1 is consistent; groups loaded from
// records that disagree with themselves — a leader that is not a member, a protocol the
// members do not list, an Empty record naming a protocol — are named.
func TestCoordinatorConsistent(t *testing.T) {
	ws := walk(t, config(t, twoMembers), stableScript...)
	stable := ws[len(ws)-1]
	if got := coordinatorConsistent.State(stable); got != "" {
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
