package kafkago

import (
	"testing"

	h "github.com/groupcheck/groupcheck/conformance/harness"
)

// TestConformance runs every scenario under both kafka-go balancers and checks each history
// with the oracle. -short runs range through every scenario but the cut, and round-robin
// through churn. topic-created is left out: kafka-go v0.4.51 cannot consume while a
// subscribed topic is missing (testdata/kafkago-missing-topic-storm-range.jsonl, the first 400
// events of a run against Kafka 4.4.0; docs/real-kafka.md): the leader's
// ConsumerGroup.assignTopicPartitions reads every topic's partitions in one
// Conn.ReadPartitions, which returns none at all when one topic is unknown
// (readTopicMetadatav1/v6), so every member is assigned nothing; and the missing topic's
// Generation.partitionWatcher returns at once on the same error, which ends the generation,
// so the group rebalances without pause (generation 682 after 30 s against Kafka, 1712 on
// kfake) until the topic exists.
func TestConformance(t *testing.T) {
	var scenarios []h.Scenario
	for _, sc := range h.Scenarios {
		if sc.Name != h.TopicCreated.Name {
			scenarios = append(scenarios, sc)
		}
	}
	h.Conformance(t, Protocols, scenarios, func(p h.Protocol, sc h.Scenario) bool {
		return !sc.Zombie && (p.Name == Range.Name || sc.Name == h.Churn.Name)
	})
}
