package main

import (
	"fmt"
	"io"

	"github.com/groupcheck/groupcheck/spec"
)

func presets(stdout io.Writer) int {
	width := 0
	for _, p := range spec.Presets {
		width = max(width, len(p.Name))
	}
	for _, p := range spec.Presets {
		mark := " "
		if p.Name == spec.DefaultPreset {
			mark = "*"
		}
		fmt.Fprintf(stdout, "%s %-*s %s\n", mark, width, p.Name, p.Summary)
	}
	fmt.Fprintln(stdout, "(* = what `groupcheck explore` runs with no flags)")
	return 0
}
