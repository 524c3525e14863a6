package harness

import (
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
	hist, err := history.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return hist
}
