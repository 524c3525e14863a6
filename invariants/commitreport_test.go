package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestCommitReported: in a classic and a KIP-848 world with commits, commit-reported holds; at
// the shortest delivery of a commit's answer, the step without its report, or with a report of
// another verdict, is named.
func TestCommitReported(t *testing.T) {
	kip848 := "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t\n"
	for _, world := range []string{twoMembers + "commits on\n", kip848 + "commits on\n"} {
		c := config(t, world)
		answered := Property{Name: "no-commit-answer", Kind: explorer.Always, Step: func(_ spec.World, ev []spec.Event, _ spec.World) string {
			for _, e := range ev {
				if r, ok := e.(spec.ReceiveEvent); ok {
					if _, isCommit := r.Response.(impl.OffsetCommitResponse); isCommit {
						return "a commit's answer is received"
					}
				}
			}
			return ""
		}}
		m := NewModelWith(c, []Property{commitReported, answered})
		r := explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{})
		if r.Properties[0].Status != explorer.Holds {
			t.Fatalf("commit-reported %v: %v", r.Properties[0].Status, pathText(c, r.Properties[0].Path))
		}
		p := r.Properties[1]
		if p.Status != explorer.Violated {
			t.Fatalf("no commit answer is ever received (%v)", p.Status)
		}
		n := len(p.Path.Steps)
		pre := p.Path.Steps[n-2].State
		post, ev, _ := spec.Step(pre, p.Path.Steps[n-1].Action)
		if got := commitReported.Step(pre, ev, post); got != "" {
			t.Fatalf("the real step: %s", got)
		}
		var silent, wrong []spec.Event
		for _, e := range ev {
			if c, ok := e.(spec.CommitResultEvent); ok {
				c.Accepted, c.Error = !c.Accepted, impl.RebalanceInProgress
				wrong = append(wrong, c)
				continue
			}
			silent, wrong = append(silent, e), append(wrong, e)
		}
		for name, forged := range map[string][]spec.Event{"unreported": silent, "misreported": wrong} {
			if got := commitReported.Step(pre, forged, post); !strings.Contains(got, "does not report it to the application") {
				t.Errorf("%s commit: %q", name, got)
			}
		}
	}
}
