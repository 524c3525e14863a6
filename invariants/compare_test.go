package invariants

import (
	"fmt"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
)

// The protocols compared on the same membership changes (issue: KIP-848 beside KIP-429):
// each names the header lines of its world.
var comparedProtocols = []struct{ name, header string }{
	{"eager (range)", "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor range\n"},
	{"cooperative (KIP-429, shipped)", "protocol cooperative\nconsumer kafka\ncoordinator kafka\nassignor cooperative-sticky\n"},
	{"cooperative (KIP-429, seed)", "protocol cooperative\nconsumer kip\ncoordinator kafka\nassignor cooperative-sticky\n"},
	{"consumer (KIP-848, shipped)", "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\n"},
	{"consumer (KIP-848, seed)", "protocol consumer\nconsumer kip\ncoordinator kafka\nassignor uniform\n"},
}

// The membership changes: one event in a group of two members owning topic t's partitions
// (three when a third member joins, so that one partition moves), with the worst cases
// measured per protocol in comparedProtocols' order: rebalances, steps, partition-steps
// without an owner.
var comparedChanges = []struct {
	name, kind, world string
	want              [5][3]int
}{
	{"a third member joins", "start", "topic t 3\nmember a topics=t\nmember b topics=t\nmember c topics=t absent\nbudget joins=1\n",
		[5][3]int{{1, 33, 65}, {2, 63, 38}, {1, 33, 65}, {1, 22, 12}, {1, 22, 12}}},
	{"a member leaves", "leave", "topic t 2\nmember a topics=t\nmember b topics=t\nbudget leaves=1\n",
		[5][3]int{{1, 17, 27}, {1, 17, 16}, {1, 17, 27}, {1, 8, 7}, {1, 8, 7}}},
	{"a member crashes", "crash", "topic t 2\nmember a topics=t\nmember b topics=t\nbudget crashes=1\n",
		[5][3]int{{1, 15, 23}, {1, 15, 14}, {1, 15, 23}, {1, 7, 6}, {1, 7, 6}}},
	{"a partition is added", "add-partition", "topic t 2\nmember a topics=t\nmember b topics=t\nbudget partition-additions=1\n",
		[5][3]int{{1, 23, 55}, {1, 23, 22}, {1, 23, 36}, {1, 10, 7}, {1, 10, 7}}},
}

// TestCompareProtocols measures, for every protocol and membership change, the worst case
// until the group converges again (Rounds) and pins it. Run with -v for the table the README
// quotes. What it shows: shipped cooperative needs the two rebalances KIP-429 promises when a
// partition moves, and trades steps for availability; KIP-848 moves it in one group epoch with
// the fewest steps and partition-steps without an owner; the KIP variant's literal cooperative
// consumer revokes like eager (README: upgrade hazards); the KIP-848 draft's and the shipped KIP-848
// reconciliations tie on these changes.
func TestCompareProtocols(t *testing.T) {
	if !long() {
		t.Skip("explores 20 worlds with their graphs (GROUPCHECK_LONG)")
	}
	for _, ch := range comparedChanges {
		for i, p := range comparedProtocols {
			c := config(t, p.header+ch.world)
			r := Liveness(c, 2_000_000)
			if r.Status != explorer.Holds {
				t.Errorf("%s, %s: converges %s", p.name, ch.name, r.Status)
			}
			f := r.Rounds.ByEvent[ch.kind]
			if got := [3]int{f.Rebalances, f.Steps, f.Unavailability}; f.Changes == 0 || got != ch.want[i] {
				t.Errorf("%s, %s: rebalances, steps, unavailability %v over %d events; want %v", p.name, ch.name, got, f.Changes, ch.want[i])
			}
			t.Logf("| %s | %s | %d | %s | %s | %s | %d |", ch.name, p.name, f.Changes, fig(f.Rebalances), fig(f.Steps), fig(f.Unavailability), r.Distinct)
		}
	}
}

func fig(n int) string {
	if n == Unbounded {
		return "unbounded"
	}
	return fmt.Sprint(n)
}
