package docs_test

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/spec"
)

// TestDocsBudgetKeys: docs/config.md's table of budget keys is the one the kinds table
// derives (spec.BudgetKeys): every key the config reads, in its order, with what one unit of
// it is and the protocol it is limited to. A budget added to the table and not to the page
// fails here, with the rows to paste.
func TestDocsBudgetKeys(t *testing.T) {
	doc := read(t, "config.md")
	_, after, ok := strings.Cut(doc, "## Budget keys\n\n| key | event |\n|---|---|\n")
	if !ok {
		t.Fatal("config.md: no table under ## Budget keys")
	}
	got, _, _ := strings.Cut(after, "\n\n")
	if want := strings.TrimSuffix(spec.BudgetKeys(), "\n"); got != want {
		t.Errorf("config.md's budget keys are not the kinds table's; want:\n%s", want)
	}
}
