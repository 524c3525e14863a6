package explorer

import (
	"io"
	"time"
)

// Options bound and tune a run of [Check]. The zero value means: all
// cores, no bounds, no progress output.
type Options struct {
	// Workers is the number of goroutines; 0 means runtime.GOMAXPROCS(0).
	// The result does not depend on it (except under MaxTime and
	// MaxMemory, which depend on the clock and the machine).
	Workers int

	// MaxDepth, if > 0, stops after the states at this depth (number of
	// steps from an initial state) have been found and checked; they
	// are not expanded. The run is reported as bounded whenever states
	// at MaxDepth exist, even if none of them has a new successor.
	MaxDepth int

	// MaxStates, if > 0, caps Distinct. The level that crosses the cap
	// is cut deterministically: its first states in BFS order are kept,
	// so Distinct == MaxStates exactly and the result is reproducible.
	MaxStates int64

	// MaxTime, if > 0, stops the run once this much time has passed.
	// The level in progress is discarded; the report describes the
	// levels completed.
	MaxTime time.Duration

	// MaxMemory, if > 0, bounds the resident set size of the process,
	// in bytes. Before each level the run forecasts the peak of
	// expanding it and committing the next one (the claims table, the
	// next frontier, commit's buffers and the growth step of the visited
	// table, which grows in one piece); when that would pass the limit it
	// spills the frontier (see SpillFrontier) if that is enough, else it
	// stops there, so the report describes complete levels only. A
	// forecast can be wrong (a level far wider than the last ones): the
	// resident set is also sampled during a level, every 10ms and by
	// each worker every 4096 successors, and past the limit minus half a
	// guard (the guard is 1/32 of the limit, at least 1 MiB) the level in
	// progress is discarded and the run stops. The resident set passes
	// the limit only if the run allocates more than half a guard between
	// two samples.
	//
	// For its duration Check also lowers the Go runtime's soft memory
	// limit (debug.SetMemoryLimit) to what the limit leaves for the Go
	// heap, so that garbage is collected before it counts against the
	// bound; the previous limit is restored on return.
	MaxMemory uint64

	// SpillFrontier, if > 0, spills the next level to disk whenever its
	// states are forecast to take more than this many bytes of memory
	// (1 spills every level). Under MaxMemory a level is spilled anyway
	// when it would not fit otherwise. Spilling never changes the
	// result, only the memory and the time it takes. How depends on the
	// state type: pointer-free states are written to a temporary file,
	// block by block, and read back one block at a time by each pass
	// over the level; states holding pointers cannot be written out
	// without a codec, so their level keeps only fingerprints and parent
	// keys, and its states are rebuilt from the parent level by
	// re-execution when it is committed (see the package documentation).
	SpillFrontier int64

	// StopOnViolation stops at the end of the level where the first
	// Always property is violated. Without it the run stops once every
	// Always property is violated (and goes on otherwise).
	StopOnViolation bool

	// Progress, if non-nil, receives a line about once a second. The
	// caller decides whether it is a terminal.
	Progress io.Writer

	// TraceDir is the directory of the temporary files: the trace
	// (parent links, 8 bytes per state) and a spilled frontier; ""
	// means os.TempDir(). If the trace cannot be created the links are
	// kept in memory; if the spill file cannot be created the frontier
	// stays in memory and Report.Err says so.
	TraceDir string

	_ struct{}
}

// Values of Report.StoppedBy.
const (
	StopMaxDepth  = "max-depth"
	StopMaxStates = "max-states"
	StopMaxTime   = "max-time"
	StopMaxMemory = "max-memory"
	StopViolation = "violation"
)
