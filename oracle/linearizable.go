package oracle

import (
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/groupcheck/groupcheck/oracle/lin"
)

// Linearizable is the Options.Linearizability check most callers want: lin.Check, porcupine
// bounded by timeout (0: none), on the history's coordinator requests.
func Linearizable(timeout time.Duration) func(history.History) (bool, string, error) {
	return func(h history.History) (bool, string, error) {
		r, err := lin.Check(h, timeout)
		return r.OK, r.Detail, err
	}
}
