package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/migration"
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

// refSeam replays s in the reference alone, a race in the order "heartbeat in the first
// join phase", and returns every reply as "member: response", in order.
func refSeam(s seamSchedule) []string {
	g := migration.New(seamConfig())
	owned := map[string]impl.PartitionSet{}
	who := map[impl.Conn]string{}
	var lines []string
	for _, st := range s.steps {
		st = st.request(g, owned)
		who[st.req.From()] = st.member
		var out, timer []impl.Reply
		g, out = refDeliver(g, st.req, impl.MemberID(st.member))
		if !st.race {
			g, timer = refJoinAtOnce(g)
		}
		for _, r := range append(out, timer...) {
			if a, ok := r.Response.(impl.SyncGroupResponse); ok && a.Error == impl.None {
				owned[who[r.To]] = a.Assignment.Partitions
			}
			lines = append(lines, fmt.Sprintf("%s: %+v", who[r.To], r.Response))
		}
	}
	return lines
}

// TestSeamSchedulesInReference: the schedules drive the reference where their comments say,
// without a broker — (a) the KIP-848 joiner is handed a withheld partition, (b) the bounced
// static member gets epoch 2 and nothing, (c) the join in the first join phase is
// UNKNOWN_SERVER_ERROR, (d) x leads the classic group again at generation 3, (f) w is
// answered, (g) x2 is STABLE with nothing.
func TestSeamSchedulesInReference(t *testing.T) {
	want := map[string]string{
		"upgrade-withheld":          "w: {Error:NONE MemberID:w MemberEpoch:4 Assignment:(t-1)}",
		"static-bounce-before-sync": "y2: {Error:NONE MemberID:y2 MemberEpoch:2 Assignment:()}",
		"upgrade-first-join":        "w: {Error:UNKNOWN_SERVER_ERROR MemberID: MemberEpoch:0 Assignment:<nil>}",
		"upgrade-downgrade":         "x: {Error:NONE Generation:3 ProtocolName:cooperative-sticky Leader:x MemberID:x",
		// The conversion builds x and y from records the leave cleared: w is handed t-
		// partitions x or y still own.
		"upgrade-after-leave-mid-rebalance": "w: {Error:NONE MemberID:w MemberEpoch:",
		// The replacement of a leader that never synced: STABLE, nothing assigned.
		"static-leader-bounce-before-first-sync": "x2: {Error:NONE MemberID:x2 MemberEpoch:1 Assignment:()}",
	}
	for _, s := range seamSchedules {
		lines := refSeam(s)
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want[s.name]) }) {
			t.Errorf("%s: no reply %q in the reference:\n  %s", s.name, want[s.name], strings.Join(lines, "\n  "))
		}
	}
}
