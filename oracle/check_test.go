package oracle

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
)

func TestMalformedHistoryIsOneViolation(t *testing.T) {
	h := history.History{{Seq: 2, Kind: history.Start, Node: "a"}, {Seq: 1, Kind: history.Start, Node: "b"}}
	called := false
	r := Check(h, Options{Linearizability: func(history.History) (bool, string, error) { called = true; return true, "", nil }})
	if r.OK() || len(r.Violations) != 1 || r.Violations[0].Property != WellFormed {
		t.Fatalf("want one %s violation:\n%s", WellFormed, r)
	}
	if !strings.Contains(r.Violations[0].Message, "seq 1 does not increase") {
		t.Errorf("message %q does not say what is wrong", r.Violations[0].Message)
	}
	if called || r.Linearizable != LinNotChecked {
		t.Errorf("a malformed history must not be checked for linearizability (called %v, %q)", called, r.Linearizable)
	}
}

func TestLinearizabilityVerdicts(t *testing.T) {
	b := twoMembers(history.Classic)
	b.req("a", history.Heartbeat, "m-a", 3, "") // a request for the search to judge
	h := b.h
	for _, tc := range []struct {
		ok     bool
		detail string
		err    error
		want   string
		pass   bool
	}{
		{true, "", nil, "yes", true},
		{false, "JoinGroup at seq 4 answered gen 2, reference says 1", nil, "no: JoinGroup at seq 4 answered gen 2, reference says 1", false},
		{false, "", nil, "no", false},
		{false, "", errors.New("timed out"), "not checked: timed out", true},
	} {
		var got history.History
		r := Check(h, Options{NoReference: true, Linearizability: func(h history.History) (bool, string, error) {
			got = h
			return tc.ok, tc.detail, tc.err
		}})
		if r.Linearizable != tc.want || r.OK() != tc.pass || len(got) != len(h) {
			t.Errorf("verdict (%v, %q, %v): Linearizable %q OK %v, want %q %v", tc.ok, tc.detail, tc.err, r.Linearizable, r.OK(), tc.want, tc.pass)
		}
	}
	if r := Check(h, Options{NoReference: true}); r.Linearizable != LinNotChecked || !r.OK() {
		t.Errorf("zero Options: %q OK %v", r.Linearizable, r.OK())
	}
}

// overlapping is a history with a violation on two partitions in one callback, a zombie and a
// generation going down, so that merging and ordering have something to do.
func overlapping() history.History {
	b := twoMembers(history.Consumer)
	b.cb("b", history.Assign, parts("t", 0, 1))
	b.start("c", history.Consumer)
	b.cb("c", history.Assign, parts("u", 0))
	b.instant(history.Cut, "c")
	b.start("d", history.Consumer)
	b.cb("d", history.Assign, parts("u", 0))
	b.gen("a", "m-a", 1)
	return b.h
}

func TestReportMergesAndOrders(t *testing.T) {
	r := Check(overlapping(), Options{})
	var got []string
	for _, v := range r.Violations {
		got = append(got, v.Property)
	}
	want := []string{ExclusiveOwnership, RevokeBeforeAssign, GenerationMonotonic}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("violations %v, want %v (one per story, in seq order)\n%s", got, want, r)
	}
	if !strings.Contains(r.Violations[0].Message, "both owned t-0,t-1") {
		t.Errorf("partitions of one callback not merged: %s", r.Violations[0].Message)
	}
	if len(r.Zombies) != 2 || r.Members != 4 || r.Events != len(overlapping()) {
		t.Errorf("zombies %d members %d events %d:\n%s", len(r.Zombies), r.Members, r.Events, r)
	}
	for _, v := range append(r.Violations, r.Zombies...) {
		for i := 1; i < len(v.Events); i++ {
			if v.Events[i].Seq <= v.Events[i-1].Seq {
				t.Errorf("%s: events not in seq order: %v", v.Property, seqs(v.Events))
			}
		}
	}
}

func TestCheckIsDeterministic(t *testing.T) {
	h := overlapping()
	first := Check(h, Options{})
	for range 20 {
		if r := Check(h, Options{}); !reflect.DeepEqual(r, first) {
			t.Fatalf("two checks of one history differ:\n%s\n%s", first, r)
		}
	}
}

func TestReportString(t *testing.T) {
	s := Check(overlapping(), Options{}).String()
	for _, want := range []string{
		"history: 16 events, 4 members: FAIL\n",
		"violations: 3, zombies: 2, linearizable: nothing to search: the history has no coordinator requests\n",
		"\nviolation exclusive-ownership: a and b both owned t-0,t-1",
		"\nzombie revoke-before-assign: d began assigning u-0",
		"  seq 7  t 6ms  b  assign begin id=2 parts=t-0,t-1\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("String lacks %q:\n%s", want, s)
		}
	}
	if s := Check(twoMembers(history.Classic).h, Options{}).String(); !strings.HasPrefix(s, "history: 6 events, 2 members: ok\n") {
		t.Errorf("clean report: %s", s)
	}
}

func TestReportJSON(t *testing.T) {
	b, err := json.Marshal(Check(overlapping(), Options{}))
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Violations) != 3 || back.Violations[0].Property != ExclusiveOwnership || back.Violations[0].Events[0].Kind != history.Assign {
		t.Errorf("JSON does not carry the report: %s", b)
	}
	if !strings.Contains(string(b), `"property":"exclusive-ownership","class":"violation"`) {
		t.Errorf("JSON field names: %s", b)
	}
}

// A Recorder shared by concurrent members, as a conformance suite uses it: each member owns
// its own partitions, hands one over properly, and the history checks clean. The same run
// with one member skipping its revoke is caught.
func TestRecorderHistory(t *testing.T) {
	for _, skip := range []bool{false, true} {
		rec := history.NewRecorder()
		var wg sync.WaitGroup
		handed := make(chan struct{})
		for i, node := range []string{"a", "b", "c"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rec.Record(history.Event{Kind: history.Start, Node: node, Proto: history.Consumer})
				rec.Record(history.Event{Kind: history.Generation, Node: node, Member: "m-" + node, Gen: 1})
				rec.Begin(history.Event{Kind: history.Assign, Node: node, Parts: parts("t", int32(i))})(history.Event{})
				end := rec.Begin(history.Event{Kind: history.Commit, Node: node, Parts: parts("t", int32(i))})
				end(history.Event{})
				switch node {
				case "a":
					if !skip {
						rec.Begin(history.Event{Kind: history.Revoke, Node: node, Parts: parts("t", 0)})(history.Event{})
					}
					close(handed)
				case "b":
					<-handed
					rec.Begin(history.Event{Kind: history.Assign, Node: node, Parts: parts("t", 0)})(history.Event{})
				}
			}()
		}
		wg.Wait()
		r := Check(rec.History(), Options{})
		if r.OK() == skip || r.Members != 3 {
			t.Errorf("skip revoke %v: OK %v, members %d\n%s", skip, r.OK(), r.Members, r)
		}
		if skip && (len(r.Violations) == 0 || r.Violations[0].Property != RevokeBeforeAssign && r.Violations[0].Property != ExclusiveOwnership) {
			t.Errorf("skipped revoke not reported as an ownership violation:\n%s", r)
		}
	}
}

// A crash in the middle of a callback: the Recorder drops the dead node's late end and closes
// the interval as unfinished; the crash ended the ownership, so the next owner is fine.
func TestRecorderCrashMidCallback(t *testing.T) {
	var now int64
	rec := history.NewRecorderClock(func() int64 { now += 1000; return now })
	rec.Record(history.Event{Kind: history.Start, Node: "a"})
	rec.Begin(history.Event{Kind: history.Assign, Node: "a", Parts: parts("t", 0)})(history.Event{})
	endRevoke := rec.Begin(history.Event{Kind: history.Revoke, Node: "a", Parts: parts("t", 0)})
	rec.Record(history.Event{Kind: history.Crash, Node: "a"})
	endRevoke(history.Event{})
	rec.Begin(history.Event{Kind: history.Assign, Node: "b", Parts: parts("t", 0)})(history.Event{})
	h := rec.History()
	if last := h[len(h)-1]; last.Note != history.Unfinished || last.Node != "a" {
		t.Fatalf("the revoke cut short by the crash should end unfinished, got %+v", last)
	}
	if r := Check(h, Options{}); !r.OK() || len(r.Zombies) != 0 {
		t.Errorf("crash then reassignment is legal:\n%s", r)
	}
}

// TestNothingToCheck: an empty history, or one of marks only, is no "ok": Check reports it as
// malformed and CheckReader refuses it.
func TestNothingToCheck(t *testing.T) {
	marks := history.History{{Seq: 1, Kind: history.Mark, Node: "h", Note: "started"}}
	for _, h := range []history.History{nil, marks} {
		r := Check(h, Options{})
		if r.OK() || len(r.Violations) != 1 || r.Violations[0].Property != WellFormed || r.Checked != nil ||
			!strings.Contains(r.Violations[0].Message, "nothing to check") {
			t.Errorf("%d events: %s", len(h), r)
		}
		var b bytes.Buffer
		if err := h.Write(&b); err != nil {
			t.Fatal(err)
		}
		if _, err := CheckReader(&b, Options{}); err != ErrNothingToCheck {
			t.Errorf("%d events: CheckReader error %v, want ErrNothingToCheck", len(h), err)
		}
	}
}

// TestCheckReaderStreams: a reader that cannot seek (standard input) is spooled for the second
// pass and judged as the same history in memory; Progress hears of both passes.
func TestCheckReaderStreams(t *testing.T) {
	var b bytes.Buffer
	if _, err := writeBigHistory(&b, 1<<20); err != nil {
		t.Fatal(err)
	}
	h, err := history.Read(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	passes := map[int]int64{}
	r, err := CheckReader(io.MultiReader(bytes.NewReader(b.Bytes())), Options{Progress: func(pass int, n int64) { passes[pass] = n }})
	if err != nil {
		t.Fatal(err)
	}
	if want := Check(h, Options{}); !reflect.DeepEqual(r, want) {
		t.Errorf("streamed:\n%s\nin memory:\n%s", r, want)
	}
	if n := int64(b.Len()); passes[1] != n || passes[2] != n || len(passes) != 2 {
		t.Errorf("progress %v, want both passes to reach %d bytes", passes, n)
	}
}

// TestLinearizabilityStreamed: the streamed search (LinearizabilityStream: only the requests
// are held) gives the verdict the in-memory one gives, on a clean history and on kfake's two
// leaders.
func TestLinearizabilityStreamed(t *testing.T) {
	for _, file := range []string{"testdata/cooperative-clean.jsonl", "../conformance/franzgo/testdata/kfake-two-leaders-cooperative.jsonl"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := CheckReader(bytes.NewReader(b), Options{Linearizability: Linearizable(time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		streamed, err := CheckReader(bytes.NewReader(b), Options{LinearizabilityStream: LinearizableStream(time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		if streamed.Linearizable == LinNotChecked || (streamed.Linearizable == LinYes) != (whole.Linearizable == LinYes) ||
			!reflect.DeepEqual(streamed.Checked, whole.Checked) || !reflect.DeepEqual(streamed.Violations, whole.Violations) {
			t.Errorf("%s: streamed %q, whole %q", file, streamed.Linearizable, whole.Linearizable)
		}
	}
}

// A history without coordinator requests gives the linearizability search nothing to judge:
// the report says so, in memory and streamed, asked for the search or not, and the search is
// not run; "yes" would claim a check that did not happen.
func TestNothingToSearch(t *testing.T) {
	h := overlapping()
	searched := false
	search := Options{Linearizability: func(history.History) (bool, string, error) { searched = true; return true, "", nil }}
	for name, r := range map[string]Report{"in memory": Check(h, Options{}), "in memory, searched": Check(h, search)} {
		if r.Linearizable != LinNothing || slices.Contains(r.Checked, Linearizability) {
			t.Errorf("%s: linearizable %q, checked %q; want %q, no %s", name, r.Linearizable, r.Checked, LinNothing, Linearizability)
		}
		if strings.Contains(r.String(), "needs a search") {
			t.Errorf("%s: the report asks for a search there is nothing for:\n%s", name, r)
		}
	}
	if searched {
		t.Error("the search ran on a history without requests")
	}
	var b strings.Builder
	if err := h.Write(&b); err != nil {
		t.Fatal(err)
	}
	r, err := CheckReader(strings.NewReader(b.String()), Options{LinearizabilityStream: LinearizableStream(time.Second)})
	if err != nil || r.Linearizable != LinNothing {
		t.Errorf("streamed: linearizable %q (%v), want %q", r.Linearizable, err, LinNothing)
	}
}

// A search that ended without a verdict is neither ok nor a failure (issue 25: never "ok"):
// the reference search's budget, a search that could not run, and a linearizability check out
// of budget or time each make the summary line "undecided"; a violation still reads FAIL.
func TestUndecidedIsNoPass(t *testing.T) {
	for _, tc := range []struct {
		r    Report
		want string
	}{
		{Report{Linearizable: LinNotChecked, Reference: "ok (3 requests, 10 reference states)"}, "ok"},
		{Report{Linearizable: LinNotChecked, Reference: "undecided at event 4: one answer needs more than the budget"}, "undecided"},
		{Report{Linearizable: LinNotChecked, Reference: "not searched: a request of two protocols"}, "undecided"},
		{Report{Linearizable: LinNotChecked + ": linearizability undecided at request 7"}, "undecided"},
		{Report{Linearizable: LinNotChecked}, "ok"},
		{Report{Linearizable: LinNotChecked, Reference: "undecided at event 4: x", Violations: []Violation{{Property: ExclusiveOwnership}}}, "FAIL"},
	} {
		if got := strings.SplitN(tc.r.String(), "\n", 2)[0]; got != "history: 0 events, 0 members: "+tc.want {
			t.Errorf("%+v: summary %q, want %s", tc.r, got, tc.want)
		}
	}
}
