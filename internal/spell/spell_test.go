package spell

import "testing"

func TestNearest(t *testing.T) {
	names := []string{"crashes", "restarts", "session-timeouts", "joins"}
	for _, tc := range []struct{ s, want string }{
		{"crashs", "crashes"},
		{"session-timeout", "session-timeouts"},
		{"join", "joins"},
		{"colour", ""}, // nothing close: no guess
		{"", ""},
	} {
		if got := Nearest(tc.s, names); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
	if h := Hint("crashs", names); h != `; did you mean "crashes"?` {
		t.Errorf("Hint = %q", h)
	}
	if h := Hint("crashes", names); h != "" {
		t.Errorf("Hint of a valid name = %q, want none", h)
	}
}
