package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestRebalanceCause: rebalance-cause holds in a KIP-423 world with a follow-up rebalance (a
// member's UPGRADE join rebalances a Stable group: docs/protocol.md §4; v0 subscriptions, so that the
// rejoin's metadata is the same as before — v2 carries the generation), and the same
// transition judged by shipped Kafka's rules — where the reason is ignored and a follower's
// unchanged JoinGroup gets the current generation (§1.4) — is named as a rebalance without
// cause: the property bites on exactly the rounds one variant starts and the other does not.
func TestRebalanceCause(t *testing.T) {
	c := config(t, `protocol eager
consumer kip
coordinator kip423
assignor range
topic t 2
member a topics=t version=0
member b topics=t version=0
budget followups=1
`)
	pre, _, post, _ := shortestStep(t, c, rebalanceCause, func(pre *spec.World, _ []spec.Event, post *spec.World) bool {
		return rebalanceWithoutCause(pre.Coord, post.Coord, impl.Kafka) != ""
	})
	if why := rebalanceWithoutCause(pre.Coord, post.Coord, impl.KIP); why != "" {
		t.Errorf("the forced rebalance has no cause under KIP-423 either: %s", why)
	}
	if rebalanceCause.Applies(config(t, twoMembers+"budget failovers=1\n")) {
		t.Error("rebalance-cause applies to a failover world")
	}
}

// TestKIP848EpochCause: a member that switches its subscription to u and back bumps the group
// epoch twice, each time for a cause (the steps hold); the pair (before the first switch,
// after the second) — the epoch two higher, members and subscriptions the same — is what a
// bump without cause looks like, and the property names it.
func TestKIP848EpochCause(t *testing.T) {
	c := config(t, "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 1\ntopic u 1\nmember a topics=t alt-topics=u\nbudget subscription-changes=2\n")
	script := []string{"deliver-request a", "deliver-response a", "resubscribe a", "deliver-request a", "deliver-response a",
		"heartbeat a", "deliver-request a", "deliver-response a", "deliver-request a", "deliver-response a",
		"deliver-request a", "deliver-response a", "deliver-request a", "deliver-response a",
		"resubscribe a", "heartbeat a", "deliver-request a"}
	ws := walk(t, c, script...)
	for i := 1; i < len(ws); i++ {
		_, ev, _ := spec.Step(ws[i-1], mustAction(t, ws[i-1], script[i-1]))
		if got := kip848EpochCause.Step(&ws[i-1], ev, &ws[i]); got != "" {
			t.Fatalf("step %d (%s): %s", i, script[i-1], got)
		}
	}
	before, after := ws[2], ws[len(ws)-1]
	if after.Group.GroupEpoch() != before.Group.GroupEpoch()+2 {
		t.Fatalf("epochs %d → %d, want two bumps", before.Group.GroupEpoch(), after.Group.GroupEpoch())
	}
	if got := kip848EpochCause.Step(&before, nil, &after); got == "" {
		t.Error("a bump with the same members and subscriptions is not named")
	}
}

func mustAction(t *testing.T, w spec.World, s string) spec.Action {
	t.Helper()
	a, err := spec.ParseAction(w.Config(), s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
