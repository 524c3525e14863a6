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

	// MaxMemory, if > 0, stops the run once the resident set size of
	// the process exceeds this many bytes (sampled every 50ms and at
	// every level boundary). As for MaxTime, the level in progress is
	// discarded.
	MaxMemory uint64

	// StopOnViolation stops at the end of the level where the first
	// Always property is violated. Without it the run stops once every
	// Always property is violated (and goes on otherwise).
	StopOnViolation bool

	// Progress, if non-nil, receives a line about once a second. The
	// caller decides whether it is a terminal.
	Progress io.Writer

	// TraceDir is the directory of the temporary trace file (parent
	// links, 8 bytes per state); "" means os.TempDir(). If the file
	// cannot be created the links are kept in memory.
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
