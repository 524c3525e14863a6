package invariants

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// TestCompactSameReports: exploring by packed worlds (Check) gives the report of exploring
// the worlds themselves — counts, levels, coverage, verdicts, and paths world for world — on
// every preset and every mutant's world with its fault, plain and under symmetry. Worlds are
// cut at 1,000 states by default (a deterministic cut: 41 worlds, 3.7 s of CPU; 5,000 took
// 13.4 s), at 20,000 under GROUPCHECK_CI, and under GROUPCHECK_LONG not at all, but for the
// three-member worlds with a crash at a million.
func TestCompactSameReports(t *testing.T) {
	t.Parallel()
	bound := int64(1_000)
	switch {
	case long():
		bound = 0
	case ci():
		bound = 20_000
	}
	type world struct {
		name  string
		c     spec.Config
		bound int64
	}
	var worlds []world
	for _, p := range spec.Presets {
		c, err := p.Config()
		if err != nil {
			t.Fatal(err)
		}
		b := bound
		if b == 0 && len(c.Members) > 2 && c.Budget.Crashes > 0 {
			// The three-member worlds with a crash: cooperative-three never ends here, and the
			// plain search keeps whole worlds (kip848-three would take 12 GB); a million
			// states compare the two searches as well.
			b = 1_000_000
		}
		worlds = append(worlds, world{p.Name, c, b})
	}
	for _, m := range Mutants {
		if m.World == "" {
			continue
		}
		c, err := m.Config()
		if err != nil {
			t.Fatal(err)
		}
		b := m.MaxStates
		if bound > 0 && (b == 0 || b > bound) {
			b = bound
		}
		worlds = append(worlds, world{"mutant " + m.Fault.String(), c, b})
	}
	worlds = append(worlds, world{"two members, a crash", config(t, twoMembers+"budget crashes=1\n"), 0})
	for _, w := range worlds {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			m := NewModel(w.c)
			o := explorer.Options{Workers: 2, MaxStates: w.bound}
			plain := explorer.Check[spec.World, spec.Action](m, m.Properties(), o)
			compact := Check(m, w.c, m.Properties(), o)
			sameReport(t, w.c, plain, compact)
			if w.name == "cooperative-kafka" || w.name == "kip848-kafka" {
				s := NewSymmetric(m)
				sameReport(t, w.c, explorer.Check[spec.World, spec.Action](s, m.Properties(), o), Check(s, w.c, m.Properties(), o))
			}
		})
	}
}

// sameReport compares two reports of one world field by field, paths world by world.
func sameReport(t *testing.T, c spec.Config, a, b explorer.Report[spec.World, spec.Action]) {
	t.Helper()
	type summary struct {
		Exhaustive          bool
		StoppedBy           string
		Distinct, Generated int64
		Depth               int
		Levels              []int64
		Coverage            []explorer.KindCount
	}
	sa := summary{a.Exhaustive, a.StoppedBy, a.Distinct, a.Generated, a.Depth, a.Levels, a.Coverage}
	sb := summary{b.Exhaustive, b.StoppedBy, b.Distinct, b.Generated, b.Depth, b.Levels, b.Coverage}
	if d := cmp.Diff(sa, sb); d != "" {
		t.Fatalf("reports differ (-plain +compact):\n%s", d)
	}
	for i := range a.Properties {
		pa, pb := a.Properties[i], b.Properties[i]
		if pa.Status != pb.Status || !cmp.Equal(pathText(c, pa.Path), pathText(c, pb.Path)) {
			t.Errorf("%s: %s %v vs %s %v", pa.Name, pa.Status, pathText(c, pa.Path), pb.Status, pathText(c, pb.Path))
			continue
		}
		if pa.Path == nil {
			continue
		}
		if !bytes.Equal(pa.Path.Init.Encode(nil), pb.Path.Init.Encode(nil)) {
			t.Errorf("%s: the paths start in different worlds", pa.Name)
		}
		for k := range pa.Path.Steps {
			if !bytes.Equal(pa.Path.Steps[k].State.Encode(nil), pb.Path.Steps[k].State.Encode(nil)) {
				t.Errorf("%s: the paths differ at step %d", pa.Name, k+1)
				break
			}
		}
	}
}

// TestPackRoundTrip: a packed world unpacks to a world of the same encoding, and worlds
// that differ pack differently, along the walks of every preset: the first 500 worlds of each
// level by default (2,000 under GROUPCHECK_CI), eight levels deep.
func TestPackRoundTrip(t *testing.T) {
	t.Parallel()
	width := 500
	if ci() {
		width = 2000
	}
	for _, p := range spec.Presets {
		c, err := p.Config()
		if err != nil {
			t.Fatal(err)
		}
		pk := spec.NewPacker(c)
		seen := map[spec.PackedWorld]string{}
		level := []spec.World{spec.Init(c)}
		for d := 0; d < 8 && len(level) > 0; d++ {
			var next []spec.World
			for _, w := range level {
				enc := string(w.Encode(nil))
				pw := pk.Pack(w)
				if got := string(pk.Unpack(pw).Encode(nil)); got != enc {
					t.Fatalf("%s: a world does not survive packing", p.Name)
				}
				if e, ok := seen[pw]; ok && e != enc {
					t.Fatalf("%s: two different worlds pack alike", p.Name)
				}
				seen[pw] = enc
				for _, a := range spec.Actions(w, nil) {
					if n, ok := spec.Next(w, a); ok && len(next) < width {
						next = append(next, n)
					}
				}
			}
			level = next
		}
	}
}
