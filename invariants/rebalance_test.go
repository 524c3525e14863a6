package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestRebalanceCause: rebalance-cause holds in a KIP-423 world with a follow-up rebalance (a
// member's UPGRADE join rebalances a Stable group: KAFKA.md §4; v0 subscriptions, so that the
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
	underKafka := Property{Name: "kafka-rules", Kind: explorer.Always, Step: func(pre spec.World, _ []spec.Event, post spec.World) string {
		return rebalanceWithoutCause(pre.Coord, post.Coord, impl.Kafka)
	}}
	m := NewModelWith(c, []Property{rebalanceCause, underKafka})
	r := explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{})
	if r.Properties[0].Status != explorer.Holds {
		t.Fatalf("rebalance-cause %v: %v", r.Properties[0].Status, pathText(c, r.Properties[0].Path))
	}
	p := r.Properties[1]
	if p.Status != explorer.Violated {
		t.Fatalf("no KIP-423 forced rebalance found (%v)", p.Status)
	}
	n := len(p.Path.Steps)
	pre, post := p.Path.Steps[n-2].State, p.Path.Steps[n-1].State
	if why := rebalanceWithoutCause(pre.Coord, post.Coord, impl.KIP); why != "" {
		t.Errorf("the forced rebalance has no cause under KIP-423 either: %s", why)
	}
	if rebalanceCause.Applies(config(t, twoMembers+"budget failovers=1\n")) {
		t.Error("rebalance-cause applies to a failover world")
	}
	t.Logf("the shortest forced rebalance: %v", pathText(c, p.Path))
}
