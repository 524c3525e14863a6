package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/invariants"
)

// mutants lists the registry: each named fault, its source, and what catches it.
func mutants(stdout io.Writer) int {
	for _, m := range invariants.Mutants {
		by := slices.Clone(m.Catches)
		if m.MaxRounds > 0 {
			by = append(by, fmt.Sprintf("more than %d rebalances after one event (explore --max-rounds %d)", m.MaxRounds, m.MaxRounds))
		}
		verdict := "caught by: " + strings.Join(by, ", ")
		if len(by) == 0 {
			verdict = "not caught: " + m.Uncaught
		}
		if len(m.Base) > 0 {
			verdict += fmt.Sprintf(" (on top of %s, the code base it lived in)", faultNames(m.Base))
		}
		fmt.Fprintf(stdout, "%-36s %-4s %-28s %s\n%36s %s\n", m.Fault, m.Bug, m.Source, m.Summary, "", verdict)
	}
	fmt.Fprintln(stdout, "\nrun one: groupcheck explore --mutant NAME  (its world, or --preset/--config with the fault added)")
	return 0
}

// faultNames joins fault names with their docs/bugs.md entries, e.g. "drop-lower-generation-claims (B10)".
func faultNames(fs []impl.Fault) string {
	var parts []string
	for _, f := range fs {
		s := f.String()
		if m, ok := invariants.LookupMutant(s); ok {
			s += " (" + m.Bug + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
