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
