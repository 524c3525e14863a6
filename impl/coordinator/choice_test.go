package coordinator

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// TestWithLeader: another rejoined member may lead the generation a completion started
// (Kafka's maybeElectNewJoinedLeader picks an arbitrary one; docs/protocol.md §1.3 step 2),
// and nothing else changes; outside CompletingRebalance, or for a non-member, nothing does.
func TestWithLeader(t *testing.T) {
	completing := mod(stable(dyn("a"), dyn("b")), func(g *Group) { g.state = CompletingRebalance })
	for _, tc := range []struct {
		name   string
		g      Group
		id     impl.MemberID
		ok     bool
		leader impl.MemberID
	}{
		{"another member of the new generation", completing, "b", true, "b"},
		{"the elected leader itself", completing, "a", true, "a"},
		{"not a member", completing, "x", false, "a"},
		{"Stable: the round is over", stable(dyn("a"), dyn("b")), "b", false, "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.g.WithLeader(tc.id)
			if ok != tc.ok || got.Leader() != tc.leader {
				t.Fatalf("WithLeader(%s) = leader %s, %v; want %s, %v", tc.id, got.Leader(), ok, tc.leader, tc.ok)
			}
			want := tc.g
			want.leader = tc.leader
			check(t, tc.name, got, nil, want, nil)
		})
	}
}
