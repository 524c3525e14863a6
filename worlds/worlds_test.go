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
