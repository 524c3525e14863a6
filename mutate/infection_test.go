package mutate

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestNotInfectedBehavesAsReference is the soundness check of infection: every mutant of
// impl/consumer that the two worlds reach without infecting is explored there anyway, and
// must give the reference's state count and be caught by nothing. It builds the whole
// binary, so it runs only under GROUPCHECK_LONG.
func TestNotInfectedBehavesAsReference(t *testing.T) {
	if os.Getenv("GROUPCHECK_LONG") == "" {
		t.Skip("builds the mutated binary; set GROUPCHECK_LONG=1")
	}
	var suite []World
	for _, w := range Suite() {
		if w.Name == "join/cooperative-kafka" || w.Name == "eager/subscription-changes" {
			suite = append(suite, w)
		}
	}
	work := t.TempDir()
	rep, err := Run(Options{Root: "..", Packages: []string{"impl/consumer"}, Exclude: []string{"encode.go"}, Jobs: 2,
		Suite: suite, Select: func(Mutant) bool { return false }, Work: work, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 0 {
		t.Fatalf("%d mutants run, want none", len(rep.Results))
	}
	var base []Baseline
	data, err := os.ReadFile(filepath.Join(work, "baseline.json"))
	if err == nil {
		err = json.Unmarshal(data, &base)
	}
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(work, "groupcheck-mutant")
	checked := 0
	for _, b := range base {
		conf := filepath.Join(work, "world.conf")
		if err := os.WriteFile(conf, []byte(b.Text), 0o644); err != nil {
			t.Fatal(err)
		}
		infected := map[int32]bool{}
		for _, id := range b.Infected {
			infected[id] = true
		}
		for _, id := range b.Hits {
			if infected[id] {
				continue
			}
			cmd := exec.Command(bin, "explore", "--config", conf, "--workers", "1", "--json")
			cmd.Env = append(os.Environ(), "GROUPCHECK_MUTANT="+strconv.Itoa(int(id)), "GROUPCHECK_MUTANT_COVER=")
			out, _ := cmd.Output() // a violated property exits non-zero; the JSON says which
			var r struct {
				Distinct   int64 `json:"distinct"`
				Properties []struct {
					Name, Status string
				} `json:"properties"`
			}
			if err := json.Unmarshal(out, &r); err != nil {
				t.Fatalf("%s, mutant %d: %v\n%s", b.Name, id, err, out)
			}
			if r.Distinct != b.Distinct {
				t.Errorf("%s: mutant %d, not infected, explores %d states, the reference %d", b.Name, id, r.Distinct, b.Distinct)
			}
			for _, p := range r.Properties {
				if ref, ok := b.Props[p.Name]; ok && ref != p.Status {
					t.Errorf("%s: mutant %d, not infected: %s %s, the reference %s", b.Name, id, p.Name, p.Status, ref)
				}
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("only %d mutant-world pairs reached without infection; the check is too thin", checked)
	}
	t.Logf("%d mutant-world pairs reached without infection behave as the reference", checked)
}
