package invariants

import (
	"slices"
	"strings"
	"testing"

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
		pre, ev, post, _ := shortestStep(t, c, commitReported, func(_ *spec.World, ev []spec.Event, _ *spec.World) bool {
			return slices.ContainsFunc(ev, func(e spec.Event) bool {
				r, ok := e.(spec.ReceiveEvent)
				_, isCommit := r.Response.(impl.OffsetCommitResponse)
				return ok && isCommit
			})
		})
		if got := commitReported.Step(&pre, ev, &post); got != "" {
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
			if got := commitReported.Step(&pre, forged, &post); !strings.Contains(got, "does not report it to the application") {
				t.Errorf("%s commit: %q", name, got)
			}
		}
	}
}
