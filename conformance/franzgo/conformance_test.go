package franzgo

import (
	"testing"

	h "github.com/groupcheck/groupcheck/conformance/harness"
)

// TestConformance runs every scenario under every protocol and checks each history with the
// oracle (issue 7 item 2; docs/clients.md §6.5). -short keeps one zombie scenario, KIP-848's, where
// kgo's zombie is deterministic (docs/clients.md §2) and the oracle must classify it.
func TestConformance(t *testing.T) {
	h.Conformance(t, Protocols, h.Scenarios, func(p h.Protocol, sc h.Scenario) bool {
		return !sc.Zombie || p.Name == KIP848.Name
	})
}
