package oracle

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// settleFindings are the rebalance-completes violations of r.
func settleFindings(r Report) []Violation {
	var out []Violation
	for _, v := range r.Violations {
		if v.Property == RebalanceCompletes {
			out = append(out, v)
		}
	}
	return out
}

// checkFile checks a history file streamed, as check-history does.
func checkFile(t *testing.T, path string, o Options) Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := CheckReader(f, o)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

// TestSettleBound: a crashed member's partitions that stay unowned for 42 s while the group
// only heartbeats and commits are a stall past a 30 s bound, still open at the end of the
// history; with a 60 s bound, or none, the history holds.
func TestSettleBound(t *testing.T) {
	path := filepath.Join("testdata", "classic-crash-never-expired.jsonl")
	r := checkFile(t, path, Options{Settle: 30 * time.Second})
	vs := settleFindings(r)
	if len(vs) != 1 || len(r.Violations) != 1 || r.OK() {
		t.Fatalf("want one %s violation:\n%s", RebalanceCompletes, r)
	}
	v := vs[0]
	for _, want := range []string{"did not change for 42.056s, longer than the bound 30s", "from seq 17 (t 16ms)",
		"to the end of the history at seq 73", "t-2,t-3 had no live owner (last released by c2 at seq 17 (t 16ms))"} {
		if !strings.Contains(v.Message, want) {
			t.Errorf("message %q does not say %q", v.Message, want)
		}
	}
	if got := seqs(v.Events); !slices.Equal(got, []int64{17, 73}) {
		t.Errorf("events at seqs %v, want the crash that began the stall and the history's last event", got)
	}
	if !slices.Contains(r.Checked, RebalanceCompletes) {
		t.Errorf("checked %v does not list %s", r.Checked, RebalanceCompletes)
	}
	if mem := Check(classicCrashNeverExpired(), Options{Settle: 30 * time.Second}); mem.String() != r.String() {
		t.Errorf("in memory and streamed differ:\n%s\n%s", mem, r)
	}
	if r := checkFile(t, path, Options{Settle: time.Minute}); !r.OK() || !slices.Contains(r.Checked, RebalanceCompletes) {
		t.Errorf("with a 1m bound the 42 s stall is within it:\n%s", r)
	}
	if r := checkFile(t, path, Options{}); !r.OK() || slices.Contains(r.Checked, RebalanceCompletes) {
		t.Errorf("without a bound %s is not judged:\n%s", RebalanceCompletes, r)
	}
}

// kip848Unreached is one KIP-848 member assigned t-0..t-3 that only ever takes t-0 and t-1,
// heartbeating for 20 s before it closes; with changing, the coordinator bumps its epoch every
// `every` (0: never).
func kip848Unreached(every time.Duration) history.History {
	b := newHB()
	k := history.Consumer
	all, low := parts("t", 0, 1, 2, 3), parts("t", 0, 1)
	b.start("c1", k)
	b.call(history.Event{Node: "c1", Proto: k, Op: history.ConsumerGroupHeartbeat, Member: "m1", Gen: 0, Owned: history.Parts{}},
		history.Event{Member: "m1", Gen: 1, Parts: all})
	b.gen("c1", "m1", 1)
	b.cbAs("c1", "m1", 1, history.Assign, low)
	epoch, last := int32(1), b.t
	for range 10 {
		b.t += int64(2 * time.Second)
		if every > 0 && time.Duration(b.t-last) >= every {
			epoch, last = epoch+1, b.t
		}
		b.call(history.Event{Node: "c1", Proto: k, Op: history.ConsumerGroupHeartbeat, Member: "m1", Gen: epoch, Owned: low},
			history.Event{Member: "m1", Gen: epoch})
	}
	cl := b.begin(history.Event{Kind: history.Close, Node: "c1"})
	b.end(cl, history.Event{})
	return b.h
}

// TestSettleTargetNotReached: a member that never takes the assignment the coordinator's
// heartbeat answer gave it stalls the group until its close, a change; an epoch that the
// coordinator keeps bumping is a group that has not stopped changing.
//
// The histories are built by hand for the stall alone (an epoch bumped with nothing to
// bump it), so the reference search is off.
func TestSettleTargetNotReached(t *testing.T) {
	r := Check(kip848Unreached(0), Options{Settle: 10 * time.Second, NoReference: true})
	vs := settleFindings(r)
	if len(vs) != 1 {
		t.Fatalf("want one %s violation:\n%s", RebalanceCompletes, r)
	}
	for _, want := range []string{"to the change at seq", "t-2,t-3 had no live owner (never owned)",
		"c1 (member m1) owned (t-0,t-1) but was assigned (t-0,t-1,t-2,t-3) at seq 3"} {
		if !strings.Contains(vs[0].Message, want) {
			t.Errorf("message %q does not say %q", vs[0].Message, want)
		}
	}
}

// TestSettleLivelock: a group that keeps changing without settling, with nothing disturbing
// it, has not completed its rebalance either: the coordinator bumps the member's epoch every
// 6 s, a change within every 10 s, but the member never takes its assignment (the livelock
// of rebalance-completes). The same group settled between its changes, or disturbed (a
// member started) within every bound, is not one.
func TestSettleLivelock(t *testing.T) {
	r := Check(kip848Unreached(6*time.Second), Options{Settle: 10 * time.Second, NoReference: true})
	vs := settleFindings(r)
	if len(vs) != 1 || len(r.Violations) != 1 {
		t.Fatalf("want one %s violation, the livelock:\n%s", RebalanceCompletes, r)
	}
	for _, want := range []string{"the group kept changing for 12.015s without settling, longer than the bound 10s, from seq 3 (t 2ms) to seq 18",
		"t-2,t-3 had no live owner (never owned)", "c1 (member m1) owned (t-0,t-1) but was assigned (t-0,t-1,t-2,t-3) at seq 3"} {
		if !strings.Contains(vs[0].Message, want) {
			t.Errorf("message %q does not say %q", vs[0].Message, want)
		}
	}
	if got := seqs(vs[0].Events); len(got) < 2 || got[0] != 3 || got[1] != 18 {
		t.Errorf("events at seqs %v, want the change that began it (3) and the one past the bound (18)", got)
	}
	if r := Check(kip848Unreached(6*time.Second), Options{Settle: 20 * time.Second, NoReference: true}); !r.OK() {
		t.Errorf("within a 20 s bound the 20 s history is no livelock:\n%s", r)
	}
	// A member started every 4 s is a disturbance: the clock starts again at each.
	h := kip848Unreached(6 * time.Second)
	var disturbed history.History
	next := h[0].T + int64(4*time.Second)
	for _, e := range h {
		if e.T > next {
			disturbed = append(disturbed, history.Event{T: next, Kind: history.Start, Node: fmt.Sprintf("x%d", len(disturbed)), Proto: history.Consumer})
			next += int64(4 * time.Second)
		}
		disturbed = append(disturbed, e)
	}
	for i := range disturbed {
		disturbed[i].Seq = int64(i + 1)
	}
	if r := Check(disturbed, Options{Settle: 10 * time.Second, NoReference: true}); !r.OK() {
		t.Errorf("disturbed every 4 s, the group is no livelock:\n%s", r)
	}
}

// TestSettleLiveness: what is not live is not asked to own: a cut member's partitions are
// unowned (and a stall once past the bound), and a group whose every member closed or
// crashed is settled however long the history goes on.
func TestSettleLiveness(t *testing.T) {
	cut := classicCrashNeverExpired()
	for i, e := range cut {
		if e.Kind == history.Crash {
			cut[i].Kind = history.Cut
		}
	}
	r := Check(cut, Options{Settle: 30 * time.Second, NoReference: true})
	if vs := settleFindings(r); len(vs) != 1 || !strings.Contains(vs[0].Message, "t-2,t-3 had no live owner (held by c2, not live since it was cut off at seq 17") {
		t.Errorf("a cut owner is no live owner:\n%s", r)
	}
	b := newHB()
	b.start("c1", history.Classic)
	b.cb("c1", history.Assign, parts("t", 0))
	b.instant(history.Crash, "c1")
	b.t += int64(time.Hour)
	b.add(history.Event{Kind: history.Mark, Node: "harness", Note: "an hour later"})
	if r := Check(b.h, Options{Settle: time.Second, NoReference: true}); !r.OK() {
		t.Errorf("no live member, nothing to settle:\n%s", r)
	}
}

// TestSettleNoFalseAlarmOnFixtures: no history kept in the repository as a finding or an
// example stalls past 30 s, the conformance harness's settle bound (DefaultTiming.SettleMax),
// whatever else it shows.
func TestSettleNoFalseAlarmOnFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "conformance", "*", "testdata", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	own, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	files = append(files, own...)
	if len(files) < 20 {
		t.Fatalf("found only %d fixtures: %v", len(files), files)
	}
	for _, f := range files {
		if filepath.Base(f) == "classic-crash-never-expired.jsonl" {
			continue // the stall of TestSettleBound
		}
		if vs := settleFindings(checkFile(t, f, Options{Settle: 30 * time.Second})); len(vs) > 0 {
			t.Errorf("%s: %s", f, vs[0].Message)
		}
	}
}
