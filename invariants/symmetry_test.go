package invariants

import (
	"hash/maphash"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// anyVariant is a preset's world with the `any` assignor, which keeps the symmetry of
// interchangeable members (spec.NewSymmetry) where the preset's deterministic assignor breaks
// it.
func anyVariant(t *testing.T, preset string) spec.Config {
	t.Helper()
	p, err := spec.LookupPreset(preset)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(p.Text, "\n") {
		if strings.HasPrefix(l, "assignor ") {
			l = "assignor any"
		}
		lines = append(lines, l)
	}
	c, err := spec.ParseConfigString(preset+"-any", "name "+preset+"-any\n"+strings.Join(lines, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// symmetricWorlds are the KIP-848 presets with the any assignor and the KIP-848 mutants' world
// with it: every one has interchangeable members.
func symmetricWorlds(t *testing.T) []spec.Config {
	t.Helper()
	twoAny := strings.Replace(twoKIP848, "assignor uniform", "assignor any", 1)
	cs := []spec.Config{anyVariant(t, "kip848-kafka"), anyVariant(t, "kip848-kip"), anyVariant(t, "kip848-static"),
		config(t, strings.Replace(twoAny, "topic t 2", "topic t 1", 1)+"member c topics=t\n"), // a group of 6
	}
	cs[3].Name = "kip848-three-any"
	three := config(t, twoAny+"member c topics=t absent\nbudget joins=1\n")
	for _, m := range Mutants {
		if m.World != "" && strings.Contains(m.World, "protocol consumer") {
			c := three
			c.Name = "kip848-three-any+" + m.Fault.String()
			c.Faults = c.Faults.With(m.Fault)
			cs = append(cs, c)
		}
	}
	for _, c := range cs {
		if spec.NewSymmetry(c).Order() < 2 {
			t.Fatalf("%s: no symmetry", c.Name)
		}
	}
	return cs
}

// TestPropertiesAreSymmetric: along seeded random walks of Model.Next, a world and each of its
// images (the permuted walk) get the same verdict from every property and carry the same
// Observed bits — the condition for verdicts under symmetry to be the plain search's.
func TestPropertiesAreSymmetric(t *testing.T) {
	t.Parallel()
	walks := 60
	if testing.Short() {
		walks = 15
	}
	for _, c := range symmetricWorlds(t) {
		m := NewModel(c)
		sym := spec.NewSymmetry(c)
		props := m.Properties()
		for seed := range walks {
			rng := rand.New(rand.NewPCG(uint64(seed), 9))
			w := m.Init()[0]
			images := make([]spec.World, sym.Order())
			for k := range images {
				images[k] = w
			}
			for step := 0; step < 80; step++ {
				for k := 1; k < sym.Order(); k++ {
					img := images[k]
					if img.Observed != w.Observed {
						t.Fatalf("%s seed %d step %d: Observed %b, image under %d has %b", c.Name, seed, step, w.Observed, k, img.Observed)
					}
					for _, p := range props {
						if p.Check(w) != p.Check(img) {
							t.Fatalf("%s seed %d step %d: %s tells the world from its image under %d", c.Name, seed, step, p.Name, k)
						}
					}
				}
				var as []spec.Action
				var next []spec.World
				for _, a := range m.Actions(w, nil) {
					if n, ok := m.Next(w, a); ok {
						as, next = append(as, a), append(next, n)
					}
				}
				if len(as) == 0 {
					break
				}
				i := rng.IntN(len(as))
				for k := 1; k < sym.Order(); k++ {
					n, ok := m.Next(images[k], sym.Action(k, as[i]))
					if !ok {
						t.Fatalf("%s seed %d step %d: the image of %s is not enabled", c.Name, seed, step, as[i].Text(&c))
					}
					images[k] = n
				}
				w = next[i]
			}
		}
	}
}

// orbitsOf explores c without reduction and counts the orbits it reaches: the distinct
// canonical encodings of its worlds (by a 64-bit hash), gathered by an always-true property.
func orbitsOf(c spec.Config) (explorer.Report[spec.World, spec.Action], int) {
	m := NewModel(c)
	sym := spec.NewSymmetry(c)
	seed := maphash.MakeSeed()
	var mu sync.Mutex
	orbits := map[uint64]bool{}
	count := explorer.Property[spec.World]{Name: "count-orbits", Kind: explorer.Always, Check: func(w spec.World) bool {
		h := maphash.Bytes(seed, sym.Encode(w, nil))
		mu.Lock()
		orbits[h] = true
		mu.Unlock()
		return true
	}}
	r := explorer.Check[spec.World, spec.Action](m, append(m.Properties(), count), explorer.Options{})
	return r, len(orbits)
}

func checkSymmetric(c spec.Config, opts explorer.Options) explorer.Report[spec.World, spec.Action] {
	m := NewModel(c)
	return explorer.Check[spec.World, spec.Action](NewSymmetric(m), m.Properties(), opts)
}

// TestSymmetricCountsAreOrbits: the explorer under symmetry keeps exactly one world per orbit
// the plain search reaches, at the same depth (spec's TestExactOrbits checks the same on its
// own search; this is the explorer's).
func TestSymmetricCountsAreOrbits(t *testing.T) {
	t.Parallel()
	cs := symmetricWorlds(t)
	if !long() {
		cs = cs[2:4] // kip848-static-any and kip848-three-any: 24k worlds each; the others 160k to 230k
	}
	for _, c := range cs {
		plain, orbits := orbitsOf(c)
		if NewSymmetric(NewModel(c)).Symmetry().Order() < 2 {
			t.Fatalf("%s: the model does not reduce", c.Name)
		}
		red := checkSymmetric(c, explorer.Options{})
		t.Logf("%s: %d worlds, %d orbits, %d explored under symmetry", c.Name, plain.Distinct, orbits, red.Distinct)
		if !plain.Exhaustive || !red.Exhaustive {
			t.Fatalf("%s: not exhaustive", c.Name)
		}
		if red.Distinct != int64(orbits) || red.Depth != plain.Depth {
			t.Errorf("%s: %d states at depth %d under symmetry, want %d orbits at depth %d", c.Name, red.Distinct, red.Depth, orbits, plain.Depth)
		}
		if red.Distinct >= plain.Distinct {
			t.Errorf("%s: nothing reduced", c.Name)
		}
	}
}

// sameVerdicts compares each property's verdict between a plain and a reduced run: equal when
// both decided it (and a counterexample equally long, since an orbit is reached at its
// members' depth), and decided by both when both runs were exhaustive.
func sameVerdicts(t *testing.T, name string, plain, red explorer.Report[spec.World, spec.Action]) {
	t.Helper()
	for i, p := range plain.Properties {
		s := red.Properties[i]
		decided := func(st explorer.Status) bool { return st != explorer.Unknown }
		if !decided(p.Status) || !decided(s.Status) {
			if plain.Exhaustive && red.Exhaustive {
				t.Errorf("%s: %s: %s plain, %s under symmetry, both exhaustive", name, p.Name, p.Status, s.Status)
			}
			continue
		}
		if p.Status != s.Status {
			t.Errorf("%s: %s: %s plain, %s under symmetry", name, p.Name, p.Status, s.Status)
		} else if p.Status == explorer.Violated && len(p.Path.Steps) != len(s.Path.Steps) {
			t.Errorf("%s: %s: counterexample of %d steps plain, %d under symmetry", name, p.Name, len(p.Path.Steps), len(s.Path.Steps))
		}
	}
}

// TestVerdictsAgree: with and without symmetry, every property gets the same verdict on every
// preset, on the KIP-848 presets and mutant world with the any assignor (where the group is
// not trivial), and on every mutant's world with its fault. By default only three worlds of
// fewer than 25k states are explored (kip848-static, upgrade-bounce1, kip848-three-any: 3.7 s
// of CPU); GROUPCHECK_CI adds upgrade-v0-leader and kip848-static-any (6 s more), and
// GROUPCHECK_LONG every world, capped at a million states.
func TestVerdictsAgree(t *testing.T) {
	t.Parallel()
	fast := map[string]bool{"upgrade-v0-leader": ci(), "upgrade-bounce1": true, "kip848-static": true}
	type world struct {
		c   spec.Config
		cap int64
	}
	var worlds []world
	for _, p := range spec.Presets {
		if !long() && !fast[p.Name] {
			continue
		}
		c, err := p.Config()
		if err != nil {
			t.Fatal(err)
		}
		worlds = append(worlds, world{c, 1_000_000})
	}
	for i, c := range symmetricWorlds(t) {
		if !long() && i != 3 && (i != 2 || !ci()) {
			continue // as in TestSymmetricCountsAreOrbits
		}
		worlds = append(worlds, world{c, 0})
	}
	for _, m := range Mutants {
		if m.World == "" || !long() {
			continue
		}
		c, err := m.Config()
		if err != nil {
			t.Fatal(err)
		}
		worlds = append(worlds, world{c, max(m.MaxStates, 0)})
	}
	for _, w := range worlds {
		t.Run(w.c.Name, func(t *testing.T) {
			t.Parallel()
			opts := explorer.Options{MaxStates: w.cap}
			m := NewModel(w.c)
			plain := explorer.Check[spec.World, spec.Action](m, m.Properties(), opts)
			red := checkSymmetric(w.c, opts)
			sameVerdicts(t, w.c.Name, plain, red)
			if spec.NewSymmetry(w.c).Order() == 1 && (red.Distinct != plain.Distinct || red.Generated != plain.Generated) {
				t.Errorf("%s: trivial group, yet %d/%d states under symmetry for %d/%d", w.c.Name, red.Distinct, red.Generated, plain.Distinct, plain.Generated)
			}
		})
	}
}

// TestSymmetricCounterexampleReplays: a counterexample found under symmetry is a path of real
// worlds — each step is enabled in the world before it and yields the world after it, and the
// last world violates the property — as long as the plain search's.
func TestSymmetricCounterexampleReplays(t *testing.T) {
	worlds := []spec.Config{anyVariant(t, "kip848-kafka")}
	for _, name := range []string{"eager-keeps-owned-list", "sticky-merge-without-generation"} {
		m, ok := LookupMutant(name)
		if !ok {
			t.Fatalf("no mutant %s", name)
		}
		c, err := m.Config()
		if err != nil {
			t.Fatal(err)
		}
		worlds = append(worlds, c)
	}
	replayed := 0
	for _, c := range worlds {
		m := NewModel(c)
		red := checkSymmetric(c, explorer.Options{StopOnViolation: true})
		for i, pr := range red.Properties {
			if pr.Status != explorer.Violated {
				continue
			}
			w := pr.Path.Init
			for k, s := range pr.Path.Steps {
				n, ok := m.Next(w, s.Action)
				if !ok {
					t.Fatalf("%s: %s: step %d (%s) is not enabled", c.Name, pr.Name, k+1, s.Action.Text(&c))
				}
				if string(n.Encode(nil)) != string(s.State.Encode(nil)) {
					t.Fatalf("%s: %s: step %d (%s) yields another world than the path's", c.Name, pr.Name, k+1, s.Action.Text(&c))
				}
				w = n
			}
			if m.Properties()[i].Check(w) {
				t.Errorf("%s: %s holds at the end of its counterexample", c.Name, pr.Name)
			}
			if m.Explain(pr.Name, pr.Path) == "" {
				t.Errorf("%s: %s: no explanation for the last step", c.Name, pr.Name)
			}
			replayed++
		}
	}
	if replayed < len(worlds) {
		t.Errorf("%d counterexamples replayed for %d worlds: some world has no violation", replayed, len(worlds))
	}
}
