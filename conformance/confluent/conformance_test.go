package confluent

import (
	"testing"

	h "github.com/groupcheck/groupcheck/conformance/harness"
)

// TestConformance runs every scenario under every librdkafka protocol and checks each
// history with the oracle. -short runs churn under each protocol and crash and fence under
// cooperative-sticky and KIP-848.
func TestConformance(t *testing.T) {
	h.Conformance(t, Protocols, h.Scenarios, func(p h.Protocol, sc h.Scenario) bool {
		if sc.Zombie {
			return false
		}
		return sc.Name == h.Churn.Name || p.Name == Cooperative.Name || p.Name == KIP848.Name
	})
}
