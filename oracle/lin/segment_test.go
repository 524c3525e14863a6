package lin

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSegments: cuts fall exactly where every earlier operation returned before the next was
// called; an operation without an answer (ret at the end) leaves no cut after it.
func TestSegments(t *testing.T) {
	op := func(call, ret int64) *operation { return &operation{call: call, ret: ret} }
	for _, tc := range []struct {
		name string
		ops  []*operation
		want []int // segment lengths
	}{
		{"sequential", []*operation{op(1, 2), op(3, 4), op(5, 6)}, []int{1, 1, 1}},
		{"overlapping", []*operation{op(1, 5), op(2, 3), op(4, 8), op(9, 10)}, []int{3, 1}},
		{"equal times are concurrent", []*operation{op(1, 2), op(2, 3)}, []int{2}},
		{"a long one spans", []*operation{op(1, 100), op(2, 3), op(4, 5), op(101, 102)}, []int{3, 1}},
		{"none", nil, nil},
	} {
		var got []int
		for _, s := range segments(tc.ops) {
			got = append(got, len(s))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: segments %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSegmentedVerdicts: a history of sequential rounds is decided segment by segment; one
// that no order explains falls back to the whole search, whose explanation it reports.
func TestSegmentedVerdicts(t *testing.T) {
	var b builder
	join := func(node, member string, call, ret int64, gen int32) {
		b.req(node, "JoinGroup", call, ret, rq(member, 0), joined(member, gen, "m-a", "m-a"))
	}
	join("a", "m-a", 10, 20, 1)
	join("a", "m-a", 30, 40, 2)
	r, err := Check(b.history(), time.Minute)
	if err != nil || !r.OK || !strings.Contains(r.Detail, "2 quiescent segments") {
		t.Fatalf("sequential rounds: %+v, %v", r, err)
	}
	join("a", "m-a", 50, 60, 1) // a generation that goes back
	r, err = Check(b.history(), time.Minute)
	if err != nil || r.OK || strings.Contains(r.Detail, "segments") || !strings.Contains(r.Detail, "not linearizable") {
		t.Fatalf("a generation back: %+v, %v", r, err)
	}
}
