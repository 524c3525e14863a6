package main

import "testing"

func TestLineDiff(t *testing.T) {
	for _, tc := range []struct{ name, a, b, want string }{
		{"equal", "x\ny\n", "x\ny\n", ""},
		{"one line changed", "a\nb\nc\nd\ne\nf\n", "a\nb\nc\nD\ne\nf\n", "  b\n  c\n- d\n+ D\n  e\n  f\n"},
		{"added at the end", "a\n", "a\nb\n", "  a\n+ b\n"},
		{"removed at the start", "a\nb\n", "b\n", "- a\n  b\n"},
		{"two changes far apart", "1\n2\n3\n4\n5\n6\n7\n8\n", "x\n2\n3\n4\n5\n6\n7\ny\n", "- 1\n+ x\n  2\n  3\n  …\n  6\n  7\n- 8\n+ y\n"},
	} {
		if got := lineDiff(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: lineDiff =\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
}
