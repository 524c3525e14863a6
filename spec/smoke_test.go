package spec

import (
	"testing"
)

// bfs is a plain breadth-first enumeration used by this package's own tests, independent of
// the explorer: it counts distinct worlds and the depth reached.
func bfs(t *testing.T, cfg Config, limit int) (distinct, depth int) {
	t.Helper()
	seen := map[string]bool{}
	frontier := []World{Init(cfg)}
	seen[string(frontier[0].Encode(nil))] = true
	for len(frontier) > 0 && len(seen) < limit {
		var next []World
		for _, w := range frontier {
			for _, a := range Actions(w, nil) {
				n, ok := Next(w, a)
				if !ok {
					continue
				}
				k := string(n.Encode(nil))
				if !seen[k] {
					seen[k] = true
					next = append(next, n)
				}
			}
		}
		if len(next) > 0 {
			depth++
		}
		frontier = next
	}
	return len(seen), depth
}

// TestPresetsStepWithoutPanics walks the first few thousand worlds of every preset: every
// action the world offers must route to the roles without breaking a contract.
func TestPresetsStepWithoutPanics(t *testing.T) {
	for _, p := range Presets {
		c, err := p.Config()
		if err != nil {
			t.Fatal(err)
		}
		n, d := bfs(t, c, 3000)
		if n < 100 || d < 5 {
			t.Errorf("%s: only %d worlds to depth %d: the model barely moves", p.Name, n, d)
		}
	}
}
