package docs_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/worlds"
)

// count reads a figure as the documents print it (693,375).
func count(t *testing.T, where, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), 10, 64)
	if err != nil {
		t.Fatalf("%s: %q is not a count", where, s)
	}
	return n
}

// TestDocsQuotePins: the exhaustive counts the README, docs/cli.md and docs/checking.md's
// table of built-in worlds print are the ones worlds/pins.txt pins, which the explorations
// of invariants' tests check (TestPresetsExhaustive, TestThreeMembersExhaustive). A change of
// the model that changes a count fails those tests until the pin is rewritten, and this one
// until the documents say so too.
func TestDocsQuotePins(t *testing.T) {
	pins, err := worlds.LoadPins()
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`^\| ([a-z0-9-]+)(?: \(default\))? \|[^|]*\| ([0-9,]+) \| ([0-9,]+) \| ([0-9]+) \|`)
	rows := 0
	for i, line := range strings.Split(read(t, "checking.md"), "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		pin, ok := pins[m[1]]
		if !ok {
			continue // a world no test pins (docs/checking.md says which are bounded)
		}
		rows++
		where := "docs/checking.md:" + strconv.Itoa(i+1)
		got := worlds.Pin{Distinct: count(t, where, m[2]), Generated: count(t, where, m[3]), Depth: int(count(t, where, m[4]))}
		if pin.Generated == worlds.Unpinned {
			got.Generated = worlds.Unpinned
		}
		if pin.Depth == worlds.Unpinned {
			got.Depth = worlds.Unpinned
		}
		if got != pin {
			t.Errorf("%s: %s distinct, generated, depth = %v, worlds/pins.txt pins %v", where, m[1], got, pin)
		}
	}
	if rows < 10 {
		t.Errorf("docs/checking.md: %d rows of the built-in worlds' table found with pins; the table's form changed?", rows)
	}
	// The default run's line, as `groupcheck explore` prints it.
	line := regexp.MustCompile(`(?m)^\s+([a-z0-9-]+): .* exhaustive \(([0-9,]+) states, depth ([0-9]+),`)
	for _, doc := range []string{readmePath, "cli.md"} {
		ms := line.FindAllStringSubmatch(read(t, doc), -1)
		if len(ms) == 0 {
			t.Errorf("%s: no exhaustive run's line", doc)
		}
		for _, m := range ms {
			pin, ok := pins[m[1]]
			if !ok {
				t.Errorf("%s: %s has no pin in worlds/pins.txt", doc, m[1])
				continue
			}
			if d, depth := count(t, doc, m[2]), count(t, doc, m[3]); d != pin.Distinct || (pin.Depth != worlds.Unpinned && int(depth) != pin.Depth) {
				t.Errorf("%s: %s %d states depth %d, worlds/pins.txt pins %v", doc, m[1], d, depth, pin)
			}
		}
	}
}
