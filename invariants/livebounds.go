package invariants

import (
	"time"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// LiveBounds bound the liveness check as explorer.Options bound the safety search, so that
// --max-time and --max-memory hold for a whole run, the state graph included. A bounded
// check has no verdict: its status is Unknown and StoppedBy names the bound.
type LiveBounds struct {
	// MaxStates, if > 0, caps the worlds of the graph.
	MaxStates int
	// Deadline, if not zero, stops the check once the clock passes it.
	Deadline time.Time
	// MaxMemory, if > 0, stops the check once the resident set passes it (bytes).
	MaxMemory uint64
	// Events is how many environment events the rounds measure takes (Rounds); 0 means 1.
	Events int

	// OnWorld and OnStep, when set, see every world the graph adds (the initial one first) and
	// every transition it explores, with the step's events: a caller checks the safety
	// properties in the same pass that builds the graph (groupcheck mutate). Returning false
	// stops the check (StoppedBy StopCaller).
	OnWorld func(w spec.World) bool
	OnStep  func(pre *spec.World, ev []spec.Event, post *spec.World) bool
	// PerStart fills Rounds.PerStart: the figures of every measured event by the converged
	// world it starts in and the event, so that two graphs of one config (the reference's and
	// a mutant's) compare event by event.
	PerStart bool
	// CheckPure re-encodes every world after its successors are generated and stops the check
	// (StoppedBy StopImpure) if a step changed it: impl's roles are pure functions (values in,
	// values out), so a step that writes into memory its parent world shares — a
	// copy-on-write clone dropped — is a bug whatever the properties say.
	CheckPure bool
	// RecordTaken fills LivenessReport.Taken: every kind of action the graph takes, by member.
	RecordTaken bool

	// Now and Resident read the clock and the resident set; nil means time.Now and
	// explorer.ResidentBytes. Tests inject their own.
	Now      func() time.Time
	Resident func() uint64
}

// StopCaller is the StoppedBy of a check an OnWorld or OnStep hook stopped.
const StopCaller = "caller"

// StopImpure is the StoppedBy of a check (LiveBounds.CheckPure) that found a step changing
// the world it started from.
const StopImpure = "impure-step"

// liveCheckEvery is how many worlds the graph builder adds between looks at the clock and
// the resident set (a few microseconds each, against milliseconds of work).
const liveCheckEvery = 1024

// stop returns the bound the check has passed with n worlds in the graph, or "".
func (b *LiveBounds) stop(n int) string {
	if b.MaxStates > 0 && n > b.MaxStates {
		return explorer.StopMaxStates
	}
	if !b.Deadline.IsZero() {
		now := time.Now
		if b.Now != nil {
			now = b.Now
		}
		if now().After(b.Deadline) {
			return explorer.StopMaxTime
		}
	}
	if b.MaxMemory > 0 {
		rss := explorer.ResidentBytes
		if b.Resident != nil {
			rss = b.Resident
		}
		if rss() > b.MaxMemory {
			return explorer.StopMaxMemory
		}
	}
	return ""
}
