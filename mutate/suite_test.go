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

// TestEquivalentsNameLivePoints keeps equivalents.txt honest: every key parses and names a
// mutation point of impl/ as it is now (a stale key is an edit to triage again).
func TestEquivalentsNameLivePoints(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks impl/")
	}
	eq, err := ReadEquivalents("equivalents.txt")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := List("..", []string{"impl/coordinator", "impl/consumer", "impl/leader", "impl/kip848", "impl/kip848client"}, []string{"encode.go"})
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]bool{}
	for _, m := range ms {
		live[m.Key] = true
	}
	for k := range eq {
		if !live[k] {
			t.Errorf("equivalents.txt: %q is no mutation point of impl/ now", k)
		}
	}
}
