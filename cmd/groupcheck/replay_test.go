package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exploredTrace explores the buggy world with --out and returns the exclusive-ownership trace.
func exploredTrace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if code, out, errs := runCLI(t, "explore", "--config", writeConfig(t, buggy), "--out", dir, "--workers", "1"); code != 1 {
		t.Fatalf("explore exit %d\n%s%s", code, out, errs)
	}
	return filepath.Join(dir, "world.conf-exclusive-ownership.trace")
}

func TestReplayExploredCounterexampleExitsZero(t *testing.T) {
	f := exploredTrace(t)
	code, out, errs := runCLI(t, "replay", f)
	if code != 0 || !strings.Contains(out, "ok, ") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	data, _ := os.ReadFile(f)
	if !strings.HasPrefix(string(data), "# groupcheck trace v1\n") || !strings.Contains(string(data), "\ncheck\n----\nviolation exclusive-ownership: ") {
		t.Errorf("not a v1 trace:\n%s", data)
	}
}

func TestReplayDivergenceExitsOneAndRewriteRepairs(t *testing.T) {
	f := exploredTrace(t)
	data, _ := os.ReadFile(f)
	edited := strings.Replace(string(data), "coord -> a: JoinGroup MEMBER_ID_REQUIRED member=a#1\n", "coord -> a: JoinGroup NONE member=a#1\n", 1)
	if edited == string(data) {
		t.Fatal("nothing edited")
	}
	if err := os.WriteFile(f, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	// The divergence is a line diff of the trace as written against the model's rendering:
	// the edited line out, the model's in, in the context of its step.
	code, out, _ := runCLI(t, "replay", f)
	if code != 1 || !strings.Contains(out, "diverges at step 2 (") || !strings.Contains(out, "+++ what the model does now (replay --rewrite writes it)\n") ||
		!strings.Contains(out, "  deliver-request a\n  ----\n- coord -> a: JoinGroup NONE member=a#1\n+ coord -> a: JoinGroup MEMBER_ID_REQUIRED member=a#1\n") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if code, out, errs := runCLI(t, "replay", f, "--rewrite"); code != 0 {
		t.Fatalf("rewrite exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := runCLI(t, "replay", f); code != 0 {
		t.Fatalf("after rewrite: exit %d\n%s", code, out)
	}
	if got, _ := os.ReadFile(f); string(got) != string(data) {
		t.Errorf("rewrite did not restore the file")
	}
}

func TestReplayMalformedExitsTwo(t *testing.T) {
	f := exploredTrace(t)
	data, _ := os.ReadFile(f)
	bad := strings.Replace(string(data), "\npoll a\n", "\npoll nobody\n", 1)
	if err := os.WriteFile(f, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, "replay", f)
	line := strings.Count(bad[:strings.Index(bad, "poll nobody")], "\n") + 1
	if code != 2 || !strings.Contains(errs, filepath.Base(f)+":"+itoa(line)+": action does not parse") {
		t.Fatalf("exit %d, stderr %q, want line %d", code, errs, line)
	}
	if code, _, _ := runCLI(t, "replay"); code != 2 {
		t.Errorf("replay without a file: exit %d", code)
	}
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func TestShrinkCommand(t *testing.T) {
	f := exploredTrace(t)
	out := filepath.Join(t.TempDir(), "small.trace")
	code, stdout, errs := runCLI(t, "shrink", f, "--out", out)
	if code != 0 || !strings.Contains(stdout, "shrunk to") {
		t.Fatalf("exit %d\n%s%s", code, stdout, errs)
	}
	if code, stdout, _ := runCLI(t, "replay", out); code != 0 {
		t.Fatalf("shrunk trace: exit %d\n%s", code, stdout)
	}
}
