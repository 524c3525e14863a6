package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/explorer/twophase"
)

func bench(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "twophase" {
		fmt.Fprintln(stderr, "groupcheck bench: the benchmark model is twophase: groupcheck bench twophase --rm N")
		return 2
	}
	fs := newFlags("bench twophase", stderr)
	var b bounds
	b.register(fs.FlagSet)
	rm := fs.Int("rm", 0, "number of resource managers (1..14)")
	symmetry := fs.Bool("symmetry", false, "reduce by the symmetry of the resource managers (exact orbits)")
	if code, ok := fs.parse(args[1:]); !ok {
		return code
	}
	if *rm < 1 || *rm > 14 {
		fmt.Fprintf(stderr, "groupcheck bench twophase: --rm %d outside 1..14\n", *rm)
		return 2
	}
	if err := b.validate(fs.FlagSet); err != nil {
		fmt.Fprintf(stderr, "groupcheck bench twophase: %v\n", err)
		return 2
	}
	stop, err := b.profile()
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck bench: %v\n", err)
		return 2
	}
	var r explorer.Report[twophase.State, twophase.Action]
	prog := newProgress(stderr)
	if *symmetry {
		m, props := twophase.NewSymmetric(*rm)
		r = explorer.Check[twophase.State, twophase.Action](m, props, b.options(prog))
	} else {
		m, props := twophase.New(*rm)
		r = explorer.Check[twophase.State, twophase.Action](m, props, b.options(prog))
	}
	stop()
	prog.Done()
	res := map[string]any{
		"model": fmt.Sprintf("twophase rm=%d", *rm), "symmetry": *symmetry, "exhaustive": r.Exhaustive, "stopped_by": r.StoppedBy,
		"distinct": r.Distinct, "generated": r.Generated, "depth": r.Depth, "seconds": r.Duration.Seconds(),
		"workers": r.Workers, "states_per_second": float64(r.Distinct) / r.Duration.Seconds(),
		"peak_memory_bytes": r.PeakMemory, "bytes_per_state": float64(r.PeakMemory) / float64(max(r.Distinct, 1)),
	}
	if b.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(res)
	} else {
		fmt.Fprintf(stdout, "twophase rm=%d: %d distinct, %d generated, depth %d, %.2fs, %.0f states/s, %d workers, peak RSS %d MiB (%.1f B/state), exhaustive=%v %s\n",
			*rm, r.Distinct, r.Generated, r.Depth, r.Duration.Seconds(), res["states_per_second"], r.Workers,
			r.PeakMemory>>20, res["bytes_per_state"], r.Exhaustive, r.StoppedBy)
	}
	for _, p := range r.Properties {
		if p.Status == explorer.Violated || p.Status == explorer.Unreached {
			return 1
		}
	}
	return 0
}
