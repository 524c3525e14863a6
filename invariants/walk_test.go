package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
	"pgregory.net/rapid"
)

// TestRandomDeepWalks walks every preset far deeper than the exhaustive runs reach — rapid
// draws each next action among the enabled ones — and checks every property that is not
// expected to fail after every step. It reaches rebalance storms, repeated restarts and long
// commit histories; a failure is shrunk by rapid to a short action sequence.
func TestRandomDeepWalks(t *testing.T) {
	t.Parallel()
	for _, p := range spec.Presets {
		c, err := p.Config()
		if err != nil {
			t.Fatal(err)
		}
		t.Run(p.Name, func(t *testing.T) {
			m := NewModel(c)
			rapid.Check(t, func(rt *rapid.T) {
				w := m.Init()[0]
				steps := rapid.IntRange(10, 300).Draw(rt, "steps")
				for i := 0; i < steps; i++ {
					var enabled []spec.World
					var taken []spec.Action
					for _, a := range m.Actions(w, nil) {
						if n, ok := m.Next(w, a); ok {
							enabled = append(enabled, n)
							taken = append(taken, a)
						}
					}
					if len(enabled) == 0 {
						return
					}
					k := rapid.IntRange(0, len(enabled)-1).Draw(rt, "action")
					rt.Logf("%d. %s", i+1, taken[k].Text(&c))
					w = enabled[k]
					checkAll(rt, m, w)
				}
			})
		})
	}
}

func checkAll(rt *rapid.T, m *Model, w spec.World) {
	for i, p := range m.Props() {
		if p.Kind != explorer.Always || p.ExpectedViolation(m.Config()) != "" { // always-properties only
			continue
		}
		if !m.check(i)(w) {
			why := ""
			if p.State != nil {
				why = p.State(&w)
			}
			rt.Fatalf("%s violated %s\n%s", p.Name, why, w)
		}
	}
}
