package main

import (
	"os"
	"strings"
	"testing"
)

// TestMigrationSeams runs each mixed-group schedule against KAFKA_BOOTSTRAP, several times,
// and fails when a run's differences from impl/migration are not the schedule's pinned ones
// (seamExpected: each a classified difference, docs/real-kafka.md) — so it also fails when a
// pinned difference goes away. kfake is not run: it has no online upgrade (a KIP-848
// heartbeat to a classic group with members is GROUP_ID_NOT_FOUND, franz-go pkg/kfake
// groups.go handleConsumerHeartbeat).
func TestMigrationSeams(t *testing.T) {
	addr := os.Getenv("KAFKA_BOOTSTRAP")
	if addr == "" {
		t.Skip("no broker: KAFKA_BOOTSTRAP is empty (the mixed-group schedules need Kafka 4.x; kfake has no online upgrade)")
	}
	p, stop, err := newProber(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for _, s := range seamSchedules {
		for i := range seamRepeats {
			run, err := p.runSeam(s)
			if err != nil {
				t.Fatalf("%s run %d: %v", s.name, i+1, err)
			}
			t.Logf("%s run %d %v\n  %s", s.name, i+1, run.races, strings.Join(run.lines, "\n  "))
			for _, d := range run.diffs {
				if !seamKnown(s, d) {
					t.Errorf("%s run %d: %s", s.name, i+1, d)
				}
			}
			if s.finding != nil {
				if err := s.finding(run); err != nil {
					t.Errorf("%s run %d: %v", s.name, i+1, err)
				}
			}
		}
	}
}

const seamRepeats = 3

func seamKnown(s seamSchedule, diff string) bool {
	for _, k := range s.known {
		if strings.Contains(diff, k) {
			return true
		}
	}
	return false
}
