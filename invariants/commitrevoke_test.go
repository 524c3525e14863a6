package invariants

import (
	"fmt"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestCommitBeforeRevoke: a STABLE member that leaves commits what it revokes in the same
// step (the property holds on the model's step), and the property names the step once its
// OffsetCommit is taken out.
func TestCommitBeforeRevoke(t *testing.T) {
	c := config(t, twoMembers+"budget leaves=1\n")
	ws := walk(t, c, stableScript...)
	pre := ws[len(ws)-1]
	ev := stepEvents(t, pre, "leave a")
	post := walk(t, c, append(stableScript, "leave a")...)
	if got := commitBeforeRevoke.Step(&pre, ev, &post[len(post)-1]); got != "" {
		t.Errorf("the model's step: %q", got)
	}
	var without []spec.Event
	var revoked impl.PartitionSet
	for _, e := range ev {
		if s, ok := e.(spec.SendEvent); ok {
			if _, commit := s.Request.(impl.OffsetCommitRequest); commit {
				continue
			}
		}
		if cb, ok := e.(spec.CallbackEvent); ok {
			revoked = cb.Partitions
		}
		without = append(without, e)
	}
	if len(without) == len(ev) || revoked.IsEmpty() {
		t.Fatalf("leaving did not commit and revoke: %v", ev)
	}
	want := fmt.Sprintf("a revokes %s while STABLE without committing them", revoked)
	if got := commitBeforeRevoke.Step(&pre, without, &post[len(post)-1]); got != want {
		t.Errorf("without the commit: %q, want %q", got, want)
	}
}
