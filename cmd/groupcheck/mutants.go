package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/groupcheck/groupcheck/invariants"
)

// mutants lists the registry: each named fault, its source, and what catches it.
func mutants(stdout io.Writer) int {
	for _, m := range invariants.Mutants {
		caught := strings.Join(m.Catches, ", ")
		if caught == "" {
			caught = "not caught: " + m.Uncaught
		}
		fmt.Fprintf(stdout, "%-36s %-4s %-28s %s\n%36s caught by: %s\n", m.Fault, m.Bug, m.Source, m.Summary, "", caught)
	}
	fmt.Fprintln(stdout, "\nrun one: groupcheck explore --mutant NAME  (its world, or --preset/--config with the fault added)")
	return 0
}
