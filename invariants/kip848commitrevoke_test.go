package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// TestKIP848CommitBeforeRevoke: in a KIP-848 world where b joins and a gives a partition up,
// kip848-commit-before-revoke holds on the real revocation; the same step with the commit in
// flight not the revocation's, or without the commit's end, is named.
func TestKIP848CommitBeforeRevoke(t *testing.T) {
	c := config(t, strings.Replace(kip848Pair, "member b topics=t\n", "member b topics=t absent\n", 1)+"budget joins=1\n")
	pre, ev, post, _ := shortestStep(t, c, kip848CommitBeforeRevoke, func(pre *spec.World, ev []spec.Event, post *spec.World) bool {
		return callbackOf(consumer.Revoked)(pre, ev, post) && post.Slots[0].Process == spec.Running
	})
	if got := kip848CommitBeforeRevoke.Step(&pre, ev, &post); got != "" {
		t.Fatalf("the real revocation: %s", got)
	}
	plain := ownSlots(pre)
	plain.Slots[0].Member.Commit.Revocation = false
	if got := kip848CommitBeforeRevoke.Step(&plain, ev, &post); !strings.Contains(got, "without a revocation commit of them in flight") {
		t.Errorf("a revocation on a plain commit's answer: %q", got)
	}
	if got := kip848CommitBeforeRevoke.Step(&pre, without[spec.CommitResultEvent](ev), &post); !strings.Contains(got, "before its revocation commit ended") {
		t.Errorf("a revocation before the commit ended: %q", got)
	}
}
