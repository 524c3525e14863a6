package invariants

import (
	"os"
	"testing"
)

// long reports whether the long explorations run: GROUPCHECK_LONG set and not -short. The
// default `go test ./...` (CI, under ten minutes on two cores) runs their small worlds only;
// `GROUPCHECK_LONG=1 go test ./...` runs them all (several minutes more).
func long() bool { return os.Getenv("GROUPCHECK_LONG") != "" && !testing.Short() }
