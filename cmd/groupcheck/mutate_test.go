package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/mutate"
)

// TestMutateRerunMergesReports: --rerun with several reports leaves out a mutant killed in any
// of them, and keeps one no report killed (what `mutate --list` shows is what would run).
func TestMutateRerunMergesReports(t *testing.T) {
	t.Chdir("../..")
	ms, err := mutate.List(".", []string{"impl/leader"}, []string{"encode.go"})
	if err != nil || len(ms) < 3 {
		t.Fatalf("listing impl/leader's mutants: %d, %v", len(ms), err)
	}
	dir := t.TempDir()
	report := func(name string, killed, survived mutate.Mutant) string {
		var b bytes.Buffer
		for _, r := range []mutate.Result{
			{Mutant: killed, Verdict: mutate.Verdict{Status: mutate.Killed}},
			{Mutant: survived, Verdict: mutate.Verdict{Status: mutate.Survived}},
		} {
			line, _ := json.Marshal(r)
			b.Write(append(line, '\n'))
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := report("a.jsonl", ms[0], ms[1])
	b := report("b.jsonl", ms[1], ms[0]) // a survivor of one run killed by the next: the kill stands
	var out, errb bytes.Buffer
	if code := run([]string{"mutate", "--list", "--packages", "impl/leader", "--rerun", a + "," + b}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	listed := out.String()
	for _, m := range ms[:2] {
		if strings.Contains(listed, m.Key+" ") {
			t.Errorf("%s was killed in one report and is listed to run again", m.Key)
		}
	}
	if !strings.Contains(listed, ms[2].Key+" ") {
		t.Errorf("%s, killed in no report, is not listed to run", ms[2].Key)
	}
}
