package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
)

const mixedUpgrade = twoMembers + "budget bounces=2\ncommits on\n"

// upgradeMidRound is the explorer's shortest path to two owners in migration-upgrade: b
// bounces to the consumer protocol while a's second classic round is under way; b's
// LeaveGroup sends the group from CompletingRebalance back to PreparingRebalance, which
// clears every stored assignment, and b's join converts the group with a assigned nothing, so
// the target gives t-1 to b while a, cooperative, still owns both.
var upgradeMidRound = strings.Split("poll a,deliver-request a,deliver-response a,deliver-request a,poll b,deliver-request b,deliver-response b,bounce b,join-timeout,deliver-response a,assign a,deliver-request a,deliver-response a,deliver-request b,heartbeat a,deliver-request a,deliver-response a,poll a,deliver-request a,deliver-request a,deliver-response a,deliver-response a,deliver-request b,deliver-request b,deliver-response b", ",")

func TestMixedPropertiesApplyToMixedWorldsOnly(t *testing.T) {
	names := func(text string) map[string]bool {
		out := map[string]bool{}
		for _, p := range For(config(t, text)) {
			out[p.Name] = true
		}
		return out
	}
	mixed := names(mixedUpgrade)
	for name := range mixedProperties {
		if !mixed[name] {
			t.Errorf("%s does not apply to a mixed world", name)
		}
	}
	for name := range mixed {
		if !mixedProperties[name] {
			t.Errorf("%s applies to a mixed world", name)
		}
	}
	for name := range names(twoMembers + "commits on\n") {
		if strings.HasPrefix(name, "mixed-") {
			t.Errorf("%s applies to a classic world", name)
		}
	}
}

func TestUpgradeMidRoundHasTwoOwners(t *testing.T) {
	c := config(t, mixedUpgrade)
	ws := walk(t, c, upgradeMidRound...)
	last, before := ws[len(ws)-1], ws[len(ws)-2]
	if why := mixedExclusiveOwnership.State(&before); why != "" {
		t.Fatalf("violated a step early: %s", why)
	}
	why := mixedExclusiveOwnership.State(&last)
	if !strings.Contains(why, "(t-1) owned by a (a#1 epoch 2) and b (b#2 epoch 3)") {
		t.Fatalf("mixed-exclusive-ownership = %q\n%s", why, last)
	}
	if mixedExclusiveOwnership.ExpectedViolation(c) == "" {
		t.Fatalf("the seam is not marked expected in %s", c.Name)
	}
	if !last.IsConsumerGroup() || last.ConsumerSlot(0) || !last.ConsumerSlot(1) {
		t.Fatalf("want a consumer group with a classic a and a consumer b:\n%s", last)
	}
}

// TestMixedPropertiesHoldWithoutUpgrades: with upgrades disabled the consumer-protocol joiner
// is refused (GROUP_ID_NOT_FOUND) and the seam never opens: every property holds, none is
// expected to fail.
func TestMixedPropertiesHoldWithoutUpgrades(t *testing.T) {
	c := config(t, strings.Replace(mixedUpgrade, "bounces=2", "bounces=1", 1)+"migration-policy downgrade\n")
	r := check(t, c, 2)
	for _, p := range r.Properties {
		if p.Status != explorer.Holds {
			t.Errorf("%s: %s", p.Name, p.Status)
		}
		if q, _ := Lookup(p.Name); q.ExpectedViolation(c) != "" {
			t.Errorf("%s: expected to fail without upgrades: %s", p.Name, q.ExpectedViolation(c))
		}
	}
	if len(r.Properties) != len(mixedProperties) {
		t.Errorf("%d properties checked, want %d", len(r.Properties), len(mixedProperties))
	}
}

// TestSeamExpectedOnlyWhereAnUpgradeCan: the upgrade seam is expected only in worlds where a
// consumer-protocol member can join a classic group with members.
func TestSeamExpectedOnlyWhereAnUpgradeCan(t *testing.T) {
	down := strings.ReplaceAll(twoMembers, "topics=t\n", "topics=t group-protocol=consumer\n")
	for _, tc := range []struct {
		name, world string
		expected    bool
	}{
		{"classic members bounce", mixedUpgrade, true},
		{"upgrades disabled", mixedUpgrade + "migration-policy downgrade\n", false},
		{"consumer members bounce twice", down + "budget bounces=2\n", false},
		{"a third bounce upgrades again", down + "budget bounces=3\n", true},
		{"eager classic members", strings.Replace(strings.Replace(mixedUpgrade, "protocol cooperative", "protocol eager", 1), "assignor cooperative-sticky", "assignor range", 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := upgradeHandsOwnedOn(config(t, tc.world)) != ""; got != tc.expected {
				t.Errorf("expected = %v, want %v", got, tc.expected)
			}
		})
	}
}

// TestMixedConverges: a rolling bounce in either direction converges under fairness, the
// converged group a consumer group with both members on their new protocol where the last
// bounce upgraded it (ConvergedMixed), and the goal is reached through the mixed group.
func TestMixedConverges(t *testing.T) {
	for _, tc := range []struct{ name, world string }{
		{"one member upgrades", twoMembers + "budget bounces=1\n"},
		{"one member downgrades", strings.ReplaceAll(twoMembers, "topics=t\n", "topics=t group-protocol=consumer\n") + "budget bounces=1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(t, tc.world)
			if l := Liveness(c, 200000); l.Status != explorer.Holds {
				t.Fatalf("converges: %s %s", l.Status, l.StoppedBy)
			}
		})
	}
	ws := walk(t, config(t, mixedUpgrade), upgradeMidRound...)
	if ConvergedMixed(&ws[len(ws)-1]) {
		t.Fatalf("a group with a partition owned twice is not converged")
	}
}
