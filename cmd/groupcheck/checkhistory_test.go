package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The histories the oracle's tests pin (oracle/testdata, written by their builders).
const (
	cleanHistory    = "../../oracle/testdata/cooperative-clean.jsonl"
	zombieHistory   = "../../oracle/testdata/consumer-zombie.jsonl"
	skipLostHistory = "../../oracle/testdata/consumer-skip-lost.jsonl"
	// A kfake run in which two members were told they lead one generation.
	twoLeadersHistory = "../../conformance/franzgo/testdata/kfake-two-leaders-cooperative.jsonl"
)

func TestCheckHistoryExitCodes(t *testing.T) {
	for _, tc := range []struct {
		file string
		code int
		want []string
		flag string
	}{
		{cleanHistory, 0, []string{"history: 72 events, 2 members: ok\n", "violations: 0, zombies: 0, linearizable: not checked",
			"\nreference: ok (17 requests, ", "\nchecked: exclusive-ownership, ",
			", one-leader-per-generation, member-id-unique, coordinator-generation-rises, removed-stays-removed, reference-behaviour\n"}, ""},
		{cleanHistory, 0, []string{"history: 72 events, 2 members: ok\n", ", coordinator-generation-rises, removed-stays-removed\n",
			"\nnot checked, needs a search (--reference or --linearizability): the coordinator's answers"}, "--reference=false"},
		// A search whose budget runs out is no pass: exit 3 and "undecided" (issue 25).
		{cleanHistory, 3, []string{"history: 72 events, 2 members: undecided\n", "\nreference: undecided at "}, "--budget=1"},
		{twoLeadersHistory, 1, []string{"members: FAIL\n", "\nviolation one-leader-per-generation: generation 4 has two leaders"}, ""},
		{zombieHistory, 0, []string{"members: ok\n", "violations: 0, zombies: 3", "\nzombie exclusive-ownership: c1 and c2 both owned t-0,t-1"}, ""},
		{skipLostHistory, 1, []string{"members: FAIL\n", "\nviolation exclusive-ownership: c1 and c2 both owned t-0,t-1", "  seq 43  t 210ms  c1  request begin ConsumerGroupHeartbeat"}, ""},
	} {
		args := []string{"check-history", tc.file}
		if tc.flag != "" {
			args = append(args, tc.flag)
		}
		code, out, errs := runCLI(t, args...)
		if code != tc.code || errs != "" {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.file, code, tc.code, out, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.file, w, out)
			}
		}
	}
}

func TestCheckHistoryJSON(t *testing.T) {
	for _, tc := range []struct {
		file       string
		code       int
		violations int
	}{{cleanHistory, 0, 0}, {skipLostHistory, 1, 1}} {
		code, out, errs := runCLI(t, "check-history", "--json", tc.file)
		var r struct {
			Events     int
			Violations []struct{ Property, Class, Message string }
			Zombies    []json.RawMessage
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != tc.code {
			t.Fatalf("%s: exit %d, %v\n%s%s", tc.file, code, err, out, errs)
		}
		if len(r.Violations) != tc.violations || r.Events == 0 || r.Zombies == nil {
			t.Errorf("%s: %+v", tc.file, r)
		}
		if !strings.Contains(out, `"violations": [`) {
			t.Errorf("%s: violations must be a list, even empty:\n%s", tc.file, out)
		}
	}
}

func TestCheckHistoryStdin(t *testing.T) {
	f, err := os.Open(skipLostHistory)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := stdin
	stdin = f
	defer func() { stdin = old }()
	if code, out, _ := runCLI(t, "check-history", "-"); code != 1 || !strings.Contains(out, "violation exclusive-ownership") {
		t.Errorf("stdin: exit %d\n%s", code, out)
	}
}

func TestCheckHistoryMalformedAndUsage(t *testing.T) {
	good, err := os.ReadFile(cleanHistory)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte(lines[0]+lines[1]+`{"seq":3,"t_ns":99999999999,"kind":"poll","node":"c1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "check-history", bad)
	if code != 2 || out != "" || !strings.Contains(errs, "bad.jsonl: history line 3: unknown kind \"poll\"") {
		t.Errorf("malformed: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "empty.jsonl: nothing to check"},
		{"blank lines only", "\n \n", "blank lines only.jsonl: nothing to check"},
		{"marks only", `{"seq":1,"t_ns":0,"kind":"mark","node":"h","note":"x"}` + "\n", "marks only.jsonl: nothing to check"},
		{"negative generation", lines[0] + `{"seq":2,"t_ns":99999999999,"kind":"generation","node":"c1","member":"m","gen":-5}` + "\n", `history line 2: field "gen": -5 is impossible`},
		{"negative partition", lines[0] + `{"seq":2,"t_ns":99999999999,"kind":"mark","node":"c1","parts":{"t":[-1]}}` + "\n", `history line 2: field "parts": negative partition t/-1`},
		{"duplicate key", lines[0] + `{"seq":2,"t_ns":99999999999,"kind":"generation","node":"c1","gen":4,"gen":2}` + "\n", `history line 2: field "gen": duplicate key`},
		{"invalid UTF-8", lines[0] + "{\"seq\":2,\"t_ns\":99999999999,\"kind\":\"mark\",\"node\":\"\xc3\"}\n", "history line 2: invalid UTF-8"},
		{"a begin that never ends", lines[0] + `{"seq":2,"t_ns":99999999999,"kind":"assign","phase":"begin","id":99,"node":"c1"}` + "\n", `history line 2: field "id": assign begin 99 never ends`},
	} {
		f := filepath.Join(t.TempDir(), tc.name+".jsonl")
		if err := os.WriteFile(f, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errs := runCLI(t, "check-history", f); code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q, want exit 2 saying %q", tc.name, code, out, errs, tc.want)
		}
	}
	for _, args := range [][]string{
		{"check-history"},
		{"check-history", cleanHistory, zombieHistory},
		{"check-history", "--colour", cleanHistory},
		{"check-history", filepath.Join(t.TempDir(), "missing.jsonl")},
	} {
		if code, _, errs := runCLI(t, args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 with a message", args, code, errs)
		}
	}
	if code, out, _ := runCLI(t, "help"); code != 0 || !strings.Contains(out, "groupcheck check-history FILE [--json]") {
		t.Errorf("usage does not list check-history:\n%s", out)
	}
}

// TestCheckHistoryLinearizability: --linearizability checks the coordinator's answers with
// porcupine; a history whose answers no reference coordinator gives (kfake told two members
// they lead one generation) fails, writes porcupine's visualization beside the --html page,
// and the page links it; --html alone writes the page.
func TestCheckHistoryLinearizability(t *testing.T) {
	var out, errb strings.Builder
	if code := run([]string{"check-history", "--linearizability", cleanHistory}, &out, &errb); code != 0 || !strings.Contains(out.String(), "linearizable: yes") {
		t.Errorf("clean history: exit %d, want 0 and linearizable: yes\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"check-history", "--linearizability", twoLeadersHistory}, &out, &errb); code != 1 || !strings.Contains(out.String(), "two leaders") ||
		!strings.Contains(out.String(), "linearizable: no: not linearizable") {
		t.Errorf("two leaders, streamed: exit %d, want 1 naming two leaders\n%s", code, out.String())
	}
	html := filepath.Join(t.TempDir(), "lin.html")
	out.Reset()
	bad := "../../conformance/franzgo/testdata/kfake-two-leaders-cooperative.jsonl"
	if code := run([]string{"check-history", "--linearizability", "--html", html, bad}, &out, &errb); code != 1 || !strings.Contains(out.String(), "two leaders") {
		t.Errorf("two leaders: exit %d, want 1 naming two leaders\n%s", code, out.String())
	}
	if b, err := os.ReadFile(porcupineFile(html)); err != nil || !strings.Contains(string(b), "<html") {
		t.Errorf("the visualization was not written as HTML (%v, %d bytes)", err, len(b))
	}
	if b, err := os.ReadFile(html); err != nil || !strings.Contains(string(b), `href="lin.porcupine.html"`) {
		t.Errorf("the page does not link porcupine's visualization (%v)", err)
	}
	if code := run([]string{"check-history", "--html", html, cleanHistory}, &out, &errb); code != 0 {
		t.Errorf("--html without --linearizability: exit %d, want 0", code)
	}
	if b, err := os.ReadFile(html); err != nil || strings.Contains(string(b), "porcupine.html") {
		t.Errorf("the page of an unchecked history links a visualization (%v)", err)
	}
}

// TestCheckHistorySettle: --settle D judges rebalance-completes with D as the bound: the
// fixture's 42 s stall fails at 30s and holds at 1m.
func TestCheckHistorySettle(t *testing.T) {
	const stalled = "../../oracle/testdata/classic-crash-never-expired.jsonl"
	code, out, errs := runCLI(t, "check-history", "--settle", "30s", stalled)
	if code != 1 || errs != "" || !strings.Contains(out, "\nviolation rebalance-completes: the group did not change for 42.056s, longer than the bound 30s") {
		t.Errorf("--settle 30s: exit %d, want 1 and the stall\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "check-history", stalled, "--settle", "1m")
	if code != 0 || errs != "" || !strings.Contains(out, ", removed-stays-removed, rebalance-completes, reference-behaviour\n") {
		t.Errorf("--settle 1m: exit %d, want 0 with rebalance-completes checked\n%s%s", code, out, errs)
	}
}
