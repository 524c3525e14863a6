package harness

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// Fixture reads the history a module keeps in its testdata/ under name (a run's history
// kept as a finding's evidence), failing t if it cannot be read.
func Fixture(t testing.TB, name string) history.History {
	t.Helper()
	return readHistory(t, filepath.Join("testdata", name))
}

// readHistory reads the history at path, failing t if it cannot.
func readHistory(t testing.TB, path string) history.History {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hist, err := history.Read(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return hist
}
