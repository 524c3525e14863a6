package invariants

import (
	"slices"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// leaderVersionsMixed is a rolling upgrade to KIP-792: a v1 cooperative member leads, a v2 one
// joins and, from its second JoinGroup on, sends the generation field a v1 reader cannot see.
const leaderVersionsMixed = `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t version=1
member b topics=t version=2 absent
budget joins=1
`

// TestLeaderReadsOwnVersion: in leaderVersionsMixed the property holds, and on the first round
// a's v1 leader computes while b's v2 subscription carries a generation, the round is named
// once the leader is made to see it (impl/leader's 928: ReadMembers keeping every field) or to
// lose b's topics.
func TestLeaderReadsOwnVersion(t *testing.T) {
	c := config(t, leaderVersionsMixed)
	pre, ev, post, _ := shortestStep(t, c, leaderReadsOwnVersion, func(pre *spec.World, ev []spec.Event, _ *spec.World) bool {
		for _, a := range assignments(ev) {
			if pre.Config().Members[a.Slot].SubscriptionVersion != 1 {
				continue
			}
			for _, m := range pre.Slots[a.Slot].Assigning.Members {
				if m.Metadata.Version == 2 && m.Metadata.Generation >= 0 {
					return true
				}
			}
		}
		return false
	})
	raw := pre.Slots[assignments(ev)[0].Slot].Assigning.Members
	k := slices.IndexFunc(raw, func(m impl.JoinGroupMember) bool { return m.Metadata.Generation >= 0 })
	id := raw[k].MemberID
	tamper := map[string]func(*spec.AssignEvent){
		"reads every field (928)": func(a *spec.AssignEvent) { a.Members = slices.Clone(raw) },
		"drops topics": func(a *spec.AssignEvent) {
			a.Members = slices.Clone(a.Members)
			for i := range a.Members {
				if a.Members[i].MemberID == id {
					a.Members[i].Metadata.Topics = nil
				}
			}
		},
	}
	for name, f := range tamper {
		bad := slices.Clone(ev)
		for i, e := range bad {
			if a, ok := e.(spec.AssignEvent); ok {
				f(&a)
				bad[i] = a
			}
		}
		if why := leaderReadsOwnVersion.Step(&pre, bad, &post); why == "" {
			t.Errorf("%s: not named", name)
		} else {
			t.Logf("%s: %s", name, why)
		}
	}
}
