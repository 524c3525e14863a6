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

// TestCompareCallbacks848Closing: an assignment that arrives after the member's close began
// is not compared (Java's closing member ignores it, AbstractMembershipManager.onHeartbeatSuccess,
// and revokes what it owns): the CI run of 3 December compared a's close-path revoke with the
// late assignment's reconciliation. Without the close, the same events disagree.
func TestCompareCallbacks848Closing(t *testing.T) {
	seq := int64(0)
	ev := func(e history.Event) history.Event {
		seq++
		e.Seq, e.Node, e.Proto = seq, "a", "kip848"
		return e
	}
	hb := func(phase history.Phase, gen int32, parts history.Parts) history.Event {
		return ev(history.Event{Kind: history.Request, Op: history.ConsumerGroupHeartbeat, Phase: phase, Member: "m1", Gen: gen, Parts: parts})
	}
	two, three := history.Parts{"t": {0, 1}}, history.Parts{"t": {0, 1, 2}}
	hist := history.History{ev(history.Event{Kind: history.Start}),
		hb(history.Begin, 0, nil), hb(history.End, 1, two),
		ev(history.Event{Kind: history.Assign, Phase: history.Begin, Parts: two}),
		ev(history.Event{Kind: history.Assign, Phase: history.End, Parts: two}),
		hb(history.Begin, 1, nil), hb(history.End, 1, nil),
		ev(history.Event{Kind: history.Close, Phase: history.Begin}),
		hb(history.Begin, 1, nil), hb(history.End, 2, three),
		ev(history.Event{Kind: history.Revoke, Phase: history.Begin, Parts: two}),
		ev(history.Event{Kind: history.Revoke, Phase: history.End, Parts: two}),
		hb(history.Begin, -1, nil)}
	r := CompareCallbacks848(hist)
	if len(r.Diffs) != 0 || r.Compared != 1 || len(r.Skipped) != 1 || !strings.Contains(r.Skipped[0], "closing") {
		t.Errorf("compared %d, skipped %q, diffs %q; want the first compared, the late one skipped as closing", r.Compared, r.Skipped, r.Diffs)
	}
	open := slices.DeleteFunc(slices.Clone(hist), func(e history.Event) bool { return e.Kind == history.Close })
	if r := CompareCallbacks848(open); len(r.Diffs) == 0 {
		t.Errorf("without the close, the revoke of what the new assignment keeps was not caught: %+v", r)
	}
}
