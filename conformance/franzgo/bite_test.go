package franzgo

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	h "github.com/groupcheck/groupcheck/conformance/harness"
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
	EarlyAck = h.Scenario{Name: "early-revoke-ack", Steps: h.Steps(
		[]h.Step{{Op: h.OpStart, Node: broken, Fault: h.EarlyRevokeAck}}, h.SettleStep,
		h.Starts("peer"), h.SettleStep,
		[]h.Step{{Op: h.OpLeaveAll}})}
	// Late: like EarlyAck, but the broken node's revoke really returns, and its worker
	// commits the revoked partitions' offsets afterwards.
	Late = h.Scenario{Name: "late-commit", Steps: h.Steps(
		[]h.Step{{Op: h.OpStart, Node: broken, Fault: h.LateCommit}}, h.SettleStep,
		h.Starts("peer"), h.SettleStep,
		[]h.Step{{Op: h.OpLeaveAll}})}
	// LostSkipped: the broken node is cut off from the coordinator until the peer has taken
	// its partitions, then healed: it is told it is fenced, ignores onPartitionsLost, and
	// rejoins still believing it owns them.
	LostSkipped = h.Scenario{Name: "skip-lost", Zombie: true, Steps: h.Steps(
		h.Starts("peer"), []h.Step{{Op: h.OpStart, Node: broken, Fault: h.SkipLost}}, h.SettleStep,
		[]h.Step{{Op: h.OpCut, Node: broken}}, h.SettleStep,
		[]h.Step{{Op: h.OpHeal, Node: broken}}, h.SettleStep,
		[]h.Step{{Op: h.OpLeaveAll}})}
)

// TestOracleBites runs each broken client under each protocol (-soak times) and asserts that the oracle
// reports the property it breaks, as a violation naming the broken node. The clean scenarios
// of TestConformance (the cut scenario is LostSkipped without the fault) are the other half:
// without the fault there is no violation.
func TestOracleBites(t *testing.T) {
	for _, c := range []struct {
		sc       h.Scenario
		property string
		short    h.Protocol // the one protocol -short runs
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
					for i := range max(h.Soak(), 1) {
						bite(t, p, c.sc, c.property, h.BaseSeed()+uint64(i))
					}
				})
			}
		})
	}
}

// bite runs one broken-client scenario and asserts the oracle reports its property.
func bite(t *testing.T, p h.Protocol, sc h.Scenario, property string, seed uint64) {
	v := h.RunOnce(t, p, sc, seed)
	t.Logf("seed %d: %s", seed, v.Summary())
	for _, x := range v.Report.Violations {
		t.Logf("%s: %s", x.Property, x.Message)
	}
	if v.RunErr != nil || len(v.Broker) > 0 {
		t.Errorf("the run itself failed: %s", v.Summary())
	}
	if !v.Has(property, oracle.ClassViolation, broken) {
		t.Errorf("the oracle did not report %s by %s:\n%s", property, broken, v.Report)
		h.SaveArtifacts(t, v)
	}
	if *writeFixtures {
		fixture(t, v, sc.Name+"-"+p.Name)
	}
}

// fixture writes a history into testdata/ for TestFixtures.
func fixture(t *testing.T, v h.Verdict, name string) {
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
