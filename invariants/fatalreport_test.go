package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/spec"
)

// TestFatalReported: in a classic and a KIP-848 world with a group size limit, a member
// refused GROUP_MAX_SIZE_REACHED stops; fatal-reported holds on that step and names it
// without its report.
func TestFatalReported(t *testing.T) {
	for _, world := range []string{
		strings.Replace(kip848Pair, "topic t 2", "topic t 1", 1) + "group-max-size 1\n",
		twoMembers + "group-max-size 1\n",
	} {
		c := config(t, world)
		pre, ev, post, _ := shortestStep(t, c, fatalReported, func(_ *spec.World, ev []spec.Event, _ *spec.World) bool {
			return slices.ContainsFunc(ev, func(e spec.Event) bool { _, ok := e.(spec.FatalEvent); return ok })
		})
		if got := fatalReported.Step(&pre, ev, &post); got != "" {
			t.Fatalf("the real stop: %s", got)
		}
		if got := fatalReported.Step(&pre, without[spec.FatalEvent](ev), &post); !strings.Contains(got, "does not tell the application") {
			t.Errorf("%s: a silent stop: %q", c.Name, got)
		}
	}
}
