package sarama

import (
	"testing"

	h "github.com/groupcheck/groupcheck/conformance/harness"
)

// TestConformance runs every scenario under every Sarama strategy and checks each history
// with the oracle. -short runs the cooperative strategy through every scenario but the cut,
// and the eager ones through churn only (the scenarios differ little between eager
// assignors: the assignor only decides who gets what).
func TestConformance(t *testing.T) {
	h.Conformance(t, Protocols, h.Scenarios, func(p h.Protocol, sc h.Scenario) bool {
		if sc.Zombie {
			return false
		}
		return p.Name == Cooperative.Name || p.Name == Range.Name || sc.Name == h.Churn.Name
	})
}
