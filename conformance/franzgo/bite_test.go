package franzgo

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/groupcheck/groupcheck/oracle"
)

var writeFixtures = flag.Bool("fixtures", false, "write the broken clients' histories to testdata/ as replay fixtures")

// broken is the name of the node running a faulty application; the oracle's messages name it.
const broken = "broken"

// Bite scenarios: a broken application next to a correct one, shaped so that the fault must
// show (issue 7 item 3).
var (
	// EarlyAck: the broken node owns everything, then a peer joins; the broken node's revoke
	// returns to kgo before its work is done, so the peer's assign begins first.
	EarlyAck = Scenario{Name: "early-revoke-ack", Steps: steps(
		[]Step{{Op: OpStart, Node: broken, Fault: EarlyRevokeAck}}, settle,
		start("peer"), settle,
		[]Step{{Op: OpLeaveAll}})}
	// Late: like EarlyAck, but the broken node's revoke really returns, and its worker
	// commits the revoked partitions' offsets afterwards.
	Late = Scenario{Name: "late-commit", Steps: steps(
		[]Step{{Op: OpStart, Node: broken, Fault: LateCommit}}, settle,
		start("peer"), settle,
		[]Step{{Op: OpLeaveAll}})}
	// LostSkipped: the broken node is cut off from the coordinator until the peer has taken
	// its partitions, then healed: it is told it is fenced, ignores onPartitionsLost, and
	// rejoins still believing it owns them.
	LostSkipped = Scenario{Name: "skip-lost", Zombie: true, Steps: steps(
		start("peer"), []Step{{Op: OpStart, Node: broken, Fault: SkipLost}}, settle,
		[]Step{{Op: OpCut, Node: broken}}, settle,
		[]Step{{Op: OpHeal, Node: broken}}, settle,
		[]Step{{Op: OpLeaveAll}})}
)

// TestOracleBites runs each broken client under each protocol (-soak times) and asserts that the oracle
// reports the property it breaks, as a violation naming the broken node. The clean scenarios
// of TestConformance (the cut scenario is LostSkipped without the fault) are the other half:
// without the fault there is no violation.
func TestOracleBites(t *testing.T) {
	for _, c := range []struct {
		sc       Scenario
		property string
		short    Protocol // the one protocol -short runs
	}{
		{EarlyAck, oracle.RevokeBeforeAssign, Cooperative},
		{LostSkipped, oracle.ExclusiveOwnership, KIP848},
		{Late, oracle.CommitFromOwner, Eager},
	} {
		t.Run(c.sc.Name, func(t *testing.T) {
			for _, p := range Protocols {
				t.Run(p.Name, func(t *testing.T) {
					if testing.Short() && p.Name != c.short.Name {
						t.Skip("-short runs each broken client under one protocol")
					}
					for i := range max(*soakRuns, 1) {
						bite(t, p, c.sc, c.property, baseSeed()+uint64(i))
					}
				})
			}
		})
	}
}

// bite runs one broken-client scenario and asserts the oracle reports its property.
func bite(t *testing.T, p Protocol, sc Scenario, property string, seed uint64) {
	v := run(t, p, sc, seed)
	t.Logf("seed %d: %s", seed, v.Summary())
	for _, x := range v.Report.Violations {
		t.Logf("%s: %s", x.Property, x.Message)
	}
	if v.RunErr != nil || len(v.Broker) > 0 {
		t.Errorf("the run itself failed: %s", v.Summary())
	}
	if !v.Has(property, oracle.ClassViolation, broken) {
		t.Errorf("the oracle did not report %s by %s:\n%s", property, broken, v.Report)
		save(t, v)
	}
	if *writeFixtures {
		fixture(t, v, sc.Name+"-"+p.Name)
	}
}

// fixture writes a history into testdata/ for TestFixtures.
func fixture(t *testing.T, v Verdict, name string) {
	t.Helper()
	path := filepath.Join("testdata", name+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := v.History.Write(f); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}
