package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "world.conf")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const tiny = `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t
`

// buggy is an eager world with the franz-go #686 fault (docs/bugs.md B23): an eager member that
// revoked everything still advertises its last assignment as owned.
const buggy = `protocol eager
consumer kafka
coordinator kafka
assignor sticky
topic t 2
member a topics=t
member b topics=t
budget crashes=1
fault eager-keeps-owned-list
`

func TestExploreHoldsExitsZero(t *testing.T) {
	code, out, errs := runCLI(t, "explore", "--config", writeConfig(t, tiny), "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"world.conf: 39 hold, 0 expected, 0 violated, 0 unknown; exhaustive (476 states", "world world.conf: 476 distinct states", "holds      always     exclusive-ownership "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestExploreViolationPrintsCounterexampleAndWritesTrace(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := runCLI(t, "explore", "--config", writeConfig(t, buggy), "--out", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1 on a violation\n%s", code, out)
	}
	if !strings.Contains(out, "VIOLATED exclusive-ownership (promise)") || !strings.Contains(out, "shortest counterexample") || !strings.Contains(out, "1. poll ") {
		t.Errorf("no counterexample in the output:\n%s", out)
	}
	trace, err := os.ReadFile(filepath.Join(dir, "world.conf-exclusive-ownership.trace"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(trace), "# property: exclusive-ownership") || !strings.Contains(string(trace), "#   fault eager-keeps-owned-list") {
		t.Errorf("trace file lacks its header:\n%s", trace)
	}
}

// A bound that stops the search before any property is decided says so in its status: 3
// (exitUndecided), not 0, which would read as "holds".
func TestExploreBoundedSaysSo(t *testing.T) {
	code, out, _ := runCLI(t, "explore", "--config", writeConfig(t, tiny), "--max-depth", "5", "--json")
	var rep struct {
		Exhaustive bool   `json:"exhaustive"`
		StoppedBy  string `json:"stopped_by"`
		Distinct   int64  `json:"distinct"`
		Depth      int    `json:"depth"`
		Properties []struct {
			Name, Kind, Status string
			Trace              []string
		} `json:"properties"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output does not parse: %v\n%s", err, out)
	}
	if code != exitUndecided || rep.Exhaustive || rep.StoppedBy != "max-depth" || rep.Depth != 5 {
		t.Errorf("exit %d, exhaustive %v, stopped_by %q, depth %d; want %d, false, max-depth, 5", code, rep.Exhaustive, rep.StoppedBy, rep.Depth, exitUndecided)
	}
	for _, p := range rep.Properties {
		if p.Kind == "always" && p.Status != "unknown" {
			t.Errorf("%s is %q in a bounded run; want unknown", p.Name, p.Status)
		}
	}
}

func TestBadUsageExitsTwo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explore", "--preset", "nope"}, `unknown preset "nope"`},
		{[]string{"explore", "--config", "/does/not/exist"}, "no such file"},
		{[]string{"explore", "--preset", "eager", "--config", "x"}, "exclude each other"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"bench", "twophase", "--rm", "0"}, "--rm 0 outside 1..14"},
		{[]string{"explore", "--config", "BAD"}, `:1: unknown directive "colour"`},
	} {
		args := tc.args
		if args[len(args)-1] == "BAD" {
			args = append(args[:len(args)-1:len(args)-1], writeConfig(t, "colour blue\n"))
		}
		code, _, errs := runCLI(t, args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

func TestPresetsAndBench(t *testing.T) {
	code, out, _ := runCLI(t, "presets")
	if code != 0 || !strings.Contains(out, "* cooperative-kafka") {
		t.Errorf("presets: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "bench", "twophase", "--rm", "3")
	if code != 0 || !strings.Contains(out, "288 distinct, 1146 generated") {
		t.Errorf("bench: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "bench", "twophase", "--rm", "5", "--symmetry")
	if code != 0 || !strings.Contains(out, "314 distinct") {
		t.Errorf("bench --symmetry: exit %d\n%s", code, out)
	}
}

// TestMaxRounds: --max-rounds fails the run when the worst case after one event exceeds the
// bound, and passes at the measured worst case (cooperative-join: one rebalance after a join).
func TestMaxRounds(t *testing.T) {
	var out, errb strings.Builder
	// An eager member joining a group of one: a single rebalance. (This was cooperative-join,
	// 113,247 states and most of this package's time; the flag's mechanics need no more.)
	dir := t.TempDir()
	join := filepath.Join(dir, "join.conf")
	if err := os.WriteFile(join, []byte("protocol eager\nconsumer kafka\ncoordinator kafka\nassignor range\ntopic t 2\nmember a topics=t\nmember b topics=t absent\nbudget joins=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"explore", "--config", join, "--max-rounds", "1", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("max-rounds 1: exit %d, want 0\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), `"rebalances": 1`) {
		t.Errorf("the JSON report lacks the rounds figures:\n%s", out.String())
	}
	// A live member's session expires (a zombie): it is removed (one rebalance), then learns
	// it and rejoins (a second one).
	file := filepath.Join(dir, "expiry.conf")
	world := "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor range\ntopic t 2\nmember a topics=t\nmember b topics=t\nbudget session-timeouts=1\n"
	if err := os.WriteFile(file, []byte(world), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"explore", "--config", file, "--max-rounds", "1"}, &out, &errb); code != 1 || !strings.Contains(out.String(), "EXCEEDS") {
		t.Errorf("session expiry under --max-rounds 1: exit %d, want 1 and EXCEEDS\n%s", code, out.String())
	}
	out.Reset()
	if code := run([]string{"explore", "--config", file, "--max-rounds", "2"}, &out, &errb); code != 0 {
		t.Errorf("session expiry under --max-rounds 2: exit %d, want 0\n%s", code, out.String())
	}
	if code := run([]string{"explore", "--max-rounds", "-1"}, &out, &errb); code != 2 {
		t.Errorf("a negative bound: exit %d, want 2", code)
	}
}

// TestMaxUnavailableAndEvents: --events 2 measures a join whose answer is lost (KIP-848: the
// orphaned first member id keeps its share until its session expires), --max-unavailable
// bounds the partition-steps without an owner, and bad values exit 2.
func TestMaxUnavailableAndEvents(t *testing.T) {
	file := filepath.Join(t.TempDir(), "join-lost.conf")
	world := "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t\nmember b topics=t absent\nbudget joins=1 lost-responses=1\n"
	if err := os.WriteFile(file, []byte(world), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--liveness", "--json"}, 0, `"unavailability": 8`},
		{[]string{"--liveness", "--events", "2", "--json"}, 0, `"unavailability": 17`},
		{[]string{"--max-unavailable", "8"}, 0, "max-unavailable 8: the worst case within the bound"},
		{[]string{"--max-unavailable", "8", "--events", "2"}, 1, "max-unavailable 8: the worst case EXCEEDS the bound"},
		{[]string{"--max-unavailable", "17", "--events", "2", "--json"}, 0, `"max_unavailable": 17`},
		{[]string{"--max-unavailable", "0", "--json"}, 1, `"unavailable_exceeded": true`},
		{[]string{"--events", "2"}, 2, ""},
		{[]string{"--liveness", "--events", "0"}, 2, ""},
		{[]string{"--max-unavailable", "-2"}, 2, ""},
	} {
		var out, errb strings.Builder
		code := run(append([]string{"explore", "--config", file}, tc.args...), &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.want) {
			t.Errorf("%v: exit %d, want %d and %q\n%s%s", tc.args, code, tc.code, tc.want, out.String(), errb.String())
		}
	}
}

// TestMaxConvergeTime: the time to converge is reported per event kind, --max-converge-time
// bounds it (a KIP-848 join waits two heartbeat intervals at most: 10 s with Kafka's
// defaults, 1 s with a 500 ms interval), --out writes its path, and bad values exit 2.
func TestMaxConvergeTime(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "join.conf")
	world := "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t\nmember b topics=t absent\nbudget joins=1\n"
	fast := filepath.Join(dir, "fast.conf")
	if err := os.WriteFile(file, []byte(world), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fast, []byte(world+"timers consumer-heartbeat-interval=500\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		args []string
		code int
		want string
	}{
		{file, []string{"--liveness"}, 0, "start                  3 events: 1 rebalances, 19 steps, 8 partition-steps without an owner, 10 s to converge"},
		{file, []string{"--liveness", "--json"}, 0, `"time_ms": 10000`},
		{file, []string{"--max-converge-time", "10s"}, 0, "max-converge-time 10 s: the worst case within the bound"},
		{file, []string{"--max-converge-time", "9999"}, 1, "max-converge-time 9.999 s: the worst case EXCEEDS the bound"},
		{fast, []string{"--max-converge-time", "1s", "--json"}, 0, `"max_converge_time_ms": 1000`},
		{file, []string{"--max-converge-time", "soon"}, 2, ""},
		{file, []string{"--max-converge-time", "0"}, 2, ""},
	} {
		var out, errb strings.Builder
		code := run(append([]string{"explore", "--config", tc.file}, tc.args...), &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.want) {
			t.Errorf("%v: exit %d, want %d and %q\n%s%s", tc.args, code, tc.code, tc.want, out.String(), errb.String())
		}
	}
	var out, errb strings.Builder
	if code := run([]string{"explore", "--config", file, "--liveness", "--out", dir}, &out, &errb); code != 0 {
		t.Fatalf("--out: exit %d\n%s", code, errb.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "join.conf-time-start.trace"))
	if err != nil || !strings.Contains(string(b), "# waited 5000 ms (consumer-heartbeat-interval)") {
		t.Errorf("the time trace (%v):\n%s", err, b)
	}
}
