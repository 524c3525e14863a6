package traces

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/groupcheck/groupcheck/invariants"
)

// TestGoldenMutantTraces: every mutant that a property catches keeps, per catching property,
// the explorer's shortest counterexample in golden/<fault>-<property>.trace, written by
// `groupcheck explore --mutant NAME --out DIR` (never by hand). The trace names the property,
// carries the fault in its config, and (with the rest of the corpus, TestScenarios) replays.
func TestGoldenMutantTraces(t *testing.T) {
	for _, m := range invariants.Mutants {
		for _, prop := range m.Catches {
			if prop == invariants.ConvergesName {
				continue // a lasso, not a trace: explore --liveness prints it
			}
			path := filepath.Join("golden", m.Fault.String()+"-"+prop+".trace")
			f, err := os.Open(path)
			if err != nil {
				t.Errorf("mutant %s (%s): no golden trace for %s: %v", m.Fault, m.Bug, prop, err)
				continue
			}
			tr, err := Parse(path, f)
			f.Close()
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			if tr.Header.Property != prop || !tr.Config.Faults.Has(m.Fault) {
				t.Errorf("%s: property %q, faults %v; want %s with %s", path, tr.Header.Property, tr.Config.Faults, prop, m.Fault)
			}
			res, err := Replay(tr)
			if err != nil || res.Divergence != nil {
				t.Errorf("%s does not replay: %v %+v", path, err, res.Divergence)
			}
		}
	}
}
