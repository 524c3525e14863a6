package invariants

import (
	"fmt"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// TestCommitPolicies explores one small cooperative world (two members, one partition, a
// session timeout, commits) under each client's commit handling (consumer.CommitPolicy) and
// pins its size and verdicts. Java (commits only while STABLE) and franz-go (holds a commit
// while a JoinGroup or SyncGroup is in flight) meet every property. librdkafka commits in any
// join state with the generation it holds; its shortest commit-fencing counterexample (24
// steps) is a commit of a partition it still owns, sent with the generation of a join round
// whose assignment it has not received, and accepted after a member's expiry sent the group
// back to PreparingRebalance (KAFKA.md §1.8): no other member owns or is assigned the
// partition, so the property is stricter than the harm here
// (traces/scenarios/commit-fencing-librdkafka-unsynced-generation.trace; README, Real-deployment
// faults). Every variant converges.
func TestCommitPolicies(t *testing.T) {
	world := `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 1
member a topics=t
member b topics=t
budget session-timeouts=1
commits %s
`
	for _, tc := range []struct {
		policy   string
		distinct int64
		fencing  explorer.Status
		steps    int
	}{
		{"on", 42652, explorer.Holds, 0},
		{"librdkafka", 87788, explorer.Violated, 24},
		// 51,010 before fenced-means-stop: franz-go rejoins on a commit's fencing answer
		// keeping its identity, an expected violation whose flagged worlds add 7,937.
		{"franz-go", 58947, explorer.Holds, 0},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			c := config(t, fmt.Sprintf(world, tc.policy))
			r := exhaust(t, c, tc.distinct)
			for _, p := range r.Properties {
				q, _ := Lookup(p.Name)
				switch {
				case p.Name == "commit-fencing":
					if p.Status != tc.fencing || (tc.steps > 0 && len(p.Path.Steps) != tc.steps) {
						t.Errorf("commit-fencing: %s in %d steps, want %s in %d", p.Status, len(p.Path.Steps), tc.fencing, tc.steps)
					}
				case p.Status != explorer.Holds && !(p.Status == explorer.Violated && q.ExpectedViolation(c) != ""):
					t.Errorf("%s: %s", p.Name, p.Status)
				}
			}
			if l := Liveness(c, 200000); l.Status != explorer.Holds {
				t.Errorf("converges: %s (%d stuck)", l.Status, l.Stuck)
			}
		})
	}
}

// exhaust explores c exhaustively on two workers and fails unless it has distinct worlds.
func exhaust(t *testing.T, c spec.Config, distinct int64) explorer.Report[spec.World, spec.Action] {
	t.Helper()
	r := check(t, c, 2)
	if !r.Exhaustive || r.Distinct != distinct {
		t.Fatalf("%d worlds (exhaustive %v), want %d", r.Distinct, r.Exhaustive, distinct)
	}
	return r
}
