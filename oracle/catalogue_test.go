package oracle

import (
	"slices"
	"testing"
)

// The catalogue lists exactly what Check can judge: the plain properties in the report's
// order, then the bounded one, then the two search checks. A property added to Plain without
// its entry fails here.
func TestCatalogueCoversChecks(t *testing.T) {
	var names []string
	for _, e := range Catalogue {
		names = append(names, e.Name)
		if e.Origin == "" || e.Statement == "" || e.Source == "" {
			t.Errorf("%s: origin, statement and source must all be given: %+v", e.Name, e)
		}
	}
	want := append(slices.Clone(Plain), RebalanceCompletes, Linearizability, ReferenceSearch)
	if !slices.Equal(names, want) {
		t.Errorf("catalogue lists %v, want %v", names, want)
	}
}
