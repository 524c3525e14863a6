package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readPage reads a page a command wrote and checks the marks of a whole, self-contained page.
func readPage(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.HasPrefix(s, "<!DOCTYPE html>") || !strings.HasSuffix(strings.TrimSpace(s), "</html>") || strings.Contains(s, "<script src") {
		t.Errorf("%s is not one self-contained page", path)
	}
	return s
}

// TestExploreHTML: explore --html FILE writes the run's page beside its usual output: the
// summary, a timeline per counterexample headed by what it violates, then the verdicts and the
// coverage chart.
func TestExploreHTML(t *testing.T) {
	page := filepath.Join(t.TempDir(), "run.html")
	code, out, errs := runCLI(t, "explore", "--config", writeConfig(t, buggy), "--html", page)
	if code != 1 || !strings.Contains(out, "VIOLATED exclusive-ownership ") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	s := readPage(t, page)
	if strings.Contains(s, "the model now differs") {
		t.Errorf("a counterexample's timeline says it does not replay")
	}
	for _, want := range []string{"groupcheck explore: world.conf", "exhaustive: every reachable state was explored",
		`<a href="#tl1">exclusive-ownership</a>`, `<section class="timeline" id="tl1"`, "Coverage: transitions taken", `data-lane="coord"`, `data-partition="t-1"`,
		`<span class="n violated">5 violated</span>`, `<h2 class="cxhead">exclusive-ownership <span class="tag violated">violated</span></h2>`,
		`<h2 class="cxhead">no-orphan-member <span class="tag expected">violated, expected here</span><span class="why">`} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// eager-joins-empty is found after no-orphan-member, but fails the run: it is shown first.
	tl, last, zombie := strings.Index(s, `id="tl1"`), strings.Index(s, `<h2 class="cxhead">eager-joins-empty`), strings.Index(s, `<h2 class="cxhead">no-orphan-member`)
	if v, c := strings.Index(s, `id="verdicts"`), strings.Index(s, `id="charts"`); !(tl < last && last < zombie && zombie < v && v < c) {
		t.Errorf("the first counterexample is at byte %d, the last failing one at %d, the expected one at %d, the verdicts at %d, the figures at %d: want them in that order", tl, last, zombie, v, c)
	}
}

// TestSimulateHTML: simulate --html FILE writes its page, which says a sample is no proof.
func TestSimulateHTML(t *testing.T) {
	page := filepath.Join(t.TempDir(), "sim.html")
	code, out, errs := runCLI(t, "simulate", "--config", writeConfig(t, buggy), "--walks", "50", "--seed", "1", "--html", page)
	if code != 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	s := readPage(t, page)
	for _, want := range []string{"groupcheck simulate: world.conf", "finding nothing is not a proof", `<section class="timeline" id="tl1"`, "Walks that violated each property"} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestShowHTML: show --format html prints the trace's page on stdout.
func TestShowHTML(t *testing.T) {
	code, out, errs := runCLI(t, "show", "../../traces/golden/in-flight-stuck-on-error-converges.trace", "--format", "html")
	if code != 0 || !strings.Contains(out, `<g class="deadend">`) || !strings.Contains(out, `data-lane="coord"`) {
		t.Fatalf("exit %d, no dead end drawn\n%s", code, errs)
	}
}

// TestCheckHistoryHTML: check-history --html FILE writes the history's page; with standard
// input it refuses, naming why.
func TestCheckHistoryHTML(t *testing.T) {
	page := filepath.Join(t.TempDir(), "h.html")
	code, _, errs := runCLI(t, "check-history", "../../htmlreport/testdata/late-commit-cooperative.jsonl", "--html", page)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the late commit)\n%s", code, errs)
	}
	s := readPage(t, page)
	if !strings.Contains(s, "commit-from-owner") || !strings.Contains(s, `data-lane="broken"`) {
		t.Errorf("the page lacks the finding or the lanes")
	}
	hist, err := os.ReadFile("../../htmlreport/testdata/late-commit-cooperative.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	stdin = strings.NewReader(string(hist))
	defer func() { stdin = os.Stdin }()
	code, _, errs = runCLI(t, "check-history", "-", "--html", page)
	if code != 2 || !strings.Contains(errs, "standard input") {
		t.Errorf("check-history - --html: exit %d, %q; want 2 naming standard input", code, errs)
	}
}
