package spec

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// walkWorlds samples reachable worlds of cfg: the worlds of n seeded random walks of up to
// depth steps each (the same on every run).
func walkWorlds(cfg Config, n, depth int, seed uint64) []World {
	r := rand.New(rand.NewPCG(seed, 1))
	var out []World
	for range n {
		w := Init(cfg)
		for range depth {
			var next []World
			for _, a := range Actions(w, nil) {
				if s, ok := Next(w, a); ok {
					next = append(next, s)
				}
			}
			if len(next) == 0 {
				break
			}
			w = next[r.IntN(len(next))]
			out = append(out, w)
		}
	}
	return out
}

// localSteps are slot i's enabled local steps in w and their successors.
func localSteps(w World, i int) ([]Action, []World) {
	var as []Action
	var ns []World
	for _, a := range Actions(w, nil) {
		if IsLocal(a, i) {
			if n, ok := Next(w, a); ok {
				as, ns = append(as, a), append(ns, n)
			}
		}
	}
	return as, ns
}

func enc(w World) string { return string(w.Encode(nil)) }

// TestLocalStepsCommute checks the independence relation of spec/ample.go on sampled
// reachable worlds: wherever slot i is Quiet, each of its local steps α that keeps
// SameToOthers and every enabled step β of the rest of the world (any kind, any slot but
// i's local steps) commute — β(α(w)) = α(β(w)) — and neither disables the other; and β
// keeps slot i Quiet with the same local steps, each as SameToOthers and Progresses as
// before, so that the same holds after any sequence of such β (C1 of the ample sets built
// on it).
func TestLocalStepsCommute(t *testing.T) {
	pairs := 0
	for _, p := range Presets {
		c, err := p.Config()
		if err != nil {
			t.Fatal(err)
		}
		walks := 40
		if testing.Short() {
			walks = 10
		}
		for _, w := range walkWorlds(c, walks, 60, 7) {
			for i := range w.Slots {
				if !w.Quiet(i) {
					continue
				}
				as, ns := localSteps(w, i)
				for _, b := range Actions(w, nil) {
					if IsLocal(b, i) {
						continue
					}
					wb, ok := Next(w, b)
					if !ok {
						continue
					}
					if !wb.Quiet(i) {
						t.Fatalf("%s: %s makes slot %d no longer quiet", p.Name, b.Text(w.cfg), i)
					}
					bs, bns := localSteps(wb, i)
					if !slices.EqualFunc(as, bs, func(x, y Action) bool { return x.Text(w.cfg) == y.Text(w.cfg) }) {
						t.Fatalf("%s: %s changes slot %d's local steps from %v to %v", p.Name, b.Text(w.cfg), i, as, bs)
					}
					for k, a := range as {
						if !w.SameToOthers(ns[k], i) {
							continue
						}
						if !wb.SameToOthers(bns[k], i) || w.Progresses(ns[k], i) != wb.Progresses(bns[k], i) {
							t.Fatalf("%s: after %s, %s looks otherwise to the rest of the world", p.Name, b.Text(w.cfg), a.Text(w.cfg))
						}
						ab, ok := Next(ns[k], b)
						if !ok {
							t.Fatalf("%s: %s disables %s in\n%s", p.Name, a.Text(w.cfg), b.Text(w.cfg), w)
						}
						if enc(ab) != enc(bns[k]) {
							t.Fatalf("%s: %s and %s do not commute in\n%s", p.Name, a.Text(w.cfg), b.Text(w.cfg), w)
						}
						pairs++
					}
				}
			}
		}
	}
	if pairs < 1000 {
		t.Errorf("only %d pairs checked: the sample barely reaches quiet slots", pairs)
	}
	t.Logf("%d independent pairs commute", pairs)
}

// TestCrashDoesNotCommute: the relation is not vacuous. A member's crash, which Quiet rules
// out by its budget, does not commute with the member's own local steps.
func TestCrashDoesNotCommute(t *testing.T) {
	p, _ := LookupPreset("cooperative-kafka")
	c, _ := p.Config()
	for _, w := range walkWorlds(c, 20, 30, 3) {
		for i := range w.Slots {
			crashed, ok := Next(w, Action{Kind: Crash, Slot: int8(i)})
			if !ok {
				continue
			}
			as, ns := localSteps(w, i)
			for k := range as {
				if n, ok := Next(ns[k], Action{Kind: Crash, Slot: int8(i)}); ok && enc(n) != enc(crashed) {
					if w.Quiet(i) {
						t.Fatalf("slot %d is quiet with its crash budgeted", i)
					}
					return
				}
			}
		}
	}
	t.Fatal("no local step that a crash does not commute with: the test samples too little")
}
