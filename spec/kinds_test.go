package spec

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestKindsTable pins the kinds table as the scattered lists it replaced classified each
// kind (spec/action.go's names, ample.go's local steps and Quiet's budgets, invariants'
// Fair and fencingTimeouts, the timeline's lanes and classes, Budget.fields' keys): a row
// edited by mistake changes a verdict somewhere, and fails here first.
func TestKindsTable(t *testing.T) {
	want := `deliver-request slot fair - - keeps coord protocol both -
deliver-response slot fair local - keeps member protocol both -
assign slot when-free - - keeps member protocol both -
poll slot fair local - keeps member protocol both -
heartbeat slot fair local - keeps member protocol both -
commit slot unfair local - keeps member protocol both -
refresh slot fair local - keeps member protocol classic -
start slot unfair - - keeps member env both joins
leave slot unfair - disturbs keeps member env both leaves
crash slot unfair - disturbs keeps member env both crashes
restart slot unfair - disturbs keeps member env both restarts
resubscribe slot unfair - disturbs keeps member env both subscription-changes
lose-response slot unfair - disturbs keeps member env both lost-responses
poll-timeout slot unfair - disturbs fences member timer both poll-timeouts
add-partition topic unfair - disturbs keeps coord env both partition-additions
delete-topic topic unfair - disturbs keeps coord env both topic-deletions
session-expiry member when-free - - fences coord timer both session-timeouts
pending-expiry member when-free - - keeps coord timer classic -
join-timeout group when-free - - fences coord timer classic join-timeouts
sync-timeout group when-free - - fences coord timer classic sync-timeouts
rebalance-timeout member when-free - - fences coord timer kip848 rebalance-timeouts
hang slot unfair - disturbs unseen member env classic hangs
failover group unfair - disturbs keeps coord env both failovers
load group fair - - keeps coord timer both -
pause slot unfair - disturbs fences member env both pauses
resume slot fair - - keeps member timer both -
followup slot fair - - keeps member timer classic followups
`
	var sb strings.Builder
	for k := range numKinds {
		r := kinds[k]
		fmt.Fprintf(&sb, "%s %s %s %s %s %s %s %s %s %s\n", r.name,
			[]string{"slot", "topic", "member", "group"}[r.arg],
			[]string{"unfair", "fair", "when-free"}[r.fair],
			map[bool]string{true: "local", false: "-"}[r.local],
			map[bool]string{true: "disturbs", false: "-"}[r.disturbs],
			[]string{"keeps", "fences", "unseen"}[r.removes],
			map[bool]string{true: "coord", false: "member"}[r.coordLane], r.class,
			map[protocols]string{classicOnly: "classic", kip848Only: "kip848", bothProtocols: "both"}[r.in],
			orNone(r.budget))
	}
	if got := sb.String(); !strings.HasPrefix(got, want) {
		t.Errorf("the kinds table changed:\n%s\nwant (at the start):\n%s", got, want)
	}
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// TestBudgetFieldsFromTable: every field of Budget is a key named by one row, the keys are
// distinct, and the config reads and prints each (set, String).
func TestBudgetFieldsFromTable(t *testing.T) {
	if n := reflect.TypeFor[Budget]().NumField(); len(budgetFields) != n {
		t.Fatalf("%d budget keys for %d Budget fields", len(budgetFields), n)
	}
	seen := map[string]bool{}
	for i, f := range budgetFields {
		if seen[f.name] {
			t.Errorf("budget key %s twice", f.name)
		}
		seen[f.name] = true
		var b Budget
		if err := b.set(f.name, 3); err != nil {
			t.Fatal(err)
		}
		if got := b.values()[i]; got != 3 || *f.get(&b) != 3 || b.String() != f.name+"=3" {
			t.Errorf("budget %s: set 3, read %d, printed %q", f.name, got, b.String())
		}
	}
}

// TestActionsListOnlyTheProtocolsKinds: on the first worlds of every preset, each candidate
// is of a kind that exists under the world's protocol, and each enabled one is too.
func TestActionsListOnlyTheProtocolsKinds(t *testing.T) {
	for _, p := range Presets {
		cfg, err := p.Config()
		if err != nil {
			t.Fatal(err)
		}
		w := Init(cfg)
		for _, a := range Actions(w, nil) {
			if !kinds[a.Kind].in.has(w.proto()) {
				t.Errorf("%s: candidate %s of a kind the protocol lacks", p.Name, a.Text(&cfg))
			}
		}
		for k := range numKinds {
			if kinds[k].in.has(w.proto()) {
				continue
			}
			if _, ok := Next(w, Action{Kind: k}); ok {
				t.Errorf("%s: %s is enabled under a protocol without it", p.Name, k)
			}
		}
	}
}
