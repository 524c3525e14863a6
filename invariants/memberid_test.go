package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestMemberIDAdopted: the first JoinGroup is answered MEMBER_ID_REQUIRED (KIP-394) and
// member-id-adopted holds on that step; a member that keeps no id, or re-joins without it,
// is named.
func TestMemberIDAdopted(t *testing.T) {
	c := config(t, twoMembers)
	pre, ev, post, _ := shortestStep(t, c, memberIDAdopted, func(_ *spec.World, ev []spec.Event, _ *spec.World) bool {
		return slices.ContainsFunc(ev, func(e spec.Event) bool {
			r, ok := e.(spec.ReceiveEvent)
			j, isJoin := r.Response.(impl.JoinGroupResponse)
			return ok && isJoin && j.Error == impl.MemberIDRequired
		})
	})
	r := ev[slices.IndexFunc(ev, func(e spec.Event) bool { _, ok := e.(spec.ReceiveEvent); return ok })].(spec.ReceiveEvent)
	kept := ownSlots(post)
	kept.Slots[r.Slot].Client.Gen.MemberID = impl.NoMemberID
	if got := memberIDAdopted.Step(&pre, ev, &kept); !strings.Contains(got, `by MEMBER_ID_REQUIRED and holds ""`) {
		t.Errorf("id not adopted: %q", got)
	}
	anon := slices.Clone(ev)
	for k, e := range anon {
		if s, ok := e.(spec.SendEvent); ok {
			j := s.Request.(impl.JoinGroupRequest)
			j.MemberID = impl.NoMemberID
			s.Request = j
			anon[k] = s
		}
	}
	if got := memberIDAdopted.Step(&pre, anon, &post); !strings.Contains(got, `by MEMBER_ID_REQUIRED and joins as ""`) {
		t.Errorf("joins without the id: %q", got)
	}
}
