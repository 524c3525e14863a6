package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestShowFormats(t *testing.T) {
	f := exploredTrace(t)
	for _, tc := range []struct {
		format string
		check  func(string) bool
	}{
		{"text", func(s string) bool {
			return strings.Contains(s, "1. poll a\n") && strings.Contains(s, "violation exclusive-ownership")
		}},
		{"mermaid", func(s string) bool {
			return strings.HasPrefix(s, "sequenceDiagram\n") && strings.Contains(s, "participant coord") && strings.Contains(s, "m_a->>coord: ")
		}},
		{"itf", func(s string) bool {
			var v struct{ States []any }
			return json.Unmarshal([]byte(s), &v) == nil && len(v.States) == 27
		}},
		{"json", func(s string) bool {
			var v struct{ Steps []any }
			return json.Unmarshal([]byte(s), &v) == nil && len(v.Steps) == 27
		}},
	} {
		code, out, errs := runCLI(t, "show", f, "--format", tc.format)
		if code != 0 || !tc.check(out) {
			t.Errorf("show --format %s: exit %d\n%s%s", tc.format, code, out, errs)
		}
	}
	if code, _, _ := runCLI(t, "show", f, "--format", "svg"); code != 2 {
		t.Errorf("unknown format: exit %d, want 2", code)
	}
}
