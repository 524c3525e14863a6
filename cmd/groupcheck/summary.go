package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// tally is a report's verdicts counted for its summary line.
type tally struct{ holds, expected, violated, unreached, unknown int }

func (r *report) tally() tally {
	var t tally
	for _, p := range r.Properties {
		switch {
		case p.Status == "holds":
			t.holds++
		case p.Status == "violated" && p.Expected != "":
			t.expected++
		case p.Status == "violated":
			t.violated++
		case p.Status == "unreached":
			t.unreached++
		default:
			t.unknown++
		}
	}
	return t
}

// undecided: the run decided no property, so it says nothing about the world (exit 3).
func (r *report) undecided() bool {
	t := r.tally()
	return len(r.Properties) > 0 && t.unknown == len(r.Properties)
}

// summary is the run's answer in one line: the verdicts counted, and whether the search was
// exhaustive or which bound stopped it.
func (r *report) summary() string {
	t := r.tally()
	s := fmt.Sprintf("%s: %d hold, %d expected, %d violated", r.Config, t.holds, t.expected, t.violated)
	if t.unreached > 0 {
		s += fmt.Sprintf(", %d unreached", t.unreached)
	}
	s += fmt.Sprintf(", %d unknown; ", t.unknown)
	switch {
	case r.Exhaustive:
		s += "exhaustive"
	case r.StoppedBy == explorer.StopViolation:
		s += "stopped early: every always-property is violated"
	default:
		s += "BOUNDED by " + r.StoppedBy
	}
	if r.undecided() {
		s += ", no property decided"
	}
	return s + fmt.Sprintf(" (%s states, depth %d, %.1fs)", thousands(r.Distinct), r.Depth, r.Seconds)
}

// byOrigin orders the properties as the report groups them: promises, then conformance by
// implementation, then vacuity guards; the paths follow their properties.
func (r *report) byOrigin() {
	idx := make([]int, len(r.Properties))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return r.Properties[a].origin.Compare(r.Properties[b].origin) })
	props := make([]propertyReport, len(idx))
	paths := make([]*explorer.Path[spec.World, spec.Action], len(idx))
	for i, j := range idx {
		props[i], paths[i] = r.Properties[j], r.paths[j]
	}
	r.Properties, r.paths = props, paths
}

// rowWidth is where a verdict row's statement is cut: the catalogue (groupcheck properties)
// prints it whole.
const rowWidth = 150

// writeText prints the report answer first: the summary line; each violation with its
// shortest counterexample; each expected violation's reason in one line (its trace with
// showExpected); then the verdicts by origin, what unknown and the never-enabled actions
// mean where they appear, and the search's figures.
func (r *report) writeText(w io.Writer, showExpected bool) {
	fmt.Fprintln(w, r.summary())
	if r.EncodingMismatch != "" {
		fmt.Fprintf(w, "\nENCODING CHECK FAILED: %s\n", r.EncodingMismatch)
	}
	for i, p := range r.Properties {
		if p.Status == "violated" && p.Expected == "" {
			r.writeViolation(w, i, "VIOLATED")
		}
		if p.Status == "unreached" {
			fmt.Fprintf(w, "\nUNREACHED %s (%s): no reachable state satisfies it, so what it guards may hold vacuously\n  %s\n  source: %s\n", p.Name, p.Origin, p.Statement, p.Source)
		}
	}
	if r.Rounds != nil && r.Rounds.exceeded() {
		r.Rounds.writeText(w)
	}
	expected := false
	for i, p := range r.Properties {
		if p.Expected == "" {
			continue
		}
		if showExpected {
			r.writeViolation(w, i, "expected (does not fail the run):")
			fmt.Fprintf(w, "  why expected: %s\n", p.Expected)
			continue
		}
		if !expected {
			fmt.Fprintln(w)
			expected = true
		}
		fmt.Fprintf(w, "expected %s: %s\n", p.Name, p.Expected)
	}
	if expected {
		fmt.Fprintln(w, "  (expected violations do not fail the run; --show-expected prints their counterexamples, --out DIR writes them)")
	}
	r.writeVerdicts(w)
	if r.Reduction != "" {
		fmt.Fprintf(w, "\n%s\n", reductionNote)
	}
	if r.EncodingCheck != "" {
		fmt.Fprintf(w, "\nencoding check: %s\n", r.EncodingCheck)
	}
	if r.Rounds != nil && !r.Rounds.exceeded() {
		r.Rounds.writeText(w)
	}
	if len(r.NeverTaken) > 0 {
		where := "no behaviour of this world takes them"
		if !r.Exhaustive {
			where = "no state explored enables them"
		}
		fmt.Fprintf(w, "\nactions never enabled: %s\n  (%s: its members and budget give them no occasion, so nothing they would do is checked here)\n", strings.Join(r.NeverTaken, ", "), where)
	}
	fmt.Fprintf(w, "\nworld %s: %d distinct states, %d generated, depth %d, %.1fs on %d workers; fingerprint collision probability ≤ %.2g\n",
		r.Config, r.Distinct, r.Generated, r.Depth, r.Seconds, r.Workers, r.Collision)
}

// writeVerdicts prints one row per property under its origin's heading, and one line on what
// unknown means if a property is.
func (r *report) writeVerdicts(w io.Writer) {
	unknown := false
	for i, p := range r.Properties {
		if i == 0 || r.Properties[i-1].Origin != p.Origin {
			fmt.Fprintf(w, "\n%s:\n", groupHeading(p.origin))
		}
		status := p.Status
		if p.Expected != "" {
			status = "expected"
		}
		unknown = unknown || status == "unknown"
		row := fmt.Sprintf("  %-10s %-10s %-33s %s", status, p.Kind, p.Name, p.Statement)
		fmt.Fprintln(w, cut(row, rowWidth))
	}
	for _, p := range r.Properties {
		if (p.liveness || p.unchecked) && p.Status == "unknown" {
			fmt.Fprintf(w, "  %s: %s\n", p.Name, p.Why)
		}
	}
	if unknown {
		fmt.Fprintln(w, "  (unknown: the search stopped at its bound first; an always-property held in every state explored, a sometimes-property was not reached in them)")
	}
}

// groupHeading is the heading of an origin's rows: the implementation a conformance group
// follows.
func groupHeading(o invariants.Origin) string {
	if o.Kind == invariants.Conformance {
		return "Conformance to " + o.Impl
	}
	return originHeading(o.Kind)
}

// writeViolation prints property i's counterexample under a heading: its name, origin,
// why, statement and source, then the path, unless an earlier property's is the same path.
func (r *report) writeViolation(w io.Writer, i int, heading string) {
	p := r.Properties[i]
	fmt.Fprintf(w, "\n%s %s (%s): %s\n  %s\n  source: %s\n", heading, p.Name, p.Origin, p.Why, p.Statement, p.Source)
	if r.paths[i] == nil {
		return
	}
	for j, q := range r.Properties[:i] {
		if r.paths[j] != nil && q.Status == "violated" && (q.Expected == "" || p.Expected != "") && slices.Equal(q.Trace, p.Trace) {
			fmt.Fprintf(w, "the same counterexample as %s, %d steps\n", q.Name, len(p.Trace))
			return
		}
	}
	kind := "shortest counterexample"
	if r.Reduction != "" {
		kind = "counterexample (a path of the reduced graph: valid, not always a shortest one)"
	}
	if p.liveness {
		kind = "lasso (shortest prefix to a world of a fair cycle that never converges, or a dead end; the cycle's steps come last)"
	}
	fmt.Fprintf(w, "%s, %d steps:\n", kind, len(p.Trace))
	writePath(w, &r.cfg, r.paths[i])
}

// cut shortens s to width runes at a word boundary, marking the cut with "…".
func cut(s string, width int) string {
	rs := []rune(s)
	if len(rs) <= width {
		return s
	}
	t := string(rs[:width-1])
	if i := strings.LastIndexByte(t, ' '); i > width/2 {
		t = t[:i]
	}
	return t + " …"
}
