package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
)

// TestStaticCloseIsNoLoss: a static member that closes revokes its partitions and resets its
// generation without a LeaveGroup (KIP-345: the coordinator keeps it until its session
// expires). That is a leave, not a lost membership: lost-only-after-membership-lost holds in a
// world where a static member can close (it named a#1's close as giving generation 1 up
// before bs-coord's world showed it, 2026-12-02).
func TestStaticCloseIsNoLoss(t *testing.T) {
	t.Parallel()
	c := config(t, "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor range\ntopic t 1\nmember a topics=t static\nmember b topics=t\nbudget crashes=1 leaves=1\n")
	m := NewModelWith(c, []Property{lostOnlyAfterMembershipLost})
	r := explorer.Check(m, m.Properties(), explorer.Options{})
	if !r.Exhaustive || r.Properties[0].Status != explorer.Holds {
		t.Fatalf("lost-only-after-membership-lost %v: %v", r.Properties[0].Status, pathText(c, r.Properties[0].Path))
	}
}
