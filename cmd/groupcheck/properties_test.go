package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/properties.md is the registry's catalogue as `groupcheck properties --write` writes
// it: a property added, renamed or restated without regenerating the page fails here.
func TestPropertiesDocIsCurrent(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "..", "docs", "properties.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "properties.md")
	if code, _, errs := runCLI(t, "properties", "--write", out); code != 0 {
		t.Fatalf("properties --write: exit %d: %s", code, errs)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("docs/properties.md differs from the registry: run `go run ./cmd/groupcheck properties --write docs/properties.md`\n%s", lineDiff(string(want), string(got)))
	}
}

// The printed catalogue opens with the promises and names each property's origin.
func TestPropertiesPrintsCatalogueByOrigin(t *testing.T) {
	code, out, errs := runCLI(t, "properties")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	promises := strings.Index(out, "Protocol promises:")
	conformance := strings.Index(out, "Conformance to an implementation:")
	guards := strings.Index(out, "Vacuity guards:")
	history := strings.Index(out, "check-history:")
	if promises != 0 || conformance < promises || guards < conformance || history < guards {
		t.Errorf("groups at %d, %d, %d, %d: want promises first, then conformance, guards, check-history:\n%s", promises, conformance, guards, history, out)
	}
	for _, want := range []string{
		"  exclusive-ownership                always     promise\n",
		"  join-answer                        always     conformance: the Apache Kafka broker's group coordinator\n",
		"  converged-reachable                sometimes  vacuity guard\n",
		"  converges                          eventually promise\n",
		"  claims-truthful                    history    promise\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("catalogue lacks %q", want)
		}
	}
}
