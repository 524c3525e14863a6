package traces

import (
	"os"
	"testing"
)

// long reports whether the long explorations run: GROUPCHECK_LONG set and not -short, as in
// spec and invariants.
func long() bool { return os.Getenv("GROUPCHECK_LONG") != "" && !testing.Short() }
