package harness

import (
	"context"
	"flag"
	"fmt"
	"time"
)

var soakFor = flag.Duration("soak-for", 0,
	"long form: run the eight-member churn soak (Soak8) for this much wall time (0: skip it)")

// SoakFor is the -soak-for flag: how long Soak8 churns (0: it does not run).
func SoakFor() time.Duration { return *soakFor }

// SoakSlots are Soak8's eight members; incarnation k > 1 of slot s is named s+k ("c2").
var SoakSlots = []string{"a", "b", "c", "d", "e", "f", "g", "h"}

// Soak8 is the long churn of issue 25's limit "a history from a 30-minute soak of eight
// members judged in under a minute": eight members start and settle; then, round after round
// until d has passed, one slot in turn (a, b, ..., h, a, ...) loses its member — a crash
// (no leave: the coordinator expires its session) or a graceful close, alternating within
// the pass over the slots and from one pass to the next — the group settles without it, and the slot's next incarnation joins and the group
// settles again; then every member leaves at once. Members commit throughout (every driver
// commits on its poll loop and in its revoke callback), so the history holds every kind of
// event a deployment's rolling restarts and crashes make, for as long as the caller asks.
func Soak8(d time.Duration) Scenario {
	return Scenario{Name: "soak8", Long: true, For: d,
		Steps: Steps(Starts(SoakSlots...), SettleStep),
		Round: soakRound,
		Tail:  []Step{{Op: OpLeaveAll}}}
}

// soakRound is Soak8's round i.
func soakRound(i int) []Step {
	slot := SoakSlots[i%len(SoakSlots)]
	k := i / len(SoakSlots) // the incarnation that goes: 0 is slot's first
	gone, next := soakName(slot, k), soakName(slot, k+1)
	op := OpCrash
	if (i+k)%2 == 1 {
		op = OpLeave
	}
	return Steps([]Step{{Op: op, Node: gone}}, SettleStep, Starts(next), SettleStep)
}

// soakName is incarnation k (0-based) of slot.
func soakName(slot string, k int) string {
	if k == 0 {
		return slot
	}
	return fmt.Sprintf("%s%d", slot, k+1)
}

// rounds runs sc.Round(0), sc.Round(1), ... while sc.For has not passed since start, each
// round whole, and returns how many ran.
func (h *Harness) rounds(ctx context.Context, sc Scenario, start time.Time) (int, error) {
	i := 0
	for ; sc.Round != nil && time.Since(start) < sc.For; i++ {
		if err := h.steps(ctx, sc.Round(i), fmt.Sprintf("round %d ", i+1)); err != nil {
			return i, err
		}
	}
	return i, nil
}
