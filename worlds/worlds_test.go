package worlds

import (
	"strings"
	"testing"
)

// TestText: a world's text drops its comment lines and keeps the rest byte for byte; an
// unknown name is an error naming it.
func TestText(t *testing.T) {
	names := Names()
	if len(names) == 0 || names[0] != "cooperative-failover" {
		t.Fatalf("Names() = %v", names)
	}
	text, err := Text("mutants/plan-skips-withhold")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "#") || !strings.HasPrefix(text, "protocol cooperative\n") {
		t.Errorf("text keeps a comment or lost its first directive:\n%s", text)
	}
	if text, _ := Text("eager"); !strings.HasPrefix(text, "\nprotocol eager\n") {
		t.Errorf("eager's leading blank line is lost: %q", text)
	}
	if _, err := Text("nope"); err == nil || !strings.Contains(err.Error(), `unknown world "nope"`) {
		t.Errorf("Text(nope) = %v", err)
	}
}

// TestPins: pins.txt parses (each world pinned once, each with a file) and is in Format's
// layout, so that -rewrite diffs only the counts that changed.
func TestPins(t *testing.T) {
	ps, err := LoadPins()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(ps.Format()); got != string(pinsText) {
		t.Errorf("pins.txt is not in Format's layout; want\n%s", got)
	}
	for _, bad := range []struct{ text, want string }{
		{"tests/two-members 1 2 3\ntests/two-members 1 2 3\n", "pinned twice"},
		{"nope 1 2 3\n", `unknown world "nope"`},
		{"tests/two-members 1 x 3\n", `count "x" is not a whole number`},
		{"tests/two-members 1 2\n", "want \"world distinct generated depth\""},
	} {
		if _, err := ParsePins("p", strings.NewReader(bad.text)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParsePins(%q) = %v, want an error containing %q", bad.text, err, bad.want)
		}
	}
}
