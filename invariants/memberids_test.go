package invariants

import (
	"fmt"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
)

// TestKIP1082MemberIDs explores a KIP-848 world with a lost response and a leave under
// server-generated and client-generated member ids (KIP-1082): every property and converges
// hold under both. Server ids leave orphans — a member whose first answer was lost, or which
// closed before it, stays in the group under an id no process knows until its session
// expires — so that world is about five times larger
// (traces/scenarios/kip1082-*.trace show both cases under both).
func TestKIP1082MemberIDs(t *testing.T) {
	t.Parallel()
	world := `protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t
member b topics=t
budget lost-responses=1 leaves=1
member-ids %s
`
	for _, tc := range []struct {
		ids      string
		distinct int64
	}{{"server", 12794}, {"client", 2483}} {
		t.Run(tc.ids, func(t *testing.T) {
			c := config(t, fmt.Sprintf(world, tc.ids))
			r := exhaust(t, c, tc.distinct)
			holdsOrExpected(t, c, r)
			if l := Liveness(c, 100000); l.Status != explorer.Holds {
				t.Errorf("converges: %s (%d stuck)", l.Status, l.Stuck)
			}
		})
	}
}
