package oracle

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// A mixed group (docs/protocol.md §9: a classic member and a consumer-protocol member in one
// group id, as a rolling bounce makes) is judged by the plain checks, and the reference search
// says it did not search it, naming the first request of the other protocol: never a false
// alarm, never an "ok" it did not earn. Here a KIP-848 join converts m1's classic group (Kafka
// answers it epoch 2, nothing yet) and m1's next Heartbeat is told to rejoin, as
// TestMigrationSeams' upgrade-downgrade schedule sees Kafka 4.4.0 answer.
func TestMixedGroupNotSearched(t *testing.T) {
	b := newHB()
	stableOne(b)
	b.start("c2", history.Consumer)
	b.call(history.Event{Node: "c2", Op: history.ConsumerGroupHeartbeat, Gen: 0}, history.Event{Member: "w", Gen: 2})
	b.call(history.Event{Node: "c1", Op: history.Heartbeat, Member: "m1", Gen: 1}, history.Event{Err: "REBALANCE_IN_PROGRESS"})
	rep := Check(b.h, Options{})
	t.Log(rep.Reference)
	if !rep.OK() {
		t.Fatalf("a mixed group's history is a violation:\n%s", rep)
	}
	if !strings.HasPrefix(rep.Reference, "not searched") || !strings.Contains(rep.Reference, "one protocol") {
		t.Fatalf("reference verdict %q, want \"not searched\" naming the mixed group", rep.Reference)
	}
}
