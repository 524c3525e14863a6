package invariants

import (
	"fmt"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
)

// TestLivenessCatchesTheKIP848Mutants: B17 (KAFKA-16249) and B21 (KAFKA-16215) leave worlds
// from which the group can never converge; without the faults every world can. The lasso is
// a behaviour: its prefix ends in a stuck world and its cycle (or dead end) never converges.
func TestLivenessCatchesTheKIP848Mutants(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"recompute-while-revoking", "in-flight-stuck-on-error"} {
		m, _ := LookupMutant(name)
		c, err := m.Config()
		if err != nil {
			t.Fatal(err)
		}
		bad := Liveness(c, 200000)
		if bad.Status != explorer.Violated || bad.Lasso == nil || bad.Stuck == 0 {
			t.Fatalf("%s: status %s, %d stuck; want violated with a lasso", name, bad.Status, bad.Stuck)
		}
		for _, s := range bad.Lasso.Cycle {
			if ConvergedKIP848(&s.State) {
				t.Errorf("%s: the lasso's cycle passes a converged world", name)
			}
		}
		c.Faults = 0
		if good := Liveness(c, 200000); good.Status != explorer.Holds {
			t.Errorf("%s: without the fault converges is %s (%d stuck)", name, good.Status, good.Stuck)
		}
		t.Logf("%s: %d of %d worlds stuck; lasso %d + %d steps", name, bad.Stuck, bad.Distinct, len(bad.Lasso.Prefix.Steps), len(bad.Lasso.Cycle))
	}
}

func TestLivenessHoldsOnSmallWorldsAndBounds(t *testing.T) {
	c, pin := world(t, "tests/two-members-crash"), pinOf(t, "tests/two-members-crash")
	if r := Liveness(c, 100000); r.Status != explorer.Holds || int64(r.Distinct) != pin.Distinct {
		t.Errorf("two members and a crash: %s over %d worlds, want holds over %d (worlds/pins.txt)", r.Status, r.Distinct, pin.Distinct)
	}
	if r := Liveness(c, 100); r.Status != explorer.Unknown {
		t.Errorf("bounded at 100 worlds: %s, want unknown", r.Status)
	}
}

// TestStaticRestartBetweenCooperativeRounds pins a finding: under the shipped protocol a
// static member that restarts after its gen's assignment withheld a partition from another
// member, and before it revoked and rejoined, is replaced in Stable without a rebalance; no
// member ever rejoins, so the withheld partition stays unowned (converges fails, ending in a
// dead end). Under the KIP variant's design the leader's NEEDS_REJOIN makes every member rejoin at
// once, and the same world converges.
func TestStaticRestartBetweenCooperativeRounds(t *testing.T) {
	t.Parallel()
	world := `protocol cooperative
consumer %[1]s
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t static join-version=%[2]d
member b topics=t static join-version=%[2]d
budget restarts=1
`
	// At v9 (KIP-814) the restarted leader is told it leads, before v9 the old leader's id:
	// the worlds differ, the orphaned partition does not.
	for _, tc := range []struct{ version, distinct int }{{9, 20007}, {5, 20099}} {
		shipped := Liveness(config(t, fmt.Sprintf(world, "kafka", tc.version)), 100000)
		if shipped.Status != explorer.Violated || shipped.Distinct != tc.distinct || shipped.Stuck != 48 {
			t.Errorf("shipped, join v%d: %s, %d worlds, %d stuck; want violated, %d, 48", tc.version, shipped.Status, shipped.Distinct, shipped.Stuck, tc.distinct)
		}
	}
	seed := Liveness(config(t, fmt.Sprintf(world, "kip", 9)), 100000)
	if seed.Status != explorer.Holds {
		t.Errorf("seed: %s (%d stuck), want holds", seed.Status, seed.Stuck)
	}
}

// TestStaticLeaderRestartMissesAddedPartition pins a finding in Kafka as shipped: a static
// leader that assigned with metadata not yet showing a new partition and restarts before it
// refreshes never assigns that partition. From JoinGroup v9 (KIP-814) the new process is told
// it leads with SkipAssignment and snapshots its fresh metadata as the assignment's
// (ConsumerCoordinator.onLeaderElected: assignmentSnapshot = metadataSnapshot), so
// rejoinNeededOrPending never sees a change; before v9 it is told the old leader id and
// watches nothing. KIP-848's coordinator watches metadata itself, and its world converges.
// Scenario: traces/scenarios/static-leader-restart-missed-partition.trace.
func TestStaticLeaderRestartMissesAddedPartition(t *testing.T) {
	classic := `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 1
member a topics=t static join-version=%d
budget restarts=1 partition-additions=1
`
	for _, tc := range []struct {
		version         int
		distinct, stuck int
	}{{9, 297, 4}, {5, 304, 8}} {
		r := Liveness(config(t, fmt.Sprintf(classic, tc.version)), 100000)
		if r.Status != explorer.Violated || r.Distinct != tc.distinct || r.Stuck != tc.stuck {
			t.Errorf("join v%d: %s, %d worlds, %d stuck; want violated, %d, %d", tc.version, r.Status, r.Distinct, r.Stuck, tc.distinct, tc.stuck)
		}
	}
	kip848 := Liveness(config(t, `protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 1
member a topics=t static
budget restarts=1 partition-additions=1
`), 100000)
	if kip848.Status != explorer.Holds {
		t.Errorf("KIP-848: %s (%d stuck), want holds", kip848.Status, kip848.Stuck)
	}
}
