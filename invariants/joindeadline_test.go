package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// memberlessPreparing is a member that leaves while a newcomer holds only a KIP-394 pending
// id: the group is PreparingRebalance (not the initial delay) with no member left.
const memberlessPreparing = `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t
member b topics=t absent
budget joins=1 leaves=1
`

// staticPair is two static members, b starting late: b's join makes a group of static members
// with a parked JoinGroup beside an absent one.
const staticPair = `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t static
member b topics=t static absent
budget joins=1 session-timeouts=1
`

// TestJoinDeadline: the reference's join timer can fire in a memberless join phase (a pending
// id left: 356, 357, 358 disable it) and in a static group where one member rejoined (361),
// and cannot where every member is an absent static one (KAFKA-8220's re-arm: 356, 358, 363
// and 57 enable it); join-deadline names each disagreement.
func TestJoinDeadline(t *testing.T) {
	preparing := func(w spec.World) bool {
		return w.Coord.State() == coordinator.PreparingRebalance && !w.Coord.InitialJoin()
	}
	memberless := find(t, config(t, memberlessPreparing), func(w spec.World) bool {
		return preparing(w) && len(w.Coord.Members()) == 0 && len(w.Coord.Pending()) > 0
	})
	static := config(t, staticPair)
	oneRejoined := find(t, static, func(w spec.World) bool {
		ms := w.Coord.AllMembers()
		return preparing(w) && len(ms) == 2 && ms[0].Join.Parked != ms[1].Join.Parked
	})
	allAbsent := find(t, static, func(w spec.World) bool {
		ms := w.Coord.AllMembers()
		return preparing(w) && len(ms) > 0 && !ms[0].Join.Parked && (len(ms) == 1 || !ms[1].Join.Parked)
	})
	for _, tc := range []struct {
		name string
		w    spec.World
		due  bool
		want string
	}{
		{"memberless", memberless, true, "(no member left) and its join timer cannot fire"},
		{"one static member rejoined", oneRejoined, true, "rejoined) and its join timer cannot fire"},
		{"every static member absent", allAbsent, false, "(every member is a static member that has not rejoined) and its join timer can fire"},
	} {
		if got := joinDeadline.State(&tc.w); got != "" {
			t.Errorf("%s: the reference: %s", tc.name, got)
		}
		if got := tc.w.Coord.EnabledJoinPhaseTimeout(); got != tc.due {
			t.Errorf("%s: the reference's timer enabled %v", tc.name, got)
		}
		if got := joinDeadlineWrong(tc.w.Coord, !tc.due); !strings.Contains(got, tc.want) {
			t.Errorf("%s: the timer flipped: %q, want …%s…", tc.name, got, tc.want)
		}
	}
	if got := joinDeadlineWrong(coordinator.New(coordinator.Config{}), true); !strings.Contains(got, "Empty (no join phase)") {
		t.Errorf("an Empty group's timer: %q", got)
	}
}

// TestStaticKept: two static members, b starting late, one slow rejoin: the deadline ends the
// phase b's join started while a is still at generation 1, and a is kept (static-member-kept
// reached); while a's answer is on its way, or once a has rejoined, the same generation does
// not show it.
func TestStaticKept(t *testing.T) {
	c := config(t, staticPair+"budget join-timeouts=1\n")
	if !staticKept.Applies(c) || staticKept.Applies(config(t, staticPair)) {
		t.Fatal("applies only where a join timeout is budgeted")
	}
	kept := find(t, c, func(w spec.World) bool { return staticKept.State(&w) == "" })
	if a := kept.Slots[0].Client.Gen; a.ID != 1 || kept.Coord.Generation() != 2 {
		t.Fatalf("a at %d, the group at %d:\n%s", a.ID, kept.Coord.Generation(), kept)
	}
	joined := find(t, c, func(w spec.World) bool {
		return w.Coord.Generation() == 2 && w.Slots[0].Client.Gen.ID == 2 && w.Slots[1].Client.Gen.ID == 2
	})
	if got := staticKept.State(&joined); got == "" {
		t.Errorf("both members joined generation 2, yet the property is reached:\n%s", joined)
	}
}
