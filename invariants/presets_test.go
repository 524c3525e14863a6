package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/worlds"
)

// presetsPinnedElsewhere are the presets another test explores and pins (three_test.go,
// followup_test.go), and cooperative-three, which no test exhausts (docs/checking.md).
var presetsPinnedElsewhere = map[string]bool{
	"cooperative-three": true, "cooperative-three-crash": true, "kip848-three": true, "cooperative-followup": true,
}

// ciPresetStates is the largest pinned preset GROUPCHECK_CI explores (the default world,
// cooperative-kafka, 693,375 states, 7.6 s on two idle cores, docs/checking.md); larger ones
// run under GROUPCHECK_LONG.
const ciPresetStates = 700_000

// TestPresetsExhaustive explores every built-in world exhaustively and pins its counts in
// worlds/pins.txt, the figures README and docs/checking.md quote (TestDocsQuotePins keeps
// those in step), with its verdicts: every safety property holds, or is violated only where
// the world expects it (Property.ExpectedViolation names why: the zombie window, an orphan
// member). The presets up to ciPresetStates run under GROUPCHECK_CI (.ci/run), the rest
// under GROUPCHECK_LONG.
func TestPresetsExhaustive(t *testing.T) {
	if !ci() {
		t.Skip("explores every preset exhaustively (GROUPCHECK_CI, the largest under GROUPCHECK_LONG)")
	}
	t.Parallel()
	pins, err := worlds.LoadPins()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range spec.Presets {
		if presetsPinnedElsewhere[p.Name] {
			continue
		}
		if pin, ok := pins[p.Name]; ok && pin.Distinct > ciPresetStates && !long() {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			c, err := p.Config()
			if err != nil {
				t.Fatal(err)
			}
			m := NewModel(c)
			r := Check(m, c, m.Properties(), explorer.Options{})
			pinned(t, p.Name, r)
			for _, q := range r.Properties {
				prop, _ := Lookup(q.Name)
				if q.Status != explorer.Holds && (q.Status != explorer.Violated || prop.ExpectedViolation(c) == "") {
					t.Errorf("%s: %s, want holds or an expected violation (%v)", q.Name, q.Status, pathText(c, q.Path))
				}
			}
		})
	}
}
