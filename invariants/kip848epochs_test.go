package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// TestKIP848EpochChecked: in a one-member world whose epoch moves twice (two partition
// additions, two lost answers: the stale retry the rule is for), every accepted heartbeat is at
// the member's current or previous epoch; the member's first accepted heartbeat at epoch 1,
// judged against a coordinator that holds it at epoch 3 (a later world's group), is named.
func TestKIP848EpochChecked(t *testing.T) {
	c := config(t, "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 1\nmember a topics=t\nbudget partition-additions=2 lost-responses=2\n")
	m := NewModelWith(c, []Property{kip848EpochChecked, {Name: "epoch-below-3", Kind: explorer.Always, State: func(w *spec.World) string {
		if mb, ok := w.Group.Member("a#1"); ok && mb.MemberEpoch >= 3 {
			return "a#1 at epoch 3"
		}
		return ""
	}}})
	r := explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{})
	if r.Properties[0].Status != explorer.Holds {
		t.Fatalf("kip848-epoch-checked %v: %v", r.Properties[0].Status, pathText(c, r.Properties[0].Path))
	}
	far := r.Properties[1]
	if far.Status != explorer.Violated {
		t.Fatalf("the member never reaches epoch 3 (%v)", far.Status)
	}
	later := far.Path.Steps[len(far.Path.Steps)-1].State
	// deliver the join (epoch 0 → 1) and take the answer: the first heartbeat at epoch 1 is
	// on its way.
	script := []string{"deliver-request a", "deliver-response a"}
	ws := walk(t, c, script...)
	pre := ws[len(ws)-1]
	post, ev, ok := spec.Step(pre, mustAction(t, pre, "deliver-request a"))
	if !ok {
		t.Fatal("the heartbeat is not deliverable")
	}
	if got := kip848EpochChecked.Step(&pre, ev, &post); got != "" {
		t.Fatalf("the heartbeat at the current epoch: %s", got)
	}
	stale := pre
	stale.Group = later.Group
	if got := kip848EpochChecked.Step(&stale, ev, &post); !strings.Contains(got, "heartbeat at epoch 1 is accepted while the coordinator holds it at epoch 3") {
		t.Errorf("judged against epoch 3: %q", got)
	}
}
