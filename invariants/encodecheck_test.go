package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// TestEncodingsAgreeOnEveryPreset runs every preset's whole exploration with its encoders
// compared on every state (explore --check-encoding), under GROUPCHECK_LONG (the default run
// checks a small world of each protocol: cmd/groupcheck's TestCheckEncoding).
func TestEncodingsAgreeOnEveryPreset(t *testing.T) {
	if !long() {
		t.Skip("GROUPCHECK_LONG: every preset, several times its exploration's cost")
	}
	for _, p := range spec.Presets {
		t.Run(p.Name, func(t *testing.T) {
			c, err := p.Config()
			if err != nil {
				t.Fatal(err)
			}
			m := NewEncodingChecked(NewModel(c))
			r := Check(m, c, m.Properties(), explorer.Options{})
			if !r.Exhaustive {
				t.Fatalf("not exhaustive: %s", r.StoppedBy)
			}
			if why, world := m.Mismatch(); why != "" {
				t.Fatalf("%s in\n%s", why, world)
			}
		})
	}
}
