package invariants

import (
	"slices"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// twoMembers is the smallest cooperative world: two members of one two-partition topic.
const twoMembers = `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t
`

func config(t *testing.T, text string) spec.Config {
	t.Helper()
	c, err := spec.ParseConfigString(t.Name(), text)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// walk runs a script of actions from the initial world and returns every world on the way,
// failing the test at the first action that is not enabled.
func walk(t *testing.T, c spec.Config, script ...string) []spec.World {
	t.Helper()
	ws := []spec.World{spec.Init(c)}
	for _, s := range script {
		w := ws[len(ws)-1]
		a, err := spec.ParseAction(w.Config(), s)
		if err != nil {
			t.Fatal(err)
		}
		n, ok := spec.Next(w, a)
		if !ok {
			t.Fatalf("%q is not enabled in\n%s", s, w)
		}
		ws = append(ws, n)
	}
	return ws
}

// stableScript brings twoMembers to a Stable generation 1 in which a owns t-0 and b owns t-1.
var stableScript = []string{
	"poll a", "deliver-request a", "deliver-response a", "deliver-request a",
	"poll b", "deliver-request b", "deliver-response b", "deliver-request b",
	"join-timeout", "deliver-response a", "deliver-response b", "assign a",
	"deliver-request a", "deliver-request b", "deliver-response a", "deliver-response b",
}

// presetConfig is the built-in world name's config.
func presetConfig(t *testing.T, name string) spec.Config {
	t.Helper()
	p, err := spec.LookupPreset(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.Config()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func check(t *testing.T, c spec.Config, workers int) explorer.Report[spec.World, spec.Action] {
	t.Helper()
	m := NewModel(c)
	return explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{Workers: workers})
}

// holdsOrExpected fails the test for every property of r that neither holds nor is violated
// for a reason the property expects in c.
func holdsOrExpected(t *testing.T, c spec.Config, r explorer.Report[spec.World, spec.Action]) {
	t.Helper()
	for _, p := range r.Properties {
		q, _ := Lookup(p.Name)
		if p.Status != explorer.Holds && !(p.Status == explorer.Violated && q.ExpectedViolation(c) != "") {
			t.Errorf("%s: %s", p.Name, p.Status)
		}
	}
}

func status(r explorer.Report[spec.World, spec.Action], name string) explorer.Status {
	for _, p := range r.Properties {
		if p.Name == name {
			return p.Status
		}
	}
	return -1
}

func pathText(c spec.Config, p *explorer.Path[spec.World, spec.Action]) []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, s := range p.Steps {
		out = append(out, s.Action.Text(&c))
	}
	return out
}

// ownSlots returns w with copies of its slots, which a test may edit (a world's slots are
// shared with the worlds it came from: spec.World.Slots).
func ownSlots(w spec.World) spec.World {
	w.Slots = slices.Clone(w.Slots)
	for i, s := range w.Slots {
		c := *s
		cl, m := *s.Client, *s.Member
		c.Client, c.Member = &cl, &m
		w.Slots[i] = &c
	}
	return w
}

// shortestStep finds, breadth first, the shortest path in c to a step where seen is true,
// checks that property under holds in c on the way, and returns that last step re-executed:
// the world before it, its events, the world after, and the path's length. It fails the test
// when under is violated or no such step exists.
func shortestStep(t *testing.T, c spec.Config, under Property, seen func(pre *spec.World, ev []spec.Event, post *spec.World) bool) (pre spec.World, ev []spec.Event, post spec.World, steps int) {
	t.Helper()
	marker := Property{Name: "not-seen", Kind: explorer.Always, Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		if seen(pre, ev, post) {
			return "seen"
		}
		return ""
	}}
	m := NewModelWith(c, []Property{under, marker})
	r := explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{})
	if r.Properties[0].Status != explorer.Holds {
		t.Fatalf("%s %v: %v", under.Name, r.Properties[0].Status, pathText(c, r.Properties[0].Path))
	}
	p := r.Properties[1]
	if p.Status != explorer.Violated {
		t.Fatalf("no such step in %s (%v): %s is vacuous here", c.Name, p.Status, under.Name)
	}
	n := len(p.Path.Steps)
	pre = p.Path.Init
	if n > 1 {
		pre = p.Path.Steps[n-2].State
	}
	post, ev, ok := spec.Step(pre, p.Path.Steps[n-1].Action)
	if !ok {
		t.Fatal("the path's last step does not re-execute")
	}
	return pre, ev, post, n
}

// ptr is a pointer to a copy of v: a property's argument built in place.
func ptr[T any](v T) *T { return &v }
