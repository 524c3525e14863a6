package oracle

import (
	"fmt"
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

// LinearizableStream is Linearizable as a StreamChecker, for Options.LinearizabilityStream.
func LinearizableStream(timeout time.Duration) func() StreamChecker {
	return func() StreamChecker { return &linStream{c: lin.NewCollector(), timeout: timeout} }
}

type linStream struct {
	c       *lin.Collector
	timeout time.Duration
	err     error // the first event the collector refused: no verdict
}

func (l *linStream) Add(e history.Event) error {
	if l.err == nil {
		l.err = l.c.Add(e)
	}
	return l.err
}

func (l *linStream) Verdict() (bool, string, error) {
	if l.err != nil {
		return false, "", fmt.Errorf("lin: %v", l.err)
	}
	r, err := l.c.Check(l.timeout)
	return r.OK, r.Detail, err
}
