package oracle

import (
	"fmt"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/groupcheck/groupcheck/oracle/search"
)

// Linearizable is the Options.Linearizability check most callers want: porcupine orders the
// history's coordinator requests, each between its begin and its end, and the reference
// coordinator judges each order (search.Linearize, with the search's default budget);
// timeout bounds porcupine (0: none). A budget or a timeout that runs out is no verdict.
func Linearizable(timeout time.Duration) func(history.History) (bool, string, error) {
	return LinearizableUnder(search.Options{}, timeout)
}

// LinearizableUnder is Linearizable with the search's options (its Budget bounds each step).
func LinearizableUnder(o search.Options, timeout time.Duration) func(history.History) (bool, string, error) {
	return func(h history.History) (bool, string, error) {
		return LinVerdict(search.Linearize(h, o, timeout))
	}
}

// LinearizableStream is Linearizable as a StreamChecker, for Options.LinearizabilityStream.
func LinearizableStream(timeout time.Duration) func() StreamChecker {
	return LinearizableStreamUnder(search.Options{}, timeout)
}

// LinearizableStreamUnder is LinearizableUnder as a StreamChecker.
func LinearizableStreamUnder(o search.Options, timeout time.Duration) func() StreamChecker {
	return func() StreamChecker { return &linStream{o: o, timeout: timeout} }
}

// LinVerdict is a search.Linearization as Options.Linearizability answers: an undecided one
// (its budget or timeout ran out) is an error, no verdict.
func LinVerdict(l search.Linearization, err error) (bool, string, error) {
	switch {
	case err != nil:
		return false, "", fmt.Errorf("linearizability: %v", err)
	case l.Verdict == search.Undecided:
		return false, "", fmt.Errorf("linearizability %s", l.Detail)
	}
	return l.Verdict == search.OK, l.Detail, nil
}

// linStream collects the requests for search.Collector, which CheckReader gives the shape
// its first pass read (shaped) before the first event.
type linStream struct {
	c       *search.Collector
	o       search.Options
	timeout time.Duration
	err     error // the first event the collector refused: no verdict
}

// shaped is a StreamChecker that wants the history's shape (search.Shape) before its first
// event: CheckReader gives it the one its first pass read.
type shaped interface{ SetShape(*search.Shape) }

func (l *linStream) SetShape(s *search.Shape) { l.c = search.NewCollector(l.o, l.timeout, s) }

// again is a StreamChecker that may need the history fed once more after its Verdict
// (search.Collector.Again): CheckReader reads it again for it.
type again interface{ Again() bool }

func (l *linStream) Again() bool { return l.c != nil && l.err == nil && l.c.Again() }

func (l *linStream) Add(e history.Event) error {
	if l.c == nil {
		l.err = fmt.Errorf("seq %d: no shape given (a LinearizableStream is CheckReader's)", e.Seq)
	}
	if l.err == nil {
		l.err = l.c.Add(e)
	}
	return l.err
}

func (l *linStream) Verdict() (bool, string, error) {
	if l.err != nil {
		return false, "", fmt.Errorf("linearizability: %v", l.err)
	}
	if l.c == nil {
		return false, "", fmt.Errorf("linearizability: no shape given (a LinearizableStream is CheckReader's)")
	}
	return LinVerdict(l.c.Check())
}
