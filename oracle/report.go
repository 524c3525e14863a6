package oracle

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/groupcheck/groupcheck/oracle/search"
)

// Options tune Check. The zero value checks everything except linearizability.
type Options struct {
	// Linearizability, when non-nil, is called with the history and returns the verdict on
	// the coordinator's operations (porcupine ordering them, the reference coordinator judging
	// each order: Linearizable, search.Linearize).
	// An error means no verdict (for example a timeout) and does not fail the report.
	Linearizability func(history.History) (ok bool, detail string, err error)

	// LinearizabilityStream, when non-nil, is what CheckReader uses instead of
	// Linearizability: a checker fed the events one at a time, so that the history is not held
	// in memory for the search (only the coordinator's requests are). LinearizableStream is
	// the one most callers want.
	LinearizabilityStream func() StreamChecker

	// Reference bounds the reference search (nil: search.DefaultBudget). Every history with
	// coordinator requests is judged by searching the reference coordinator (package
	// oracle/search) for a behaviour that produces every recorded answer, after the plain
	// checks and in the same pass; its verdict is Report.Reference, and an answer no behaviour
	// gives is a ReferenceSearch violation. It needs every coordinator request of every
	// member recorded: a harness that taps only some sets NoReference.
	Reference *search.Options

	// Settle, when positive, judges RebalanceCompletes with it as the bound: no stretch longer
	// than Settle, measured on the history's own timestamps, in which the group does not
	// change while it is unsettled. Zero (or less) leaves it unjudged.
	Settle time.Duration

	// NoReference skips the reference search: the plain checks only, faster.
	NoReference bool

	// Progress, when non-nil, is told while CheckReader reads: the pass (0: the one reading
	// of a history checked in memory; 1 and 2: the two passes of a streamed check) and the
	// bytes read in it so far, about every MiB.
	Progress func(pass int, bytes int64)

	_ struct{} // keyed literals only, so that options can be added
}

// StreamChecker is a check fed a history one event at a time (in order, validated), then
// asked for its verdict, as Options.Linearizability answers.
type StreamChecker interface {
	Add(e history.Event) error
	Verdict() (ok bool, detail string, err error)
}

// Violation is one broken property, with the events that show it (in Seq order).
type Violation struct {
	Property string          `json:"property"` // one of the property constants
	Class    string          `json:"class"`    // ClassViolation or ClassZombie
	Message  string          `json:"message"`  // one line: who, which partitions, when (seq and t)
	Events   []history.Event `json:"events"`
}

// Report is Check's verdict on one history.
type Report struct {
	Events     int         `json:"events"`     // events in the history
	Members    int         `json:"members"`    // nodes that acted as group members
	Violations []Violation `json:"violations"` // Class "violation" only
	Zombies    []Violation `json:"zombies"`    // Class "zombie": classified, reported, not a failure
	// Linearizable is "yes", "no: <detail>", "not checked", "not checked: <error>", or
	// LinNothing when the history has no coordinator request to search.
	Linearizable string `json:"linearizable"`
	// Reference is the reference search's verdict (Options.Reference): "ok (...)",
	// "violated at event N: ...", "undecided at event N: ..." (its state budget ran out),
	// "not searched at event N: ..."; empty when it did not run.
	Reference string `json:"reference,omitempty"`
	// Checked lists the properties judged: Plain, and Linearizability and ReferenceSearch
	// when they ran.
	Checked []string `json:"checked"`
}

// Verdicts of Report.Linearizable.
const (
	LinYes        = "yes"
	LinNotChecked = "not checked"
	// LinNothing: the history has no coordinator request, so the search has nothing to
	// judge; "yes" would claim a check that did not happen.
	LinNothing = "nothing to search: the history has no coordinator requests"
	linNo      = "no"
)

// OK reports whether the history keeps every property: no violations, and linearizability not
// refuted (zombies and an unchecked linearizability do not fail it).
func (r Report) OK() bool {
	return len(r.Violations) == 0 && r.Linearizable != linNo && !strings.HasPrefix(r.Linearizable, linNo+":")
}

// Undecided reports whether a search the caller asked for ended without a verdict on a
// history that broke no property: the reference search's budget ran out ("undecided at") or it
// could not run ("not searched"), or the linearizability check ran out of budget or time
// ("not checked: ..."). Such a report is no pass, and its summary line says "undecided" (issue
// 25: a search that cannot decide never reads as ok).
func (r Report) Undecided() bool {
	if !r.OK() {
		return false
	}
	return strings.HasPrefix(r.Reference, search.Undecided) || strings.HasPrefix(r.Reference, search.NotSearch) ||
		strings.HasPrefix(r.Linearizable, LinNotChecked+":")
}

// String renders the report for a person: a summary line (ok, FAIL or undecided), then every
// violation and zombie with the events involved, one per line.
func (r Report) String() string {
	var b strings.Builder
	verdict := "ok"
	switch {
	case !r.OK():
		verdict = "FAIL"
	case r.Undecided():
		verdict = "undecided"
	}
	fmt.Fprintf(&b, "history: %d events, %d members: %s\n", r.Events, r.Members, verdict)
	fmt.Fprintf(&b, "violations: %d, zombies: %d, linearizable: %s\n", len(r.Violations), len(r.Zombies), r.Linearizable)
	if r.Reference != "" {
		fmt.Fprintf(&b, "reference: %s\n", r.Reference)
	}
	if len(r.Checked) > 0 {
		fmt.Fprintf(&b, "checked: %s\n", strings.Join(r.Checked, ", "))
	}
	if len(r.Checked) > 0 && !slices.Contains(r.Checked, Linearizability) && !slices.Contains(r.Checked, ReferenceSearch) && r.Linearizable != LinNothing {
		fmt.Fprintf(&b, "not checked, needs a search (--reference or --linearizability): %s\n", NeedsSearch)
	}
	for _, v := range r.Violations {
		writeViolation(&b, v)
	}
	for _, v := range r.Zombies {
		writeViolation(&b, v)
	}
	return b.String()
}

func writeViolation(b *strings.Builder, v Violation) {
	fmt.Fprintf(b, "\n%s %s: %s\n", v.Class, v.Property, v.Message)
	for _, e := range v.Events {
		fmt.Fprintf(b, "  %s\n", formatEvent(e))
	}
}
