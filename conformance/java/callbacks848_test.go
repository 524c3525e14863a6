package java

import (
	"slices"
	"strings"
	"testing"

	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// TestCompareCallbacks848 replays a KIP-848 run of Kafka's consumer (against kfake, static
// members, churn): every reconciliation agrees with impl/kip848client's (docs/protocol.md
// §3.7: revoke owned − target, then assign target − owned even if empty, then acknowledge).
// The same history with one revoke naming another partition, or with a member's revoke and
// assign swapped, must disagree.
func TestCompareCallbacks848(t *testing.T) {
	hist := h.Fixture(t, "kfake-static-leave-never-expires-kip848.jsonl")
	r := CompareCallbacks848(hist)
	if len(r.Diffs) != 0 || r.Compared < 5 {
		t.Fatalf("compared %d, diffs %q; want every one of several to agree", r.Compared, r.Diffs)
	}
	revoke := slices.IndexFunc(hist, func(e history.Event) bool {
		return e.Kind == history.Revoke && e.Phase == history.Begin && e.Parts.Count() > 0
	})
	if revoke < 0 {
		t.Fatal("the fixture has no revoke")
	}
	other := slices.Clone(hist)
	other[revoke].Parts = history.Parts{"elsewhere": {9}}
	if r := CompareCallbacks848(other); len(r.Diffs) == 0 {
		t.Errorf("a revoke of another partition (seq %d) was not caught", hist[revoke].Seq)
	}
	assign := slices.IndexFunc(hist[revoke:], func(e history.Event) bool {
		return e.Node == hist[revoke].Node && e.Kind == history.Assign && e.Phase == history.Begin
	}) + revoke
	swapped := slices.Clone(hist)
	swapped[revoke].Kind, swapped[assign].Kind = history.Assign, history.Revoke
	swapped[revoke].Parts, swapped[assign].Parts = hist[assign].Parts, hist[revoke].Parts
	r = CompareCallbacks848(swapped)
	if !slices.ContainsFunc(r.Diffs, func(d string) bool { return strings.Contains(d, "the reference runs revoke") }) {
		t.Errorf("assign before revoke was not caught: %q", r.Diffs)
	}
}
