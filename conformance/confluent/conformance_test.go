package confluent

import (
	"testing"

	h "github.com/groupcheck/groupcheck/conformance/harness"
)

// TestConformance runs every scenario under every librdkafka protocol and checks each
// history with the oracle. -short runs churn under each protocol and crash and fence under
// cooperative-sticky and KIP-848, except KIP-848's burst: in the CI dry run of 3 December its
// leave-all hung once on kfake (f "not left after 4.5s", librdkafka's log shows no leave
// begun; 0 violations, the search ok), not yet understood, so it runs in the soak form only.
func TestConformance(t *testing.T) {
	h.Conformance(t, Protocols, h.Scenarios, func(p h.Protocol, sc h.Scenario) bool {
		if sc.Zombie || p.Name == KIP848.Name && sc.Name == h.Burst.Name {
			return false
		}
		return sc.Name == h.Churn.Name || p.Name == Cooperative.Name || p.Name == KIP848.Name
	})
}
