package invariants

import (
	"os"
	"testing"
)

// The tests run in three tiers (issue 26). The default `go test ./...`, the README's command
// (within two minutes on two cores), explores small worlds and the first states of large
// ones, its heavy tests in parallel (t.Parallel: the liveness graphs are built on one core);
// GROUPCHECK_CI=1 adds the explorations .ci/run adds; GROUPCHECK_LONG=1 adds those and the
// long ones (about ten minutes more), run by hand. -short runs less than the default.

// long reports whether the long explorations run: GROUPCHECK_LONG set and not -short.
func long() bool { return os.Getenv("GROUPCHECK_LONG") != "" && !testing.Short() }

// ci reports whether the explorations CI adds run: GROUPCHECK_CI or GROUPCHECK_LONG set, and
// not -short.
func ci() bool { return (os.Getenv("GROUPCHECK_CI") != "" || long()) && !testing.Short() }
