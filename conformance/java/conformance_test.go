package java

import (
	"testing"

	h "github.com/groupcheck/groupcheck/conformance/harness"
)

// TestConformance runs every scenario under every protocol with Kafka's own consumer and
// checks each history with the oracle (issue 30 §3). -short skips the zombie scenario.
func TestConformance(t *testing.T) {
	b, err := Built()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("driver built against kafka-clients %s in %v", b.Version, b.Took)
	h.Conformance(t, Protocols, h.Scenarios, func(p h.Protocol, sc h.Scenario) bool { return !sc.Zombie })
}
