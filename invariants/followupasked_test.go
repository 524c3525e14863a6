package invariants

import (
	"slices"
	"testing"

	"github.com/groupcheck/groupcheck/spec"
)

// TestFollowupAsked: in a cooperative world of two members with one follow-up the property
// holds, and the first round whose assignor asks b for a follow-up is named once the request
// sits on a instead (impl/leader's 915, 917: RequestFollowup marking the first member, or
// another member than the one asked) or on nobody.
func TestFollowupAsked(t *testing.T) {
	c := config(t, twoMembers+"budget followups=1\n")
	pre, ev, post, _ := shortestStep(t, c, followupAsked, func(_ *spec.World, ev []spec.Event, _ *spec.World) bool {
		as := assignments(ev)
		return len(as) == 1 && len(as[0].Assignments) == 2 && as[0].Followup == as[0].Assignments[1].MemberID
	})
	for name, mark := range map[string][2]bool{"on a": {true, false}, "on nobody": {false, false}, "on both": {true, true}} {
		bad := slices.Clone(ev)
		for i, e := range bad {
			if a, ok := e.(spec.AssignEvent); ok {
				a.Assignments = slices.Clone(a.Assignments)
				a.Assignments[0].Assignment.Followup, a.Assignments[1].Assignment.Followup = mark[0], mark[1]
				bad[i] = a
			}
		}
		if why := followupAsked.Step(&pre, bad, &post); why == "" {
			t.Errorf("the request %s is not named", name)
		} else {
			t.Logf("%s: %s", name, why)
		}
	}
}
