package leader

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// TestBalanceMovesOwnedNeedsAThirdRound follows the cooperative rounds after c joins a group
// where a owns t-0 and b owns t-1 and t-2, with and without FaultBalanceMovesOwned. Each round
// the members claim what the previous one left them (a revoked partition is withheld, then
// unowned). The correct assignor places the freed partition on c and is done in two rounds;
// the faulty one frees t-1, heaps it on a and then moves a's owned t-0 instead: a second
// revocation and a third round. Reference: docs/bugs.md B27 (KAFKA-8767); docs/protocol.md §2.5, §2.8.
func TestBalanceMovesOwnedNeedsAThirdRound(t *testing.T) {
	cluster := impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 3})
	for _, tc := range []struct {
		name   string
		faults impl.Faults
		rounds []map[string]string // each round's assignment
	}{
		{"correct", 0, []map[string]string{
			{"a": "t-0", "b": "t-1", "c": ""},    // t-2 revoked from b, withheld
			{"a": "t-0", "b": "t-1", "c": "t-2"}, // nothing revoked: converged
		}},
		{"balance-moves-owned", impl.Faults(0).With(impl.FaultBalanceMovesOwned), []map[string]string{
			{"a": "t-0", "b": "t-2", "c": ""},    // t-1 revoked from b, withheld
			{"a": "t-1", "b": "t-2", "c": ""},    // t-1 to a, a's owned t-0 revoked
			{"a": "t-1", "b": "t-2", "c": "t-0"}, // the third round
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			owned := map[string]string{"a": "t-0", "b": "t-1 t-2", "c": ""}
			for r, want := range tc.rounds {
				var ms []impl.JoinGroupMember
				for _, id := range []string{"a", "b", "c"} {
					ms = append(ms, coop(id, "t", owned[id], impl.Generation(5+r)))
				}
				got := map[string]string{}
				revoked := false
				for _, a := range (CooperativeSticky{Faults: tc.faults}).Assign(cluster, ms) {
					id := string(a.MemberID)
					got[id] = strings.Trim(a.Assignment.Partitions.String(), "()")
					revoked = revoked || !ps(owned[id]).SubsetOf(a.Assignment.Partitions)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("round %d (-want +got):\n%s", r+1, diff)
				}
				if last := r == len(tc.rounds)-1; revoked == last {
					t.Errorf("round %d: revoked=%v, want a revocation in every round but the last", r+1, revoked)
				}
				owned = got
			}
		})
	}
}
