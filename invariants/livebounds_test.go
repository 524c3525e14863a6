package invariants

import (
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/explorer"
)

// TestLivenessWithinBounds: a clock that passes the deadline, or a resident set that passes
// the memory bound, stops the graph at the next look (every liveCheckEvery worlds), and the
// check is Unknown with the bound named, never Holds. The same world within no bound holds
// over all its worlds (tests/two-members-crash's pin), so the bounds are what stopped it.
func TestLivenessWithinBounds(t *testing.T) {
	c, pin := world(t, "tests/two-members-crash"), pinOf(t, "tests/two-members-crash")
	if r := LivenessWithin(c, LiveBounds{}); r.Status != explorer.Holds || int64(r.Distinct) != pin.Distinct {
		t.Fatalf("unbounded: %s over %d worlds, want holds over %d (worlds/pins.txt)", r.Status, r.Distinct, pin.Distinct)
	}
	start := time.Unix(0, 0)
	for _, tc := range []struct {
		name  string
		looks int // looks at the clock or resident set before the bound passes
		bound func(looks *int) LiveBounds
		want  string
	}{
		{"max-time", 3, func(looks *int) LiveBounds {
			return LiveBounds{Deadline: start.Add(2 * time.Second), Now: func() time.Time {
				*looks++
				return start.Add(time.Duration(*looks) * time.Second)
			}}
		}, explorer.StopMaxTime},
		{"max-memory", 3, func(looks *int) LiveBounds {
			return LiveBounds{MaxMemory: 1 << 30, Resident: func() uint64 {
				*looks++
				return uint64(*looks) << 29
			}}
		}, explorer.StopMaxMemory},
	} {
		t.Run(tc.name, func(t *testing.T) {
			looks := 0
			r := LivenessWithin(c, tc.bound(&looks))
			if r.Status != explorer.Unknown || r.StoppedBy != tc.want {
				t.Fatalf("status %s stopped by %q, want unknown stopped by %s", r.Status, r.StoppedBy, tc.want)
			}
			if looks != tc.looks || r.Distinct > tc.looks*liveCheckEvery+64 {
				t.Errorf("%d looks, %d worlds; want %d looks and at most about %d worlds", looks, r.Distinct, tc.looks, tc.looks*liveCheckEvery)
			}
		})
	}
}
