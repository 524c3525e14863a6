package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kfake"
)

// zombieHistory is docs/clients.md §2's KIP-848 zombie in miniature: b is cut off, the coordinator
// fences it, a is assigned b's partition, and b gives it up only after it hears, 700 ms later.
func zombieHistory() history.History {
	var now int64
	rec := history.NewRecorderClock(func() int64 { return now })
	at := func(ms int64) { now = ms * int64(time.Millisecond) }
	p := history.Parts{"t1": {0}}
	c := history.Consumer
	rec.Record(history.Event{Kind: history.Start, Node: "a", Proto: c})
	rec.Record(history.Event{Kind: history.Start, Node: "b", Proto: c})
	rec.Record(history.Event{Kind: history.Generation, Node: "b", Proto: c, Member: "ub", Gen: 1})
	end := rec.Begin(history.Event{Kind: history.Assign, Node: "b", Proto: c, Member: "ub", Gen: 1, Parts: p})
	end(history.Event{Member: "ub", Gen: 1})
	at(100)
	rec.Record(history.Event{Kind: history.Cut, Node: "b", Proto: c})
	at(1600)
	rec.Record(history.Event{Kind: history.Fenced, Node: "b", Proto: c, Member: "ub", Gen: 1})
	at(1700)
	rec.Record(history.Event{Kind: history.Generation, Node: "a", Proto: c, Member: "ua", Gen: 2})
	end = rec.Begin(history.Event{Kind: history.Assign, Node: "a", Proto: c, Member: "ua", Gen: 2, Parts: p})
	end(history.Event{Member: "ua", Gen: 2})
	at(2300)
	rec.Record(history.Event{Kind: history.Heal, Node: "b", Proto: c})
	end = rec.Begin(history.Event{Kind: history.Lost, Node: "b", Proto: c, Member: "ub", Gen: 1, Parts: p})
	at(2400)
	end(history.Event{Member: "ub", Gen: 1})
	return rec.History()
}

func TestVerdict(t *testing.T) {
	h := zombieHistory()
	v := Verdict{History: h, Report: oracle.Check(h, oracle.Options{}), Logs: map[string]string{"kfake": "log line\n"}}
	if !v.OK() {
		t.Fatalf("a zombie must not fail the run:\n%s", v.Report)
	}
	if !v.Has(oracle.ExclusiveOwnership, oracle.ClassZombie, "b") {
		t.Errorf("no exclusive-ownership zombie naming b:\n%s", v.Report)
	}
	if v.Has(oracle.ExclusiveOwnership, oracle.ClassViolation, "b") {
		t.Errorf("the zombie is reported as a violation:\n%s", v.Report)
	}
	if got, want := v.ZombieSpans(), []time.Duration{700 * time.Millisecond}; len(got) != 1 || got[0] != want[0] {
		t.Errorf("ZombieSpans = %v, want %v (a's assign at 1.7 s to b's lost at 2.4 s)", got, want)
	}
	if s := v.Summary(); !strings.Contains(s, "0 violations") || !strings.Contains(s, "zombies") {
		t.Errorf("Summary = %q", s)
	}
	searched := Verdict{Report: oracle.Report{Reference: "undecided at event 9: the budget\nthe states"}}
	if s := searched.Summary(); !strings.HasSuffix(s, ", reference undecided at event 9: the budget") {
		t.Errorf("Summary = %q, want the search's first line", s)
	}

	dir := t.TempDir()
	path, err := v.Save(dir, "run")
	if err != nil {
		t.Fatal(err)
	}
	back, err := history.ReadFile(path)
	if err != nil || len(back) != len(h) {
		t.Errorf("saved history reads back as %d events, err %v; want %d", len(back), err, len(h))
	}
	for _, name := range []string{"run.report.txt", "run.kfake.log"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("artifact %s: %v", name, err)
		}
	}
	if _, err := v.Save(filepath.Join(path, "not-a-dir"), "run"); err == nil {
		t.Error("Save under a file did not fail")
	}

	bad := v
	bad.RunErr = fmt.Errorf("step 4 (settle): %w after 30s: still changing", ErrNotSettled)
	if bad.ClassifyKnown(); bad.OK() {
		t.Error("a settle timeout with no known kfake deviation in the run was classified known")
	}
	bad.Broker = []string{"kfake ERROR: double claim"}
	if bad.OK() {
		t.Error("a run error and a kfake ERROR must fail the run")
	}
	if s := bad.Summary(); !strings.Contains(s, "not settled") || !strings.Contains(s, "double claim") {
		t.Errorf("Summary = %q, want the run error and the broker line", s)
	}
}

// kfake's fencing log lines become Fenced events naming the member's node (docs/clients.md §6.4,
// "parse kfake's debug logs"); an ERROR line fails the run (docs/clients.md §1, addPartitionEpochs).
func TestObserverLog(t *testing.T) {
	rec := history.NewRecorder()
	obs := NewObserver(rec)
	obs.member("u1", "n1")
	obs.Logf(kfake.LogLevelWarn, "consumerSessionTimeout: group=%s member=%s epoch=%d remaining=%d", "g", "u1", int32(4), 1)
	obs.Logf(kfake.LogLevelWarn, "consumerRebalanceTimeout: group=%s member=%s epoch=%d remaining=%d", "g", "u9", int32(2), 0)
	obs.Logf(kfake.LogLevelInfo, "consumerJoin: group=%s member=%s", "g", "u1")
	obs.Logf(kfake.LogLevelError, "group %s: addPartitionEpochs: partition %d", "g", 3)

	var fenced []history.Event
	for _, e := range rec.History() {
		if e.Kind == history.Fenced {
			fenced = append(fenced, e)
		}
	}
	if len(fenced) != 2 {
		t.Fatalf("got %d Fenced events, want 2: %+v", len(fenced), fenced)
	}
	if f := fenced[0]; f.Node != "n1" || f.Member != "u1" || f.Gen != 4 || f.Note != "kfake session timeout" {
		t.Errorf("session timeout: %+v", f)
	}
	if f := fenced[1]; f.Node != Coordinator || f.Member != "u9" || f.Gen != 2 || f.Note != "kfake rebalance timeout" {
		t.Errorf("rebalance timeout of an unknown member: %+v", f)
	}
	if errs := obs.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "addPartitionEpochs: partition 3") {
		t.Errorf("Errors = %v", errs)
	}
	if log := obs.Log(); strings.Count(log, "\n") != 4 || !strings.Contains(log, "[ERR]") {
		t.Errorf("Log kept:\n%s", log)
	}
}

// A classic member missing from the next generation's member list was removed, unless it
// left on its own (docs/protocol.md §1.12: the coordinator removes a member at its session timeout).
func TestObserverClassicRemoval(t *testing.T) {
	rec := history.NewRecorder()
	obs := NewObserver(rec)
	for m, n := range map[string]string{"m1": "n1", "m2": "n2", "m3": "n3"} {
		obs.member(m, n)
	}
	obs.generation(1, []string{"m1", "m2", "m3"})
	obs.leaves("m3")
	obs.generation(2, []string{"m1"})
	obs.generation(2, []string{"m9"}) // a repeat of generation 2 says nothing new
	var fenced []history.Event
	for _, e := range rec.History() {
		if e.Kind == history.Fenced {
			fenced = append(fenced, e)
		}
	}
	if len(fenced) != 1 {
		t.Fatalf("got %d Fenced events, want 1 (m2): %+v", len(fenced), fenced)
	}
	if f := fenced[0]; f.Node != "n2" || f.Member != "m2" || f.Gen != 1 || f.Proto != history.Classic ||
		f.Note != "not in generation 2's member list" {
		t.Errorf("Fenced = %+v", f)
	}
}

// A client library's known bug is moved to Known by property; other violations stay and
// still fail the run.
func TestClassifyBugs(t *testing.T) {
	v := Verdict{Report: oracle.Report{Violations: []oracle.Violation{
		{Property: oracle.CallbacksConsistent, Message: "c's assign"},
		{Property: oracle.ExclusiveOwnership, Message: "a and b"},
	}}}
	v.classifyBugs(func(_ history.History, x oracle.Violation) (string, bool) {
		return "the bug", x.Property == oracle.CallbacksConsistent
	})
	if len(v.Report.Violations) != 1 || v.Report.Violations[0].Property != oracle.ExclusiveOwnership {
		t.Errorf("violations left: %+v", v.Report.Violations)
	}
	if len(v.Known) != 1 || !strings.Contains(v.Known[0], "client bug: the bug: c's assign") {
		t.Errorf("known: %q", v.Known)
	}
	if v.OK() {
		t.Error("the other violation must still fail the run")
	}
}

// Where the plain check finds a known kfake deviation, the linearizability search's "no" in the
// same run is that deviation too, even when it stops before naming it (three leaders of one
// generation: the search fails at the second JoinGroup answer, with no "two leaders" in it).
func TestKnownDeviationCoversTheSearch(t *testing.T) {
	v := Verdict{Report: oracle.Report{
		Violations:   []oracle.Violation{{Property: oracle.OneLeaderPerGeneration, Message: "generation 3 has two leaders"}},
		Linearizable: "no: not linearizable against the reference classic coordinator: no next operation fits",
	}}
	v.ClassifyKnown()
	if !v.Report.OK() || len(v.Known) != 2 {
		t.Errorf("want both findings known, report ok; have known %q, report %s", v.Known, v.Report)
	}
	v = Verdict{Report: oracle.Report{Linearizable: "no: not linearizable: no next operation fits"}}
	v.ClassifyKnown()
	if v.Report.OK() {
		t.Error("a search failure with no known deviation in the run was excused")
	}
}

// The reference search stops at the first answer no behaviour gives: at or after a known
// kfake deviation's first event that is the deviation; before it, it is something else and
// still fails the run.
func TestKnownDeviationCoversTheReferenceSearch(t *testing.T) {
	at := func(seq int64) []history.Event { return []history.Event{{Seq: seq}} }
	for _, tc := range []struct {
		seq   int64
		known bool
	}{{10, true}, {12, true}, {9, false}} {
		v := Verdict{Report: oracle.Report{Violations: []oracle.Violation{
			{Property: oracle.OneLeaderPerGeneration, Message: "generation 3 has two leaders", Events: append(at(10), at(12)...)},
			{Property: oracle.ReferenceSearch, Message: "no behaviour of the reference coordinator answers", Events: at(tc.seq)},
		}}}
		v.ClassifyKnown()
		if want := map[bool]int{true: 2, false: 1}[tc.known]; v.Report.OK() != tc.known || len(v.Known) != want {
			t.Errorf("search at seq %d: report ok %v, known %q; want ok %v", tc.seq, v.Report.OK(), v.Known, tc.known)
		}
	}
	v := Verdict{Report: oracle.Report{Violations: []oracle.Violation{{Property: oracle.ReferenceSearch, Message: "no behaviour", Events: at(5)}}}}
	if v.ClassifyKnown(); v.Report.OK() {
		t.Error("a search failure with no known deviation in the run was excused")
	}
}

// TestKfake848: on kfake the reference search's violation of a KIP-848 history is known (kfake's
// consumer-group coordinator differs from Kafka's where the probe classifies it); a classic
// history's, or any plain violation, still fails the run.
func TestKfake848(t *testing.T) {
	search := oracle.Violation{Property: oracle.ReferenceSearch, Message: "seq 20: no behaviour answers"}
	plain := oracle.Violation{Property: oracle.ExclusiveOwnership, Message: "owned twice"}
	kip := history.History{{Seq: 1, Kind: history.Request, Op: history.ConsumerGroupHeartbeat, Phase: history.Begin}}
	classic := history.History{{Seq: 1, Kind: history.Request, Op: history.JoinGroup, Phase: history.Begin}}
	v := Verdict{History: kip, Report: oracle.Report{Violations: []oracle.Violation{search}}}
	if v.classifyKfake848(); !v.OK() || len(v.Known) != 1 || !strings.Contains(v.Known[0], "kfake-eager-target") {
		t.Errorf("KIP-848 search violation on kfake: ok %v, known %q", v.OK(), v.Known)
	}
	for _, bad := range []Verdict{
		{History: classic, Report: oracle.Report{Violations: []oracle.Violation{search}}},
		{History: kip, Report: oracle.Report{Violations: []oracle.Violation{plain}}},
	} {
		if bad.classifyKfake848(); bad.OK() {
			t.Errorf("classified as kfake's KIP-848 difference: %+v", bad.Report.Violations)
		}
	}
}
