package confluent

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/oracle"
)

// TestRejectedCommitDuringRejoin replays a real cooperative-sticky churn run: librdkafka
// commits at generation 3 from its poll loop while its follow-up JoinGroup is parked on the
// same coordinator connection; kfake (like Kafka, which answers one request per connection at
// a time) answers the commit after the JoinGroup, when generation 4 exists: ILLEGAL_GENERATION.
// Nobody misbehaved and nothing was accepted, so there must be no violation. The oracle lists
// each such commit as a commit-from-owner zombie ("was a member as far as the history
// shows"): reported to the oracle's owner as an imprecision of classification, not a failure.
func TestRejectedCommitDuringRejoin(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "rejected-commit-during-rejoin-cooperative-sticky.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := oracle.CheckReader(f, oracle.Options{Linearizability: oracle.Linearizable(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != 0 {
		t.Errorf("librdkafka did nothing wrong, yet %d violations:\n%s", len(rep.Violations), rep)
	}
	for _, z := range rep.Zombies {
		if z.Property != oracle.CommitFromOwner {
			t.Errorf("unexpected zombie %s: %s", z.Property, z.Message)
		}
	}
}
