package mutate

import (
	"testing"

	"github.com/groupcheck/groupcheck/spec"
)

func TestSuiteParsesAndSkipsWhatItSays(t *testing.T) {
	names := map[string]bool{}
	for _, w := range Suite() {
		if _, err := spec.ParseConfigString(w.Name, w.Text); err != nil {
			t.Errorf("%s: %v", w.Name, err)
		}
		if names[w.Name] {
			t.Errorf("%s twice", w.Name)
		}
		names[w.Name] = true
	}
	for name, instead := range skipped {
		if names[name] {
			t.Errorf("%s is skipped but in the suite", name)
		}
		if !names[firstWord(instead)] {
			t.Errorf("%s stands in for %s but is not in the suite", firstWord(instead), name)
		}
	}
	if !names["eager/crashes"] || !names["eager/session-timeouts"] || names["eager"] {
		t.Errorf("eager's two events should be split into two worlds: %v", names)
	}
}

func firstWord(s string) string {
	for i, r := range s {
		if r == ' ' {
			return s[:i]
		}
	}
	return s
}
