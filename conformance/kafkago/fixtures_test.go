package kafkago

import (
	"os"
	"path/filepath"
	"testing"

	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle"
)

// TestMissingTopicStorm replays the first 400 events of a topic-created run against Kafka
// 4.4.0 (range): with t3 subscribed but not created, the leader assigns every member nothing
// and the group rejoins at once, generation after generation. The application's view goes
// backwards: kafka-go's Generation.Start runs the work of a generation that already ended
// (consumergroup.go, "this is an edge case: if the generation has already closed"), so the
// driver's revoke of generation 1 comes after the assign of generation 2.
func TestMissingTopicStorm(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "kafkago-missing-topic-storm-range.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := oracle.CheckReader(f, oracle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !(h.Verdict{Report: rep}).Has(oracle.GenerationMonotonic, oracle.ClassViolation, "a") {
		t.Errorf("want a generation-monotonic violation naming a:\n%s", rep)
	}
}
