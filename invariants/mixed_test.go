package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
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

// revokingDoubleOwner is the window of docs/findings.md's confirmed seam: two current owners
// of a partition, one of them a classic member whose SyncGroup answer, on its way, withholds
// that partition (the cooperative revocation it has not applied yet).
func revokingDoubleOwner(w *spec.World) string {
	for i := range w.Slots {
		if w.ConsumerSlot(i) || !currentMixed(w, i) {
			continue
		}
		for _, r := range w.Slots[i].In {
			s, ok := r.(impl.SyncGroupResponse)
			if !ok {
				continue
			}
			for j := range w.Slots {
				both := w.Owned(i).Intersect(w.Owned(j)).Minus(s.Assignment.Partitions)
				if j != i && currentMixed(w, j) && !both.IsEmpty() {
					return fmt.Sprintf("%s revoking %s, owned by %s too", name(w, i), both, name(w, j))
				}
			}
		}
	}
	return ""
}

// TestUpgradeDuringRevocationReachable: migration-upgrade also reaches the window Kafka 4.4.0
// was measured in (docs/findings.md): the group converts while a classic owner's SyncGroup
// answer withholding a partition is on its way, and the partition goes to another member.
func TestUpgradeDuringRevocationReachable(t *testing.T) {
	c := presetConfig(t, "migration-upgrade")
	marker := Property{Name: "revoking-double-owner", Kind: explorer.Always, State: revokingDoubleOwner}
	m := NewModelWith(c, []Property{marker})
	r := explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{})
	p := r.Properties[0]
	if p.Status != explorer.Violated {
		t.Fatalf("the revocation window is not reached (%v)", p.Status)
	}
	last := p.Path.Steps[len(p.Path.Steps)-1].State
	t.Logf("%d steps: %s\n%s", len(p.Path.Steps), revokingDoubleOwner(&last), strings.Join(pathText(c, p.Path), "\n"))
}
