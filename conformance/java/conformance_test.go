package java

import (
	"testing"

	h "github.com/groupcheck/groupcheck/conformance/harness"
)

// shortForm are the runs of -short: churn (the most rebalances) under every protocol, and the
// crash and the injected fence under one classic and one KIP-848 protocol.
func shortForm(p h.Protocol, sc h.Scenario) bool {
	switch sc.Name {
	case h.Churn.Name:
		return true
	case h.Crash.Name, h.Fence.Name:
		return p.Name == Cooperative.Name || p.Name == Uniform.Name
	}
	return false
}

// TestConformance runs every scenario under every protocol with Kafka's own consumer and
// checks each history with the oracle, and each classic leader round with the reference
// leader (issue 30 §3).
func TestConformance(t *testing.T) {
	b, err := Built()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("driver built against kafka-clients %s in %v", b.Version, b.Took)
	h.Conformance(t, Protocols, h.Scenarios, shortForm)
}

// TestConformanceStatic848 runs UniformStatic's scenarios: against kfake StaticScenarios,
// against a broker at an address every scenario (the kfake bug that keeps a static member's
// leave for ever is kfake's); -short runs the crash only.
func TestConformanceStatic848(t *testing.T) {
	scenarios := StaticScenarios
	if h.Bootstrap() != "" {
		scenarios = h.Scenarios
	}
	h.Conformance(t, []h.Protocol{UniformStatic}, scenarios, func(_ h.Protocol, sc h.Scenario) bool {
		return sc.Name == h.Crash.Name
	})
}
