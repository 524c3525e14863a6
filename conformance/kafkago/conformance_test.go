package kafkago

import (
	"testing"

	h "github.com/groupcheck/groupcheck/conformance/harness"
)

// TestConformance runs every scenario under both kafka-go balancers and checks each history
// with the oracle. -short runs range through every scenario but the cut, and round-robin
// through churn.
func TestConformance(t *testing.T) {
	h.Conformance(t, Protocols, h.Scenarios, func(p h.Protocol, sc h.Scenario) bool {
		return !sc.Zombie && (p.Name == Range.Name || sc.Name == h.Churn.Name)
	})
}
