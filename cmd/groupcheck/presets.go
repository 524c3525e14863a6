package main

import (
	"fmt"
	"io"

	"github.com/groupcheck/groupcheck/spec"
)

func presets(stdout io.Writer) int {
	for _, p := range spec.Presets {
		mark := " "
		if p.Name == spec.DefaultPreset {
			mark = "*"
		}
		fmt.Fprintf(stdout, "%s %-20s %s\n", mark, p.Name, p.Summary)
	}
	fmt.Fprintln(stdout, "(* = what `groupcheck explore` runs with no flags)")
	return 0
}
