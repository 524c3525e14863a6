package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
)

// Every property in the registry, and each liveness property, has an origin, and the table
// names no property the registry lacks: a property added without one fails here.
func TestEveryPropertyHasAnOrigin(t *testing.T) {
	known := map[string]bool{ConvergesName: true, OrphansExpireName: true}
	for _, p := range All() {
		known[p.Name] = true
		if _, ok := OriginOf(p.Name); !ok {
			t.Errorf("%s has no origin: add it to origins (origin.go)", p.Name)
		}
	}
	for _, name := range []string{ConvergesName, OrphansExpireName} {
		if _, ok := OriginOf(name); !ok {
			t.Errorf("%s has no origin", name)
		}
	}
	for name, o := range origins {
		if !known[name] {
			t.Errorf("origins names %q, which is no property", name)
		}
		if (o.Kind == Conformance) != (o.Impl != "") {
			t.Errorf("%s: origin %v: a conformance origin, and only one, names its implementation", name, o)
		}
	}
}

// Origins print as the catalogue names them, and a sometimes-property is a vacuity guard
// unless it states a reachability a KIP promises (static-member-kept, KIP-345).
func TestOriginKinds(t *testing.T) {
	for _, tc := range []struct {
		name string
		want string
	}{
		{"exclusive-ownership", "promise"},
		{"commit-fencing", "promise"},
		{ConvergesName, "promise"},
		{"join-answer", "conformance: " + implBroker},
		{"commit-reported", "conformance: " + implJavaClients},
		{"followup-asked", "conformance: " + implStreams},
		{"converged-reachable", "vacuity guard"},
	} {
		o, _ := OriginOf(tc.name)
		if o.String() != tc.want {
			t.Errorf("origin of %s is %q, want %q", tc.name, o, tc.want)
		}
	}
	for _, p := range All() {
		o, _ := OriginOf(p.Name)
		if p.Kind == explorer.Sometimes && o.Kind != Vacuity && p.Name != "static-member-kept" {
			t.Errorf("%s is a sometimes-property with origin %v: a reachability is a vacuity guard unless a KIP promises it", p.Name, o)
		}
	}
}

// The catalogue lists each property once, promises first, then conformance, then guards.
func TestCatalogueGroupsByOrigin(t *testing.T) {
	c := Catalogue()
	if want := len(All()) + 2; len(c) != want {
		t.Fatalf("catalogue has %d entries, want %d", len(c), want)
	}
	seen := map[string]bool{}
	for i, e := range c {
		if seen[e.Name] {
			t.Errorf("%s listed twice", e.Name)
		}
		seen[e.Name] = true
		if i > 0 && c[i-1].Origin.Kind > e.Origin.Kind {
			t.Errorf("%s (%v) after %s (%v): want promises, conformance, guards", e.Name, e.Origin, c[i-1].Name, c[i-1].Origin)
		}
	}
	if c[0].Name != "exclusive-ownership" {
		t.Errorf("catalogue opens with %s, want exclusive-ownership", c[0].Name)
	}
}
