package sarama

import (
	"testing"

	h "github.com/groupcheck/groupcheck/conformance/harness"
)

// TestConformance runs every scenario under every Sarama strategy and checks each history
// with the oracle. -short runs the cooperative strategy through every scenario but the cut,
// and the eager ones through churn only (the scenarios differ little between eager
// assignors: the assignor only decides who gets what).
//
// topic-created is left out: Sarama v1.61.1's ConsumerGroup.Consume refreshes the metadata of
// every subscribed topic and returns UNKNOWN_TOPIC_OR_PARTITION while one is missing, so the
// member never joins (the Java consumer joins and is assigned the topics that exist); the
// scenario's first settle cannot pass (docs/real-kafka.md).
func TestConformance(t *testing.T) {
	var scenarios []h.Scenario
	for _, sc := range h.Scenarios {
		if sc.Name != h.TopicCreated.Name {
			scenarios = append(scenarios, sc)
		}
	}
	h.Conformance(t, Protocols, scenarios, func(p h.Protocol, sc h.Scenario) bool {
		if sc.Zombie {
			return false
		}
		return p.Name == Cooperative.Name || p.Name == Range.Name || sc.Name == h.Churn.Name
	})
}
