package traces

import (
	"fmt"
	"io"

	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// NewConvergeTime is the trace of a worst time to converge (invariants.ConvergeTime): the
// path to the converged world, the event, then the slowest path until converged again, each
// step after the event commented with what it waited for.
func NewConvergeTime(name string, h Header, cfg spec.Config, ct invariants.ConvergeTime) *Trace {
	t := New(name, h, cfg, pathActions(ct.Path.Steps))
	t.Steps[ct.Start].Comments = append(t.Steps[ct.Start].Comments,
		fmt.Sprintf("the event: time to converge counts from here (%d ms in all)", ct.Millis))
	for i, w := range ct.Waits {
		if w.Millis > 0 {
			s := &t.Steps[ct.Start+1+i]
			s.Comments = append(s.Comments, fmt.Sprintf("waited %d ms (%s)", w.Millis, w.Timer))
		}
	}
	return t
}

// WriteConvergeTime writes NewConvergeTime's trace with the output the model produces; it
// fails if the path does not replay.
func WriteConvergeTime(w io.Writer, h Header, cfg spec.Config, ct invariants.ConvergeTime) error {
	if ct.Path == nil {
		return fmt.Errorf("traces: a time to converge of %d ms has no path", ct.Millis)
	}
	t, err := Rewrite(NewConvergeTime(cfg.Name, h, cfg, ct))
	if err != nil {
		return err
	}
	return Format(w, t)
}
