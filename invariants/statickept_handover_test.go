package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// TestStaticKeptAtDeadlineHandsOver: b, static, leads generation 1 and owns t-0; a joins, b is
// slow to rejoin and the join deadline keeps it with its last subscription (KAFKA-8220), which
// claims nothing, so a's generation-2 assignment gives t-0 to a while b still processes it.
// The violation is real and expected (staticKeptAtDeadline); with b dynamic the deadline
// removes b instead, and nothing is expected.
func TestStaticKeptAtDeadlineHandsOver(t *testing.T) {
	const world = `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t static absent
member b topics=t static
budget joins=1 join-timeouts=1
`
	c := config(t, world)
	if why := noHandoverWhileOwned.ExpectedViolation(c); !strings.Contains(why, "KAFKA-8220") {
		t.Fatalf("expected reason %q", why)
	}
	m := NewModelWith(c, []Property{noHandoverWhileOwned})
	r := explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{})
	if r.Properties[0].Status != explorer.Violated {
		t.Fatalf("no-handover-while-owned %v: the slow static member's partition is never handed on", r.Properties[0].Status)
	}
	if got := m.Explain(noHandoverWhileOwned.Name, r.Properties[0].Path); !strings.Contains(got, "still owns it") {
		t.Errorf("explanation %q", got)
	}
	dynamic := config(t, strings.ReplaceAll(world, " static", ""))
	if why := noHandoverWhileOwned.ExpectedViolation(dynamic); why != "" {
		t.Errorf("dynamic members: expected %q", why)
	}
}

// TestStaticSlowRejoinPresets: in the two static-slow-rejoin presets every property holds or
// fails only where it names why. The new owner's commit of a partition the member kept at the
// join deadline still processes is commit-fencing's violation, expected for the reason
// no-handover-while-owned gives (KAFKA-8220: the coordinator's commit check is
// generation-only); under cooperative-sticky the kept member rejoins the next generation still
// owning it, so exclusive-ownership fails too, expected likewise, and under eager it holds.
// With the members dynamic the deadline removes the slow one: both hold, nothing is expected.
func TestStaticSlowRejoinPresets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		preset    string
		exclusive explorer.Status
	}{{"static-slow-rejoin", explorer.Violated}, {"static-slow-rejoin-eager", explorer.Holds}} {
		t.Run(tc.preset, func(t *testing.T) {
			c := presetConfig(t, tc.preset)
			r := check(t, c, 0)
			if !r.Exhaustive {
				t.Fatalf("not exhaustive: %s", r.StoppedBy)
			}
			holdsOrExpected(t, c, r)
			for name, want := range map[string]explorer.Status{"commit-fencing": explorer.Violated, "no-handover-while-owned": explorer.Violated, "exclusive-ownership": tc.exclusive} {
				q, _ := Lookup(name)
				if s := status(r, name); s != want || (s == explorer.Violated && !strings.Contains(q.ExpectedViolation(c), "KAFKA-8220")) {
					t.Errorf("%s: %s (expected %q), want %s", name, s, q.ExpectedViolation(c), want)
				}
			}
			for _, q := range r.Properties {
				if q.Name == "commit-fencing" && !strings.Contains(NewModel(c).Explain(q.Name, q.Path), "owns") {
					t.Errorf("commit-fencing's explanation %q names no owner", NewModel(c).Explain(q.Name, q.Path))
				}
			}
			dynamic := config(t, strings.ReplaceAll(presetText(t, tc.preset), " static", ""))
			d := check(t, dynamic, 0)
			for _, name := range []string{"commit-fencing", "no-handover-while-owned", "exclusive-ownership"} {
				q, _ := Lookup(name)
				if s := status(d, name); s != explorer.Holds || q.ExpectedViolation(dynamic) != "" {
					t.Errorf("dynamic members: %s %s (expected %q), want holds and nothing expected", name, s, q.ExpectedViolation(dynamic))
				}
			}
		})
	}
}
