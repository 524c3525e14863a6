package invariants

import (
	"bytes"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// TestFollowupRebalances: an assignor that asks for follow-up rebalances (budget followups,
// KIP-441; Kafka Streams' nextRebalanceMs) leaves every property and converges intact in two
// member worlds: cooperative (the member keeps its partitions through the follow-up), eager
// (it revokes everything first), with a crash among the follow-ups, and under KIP-429's
// consumer and KIP-423 coordinator (the follow-up's JoinReason UPGRADE always rebalances).
// Reference: KIP-441; KIP-568; docs/protocol.md §1.4, §2.3.
func TestFollowupRebalances(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"tests/followup-cooperative",
		"tests/followup-eager",
		"tests/followup-cooperative-crash",
		"tests/followup-kip423",
		// The preset adds commits (README Results).
		"cooperative-followup",
	} {
		t.Run(name, func(t *testing.T) {
			c := world(t, name)
			if pin := pinOf(t, name); !long() && pin.Distinct > 10000 {
				t.Skipf("explores %d states with liveness (GROUPCHECK_LONG)", pin.Distinct)
			}
			r := check(t, c, 0)
			pinned(t, name, r)
			holdsOrExpected(t, c, r)
			if l := Liveness(c, 0); l.Status != explorer.Holds {
				t.Errorf("converges: %s (%d stuck, %d fair cycles, %d dead ends)", l.Status, l.Stuck, l.FairCycles, l.DeadEnds)
			}
		})
	}
}

// TestFollowupOfUnchangedFollowerRepeats: a follow-up asked of a follower whose JoinGroup
// metadata the Stable group already holds is answered with the current generation, without a
// rebalance (docs/protocol.md §1.4), and its SyncGroup with the stored assignment, follow-up request
// included (KAFKA-9821 keeps it there): the world after the second round trip is the world
// after the first, so the member revokes, rejoins and takes its partitions back for ever
// while the asked-for rebalance never comes (KAFKA-10455; Streams' fix is a counter in its
// subscription user data, SubscriptionInfo uniqueField). Eager range members writing v1
// subscriptions (no generation field) hit it; with v2 the generation label changes after
// every completed round, so the follow-up rebalances (the second case), and KIP-423's
// JoinReason, had it shipped, would have made it rebalance too (the third).
// Replay: traces/scenarios/followup-unchanged-follower-kafka.trace.
func TestFollowupOfUnchangedFollowerRepeats(t *testing.T) {
	const eagerV1 = `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 2
member a topics=t version=1
member b topics=t version=1
budget followups=1
`
	form := []string{"poll a", "deliver-request a", "deliver-response a", "deliver-request a",
		"poll b", "deliver-request b", "deliver-response b", "deliver-request b", "join-timeout",
		"deliver-response a", "assign a followup=b#1", "deliver-request a", "deliver-response a",
		"deliver-response b", "deliver-request b", "deliver-response b"}
	rejoin := []string{"followup b", "poll b", "deliver-request b", "deliver-request b"}
	back := []string{"deliver-response b", "deliver-response b", "deliver-request b", "deliver-response b"}
	for _, tc := range []struct {
		name       string
		world      string
		wantRepeat bool
	}{
		{"v1 subscriptions: no rebalance, the request comes back", eagerV1, true},
		{"v2 subscriptions: the generation label changed, a rebalance", strings.ReplaceAll(eagerV1, "version=1", "version=2"), false},
		// KIP-423: a follow-up says UPGRADE, which always rebalances (impl/coordinator kipForcesRebalance).
		{"v1, the KIP variant's consumer and KIP-423: JoinReason UPGRADE rebalances",
			strings.NewReplacer("consumer kafka", "consumer kip", "coordinator kafka", "coordinator kip423").Replace(eagerV1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(t, tc.world)
			ws := walk(t, c, form...)
			w := ws[len(ws)-1]
			if !w.Slots[1].Client.FollowupDue || w.Coord.State() != coordinator.Stable {
				t.Fatalf("setup: b has no follow-up due in a Stable group: %v", w)
			}
			gen := w.Coord.Generation()
			ws = walk(t, c, append(form, rejoin...)...)
			joined := ws[len(ws)-1]
			if rebalancing := joined.Coord.State() == coordinator.PreparingRebalance; rebalancing == tc.wantRepeat {
				t.Fatalf("b's follow-up JoinGroup rebalanced: %v, want %v (%s gen %d)", rebalancing, !tc.wantRepeat, joined.Coord.State(), joined.Coord.Generation())
			}
			if !tc.wantRepeat {
				return
			}
			ws = walk(t, c, append(append(form, rejoin...), back...)...)
			after := ws[len(ws)-1]
			if !bytes.Equal(w.Encode(nil), after.Encode(nil)) || after.Coord.Generation() != gen {
				t.Errorf("the world does not repeat after the follow-up:\nbefore %v\nafter  %v", w, after)
			}
		})
	}
}

// presetText is a built-in world's config text.
func presetText(t *testing.T, name string) string {
	t.Helper()
	for _, p := range spec.Presets {
		if p.Name == name {
			return p.Text
		}
	}
	t.Fatalf("no preset %q", name)
	return ""
}
