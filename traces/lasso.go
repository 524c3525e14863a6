package traces

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// A lasso is a counterexample to the liveness property converges (invariants.Liveness): a
// path, then either a cycle the behaviour repeats forever without converging, or a dead end
// where no protocol action is enabled. A lasso trace says which in its header, beside
// `# property: converges (eventually)`:
//
//	# cycle: N          the actions from step N (1-based, checks counted, as in Label) to the
//	                    last one repeat forever
//	# cycle: dead-end   the last world is a dead end
//
// Replay checks the claim, not only the steps: the world after the last action must be the
// world before step N (equal encodings) and no world of the cycle may be converged; a dead
// end must not be converged and must enable no protocol action. An older reader that knows
// no `cycle` key refuses the file; a trace without one reads as before.

// convergesKind is the kind the header gives converges.
const convergesKind = "eventually"

// deadEndValue is the `# cycle:` value of a dead end.
const deadEndValue = "dead-end"

// lasso checks the header's cycle and property fields against the directives.
func (p *traceParser) lasso() error {
	h := &p.t.Header
	isConverges := h.Property == invariants.ConvergesName
	if p.cycle == nil {
		if isConverges {
			return p.errorf(p.prop.line, "bad header: property %s needs `# cycle: N` or `# cycle: %s`", h.Property, deadEndValue)
		}
		return nil
	}
	line := p.cycle.line
	if !isConverges {
		return p.errorf(line, "bad header: a cycle belongs to a lasso: give `# property: %s (%s)`", invariants.ConvergesName, convergesKind)
	}
	if p.cycle.value == deadEndValue {
		h.DeadEnd = true
		return nil
	}
	n, err := strconv.Atoi(p.cycle.value)
	if err != nil || n < 1 || n > len(p.t.Steps) {
		return p.errorf(line, "bad header: cycle %q: want a step number 1..%d or %s", p.cycle.value, len(p.t.Steps), deadEndValue)
	}
	if p.t.Steps[n-1].Check {
		return p.errorf(line, "bad header: cycle %d: step %d (line %d) is a check; the cycle starts at an action", n, n, p.t.Steps[n-1].Line)
	}
	h.Cycle = n
	return nil
}

// cycleLine is the header's `# cycle:` value, "" for a trace that is not a lasso.
func (h Header) cycleLine() string {
	switch {
	case h.DeadEnd:
		return deadEndValue
	case h.Cycle > 0:
		return strconv.Itoa(h.Cycle)
	}
	return ""
}

// NewLasso builds the trace of a lasso: the prefix's actions, then the cycle's, and a check;
// its header names converges and where the cycle starts (or that the path ends in a dead
// end). Its expected blocks are empty: Rewrite fills them.
func NewLasso(name string, h Header, cfg spec.Config, l *invariants.Lasso) *Trace {
	acts := pathActions(l.Prefix.Steps)
	h.Property, h.Cycle, h.DeadEnd = invariants.ConvergesName, 0, len(l.Cycle) == 0
	if len(l.Cycle) > 0 {
		h.Cycle = len(acts) + 1
	}
	return New(name, h, cfg, append(acts, pathActions(l.Cycle)...))
}

// WriteLasso writes the trace of a lasso (NewLasso) with the output the model produces. It
// fails if the lasso does not replay: an action not enabled, a cycle that does not close, a
// dead end that is not one.
func WriteLasso(w io.Writer, h Header, cfg spec.Config, l *invariants.Lasso) error {
	t, err := Rewrite(NewLasso(cfg.Name, h, cfg, l))
	if err != nil {
		return err
	}
	res, err := Replay(t)
	if err != nil {
		return err
	}
	if d := res.Divergence; d != nil {
		return fmt.Errorf("traces: the lasso does not replay: %s: %s", d.Label, d.Reason)
	}
	return Format(w, t)
}

func pathActions(steps []explorer.Step[spec.World, spec.Action]) []spec.Action {
	out := make([]spec.Action, len(steps))
	for i, s := range steps {
		out[i] = s.Action
	}
	return out
}

// checkLasso checks a replayed lasso's claim (see above) and returns the first way it fails.
func checkLasso(t *Trace, res *Result) *Divergence {
	last := len(res.Steps) - 1
	if last < 0 {
		return &Divergence{Step: 1, Label: t.Name, Reason: "a lasso without steps"}
	}
	end := res.Steps[last].Post
	goal := invariants.Goal(t.Config)
	if t.Header.DeadEnd {
		if goal(end) {
			return &Divergence{Step: last + 1, Label: t.Label(last), Reason: "not a dead end: the last world is converged"}
		}
		if a, ok := protocolActionEnabled(end); ok {
			return &Divergence{Step: last + 1, Label: t.Label(last), Reason: fmt.Sprintf("not a dead end: `%s` is enabled in the last world", a.Text(&t.Config))}
		}
		return nil
	}
	n := t.Header.Cycle
	start := res.Steps[n-1].Pre
	if !bytes.Equal(start.Encode(nil), end.Encode(nil)) {
		return &Divergence{Step: last + 1, Label: t.Label(last),
			Reason: fmt.Sprintf("the cycle does not close: the last world is not the world before step %d", n),
			Diff:   cmp.Diff(splitLines(start.String()), splitLines(end.String()))}
	}
	for i := n - 1; i <= last; i++ {
		if goal(res.Steps[i].Pre) {
			return &Divergence{Step: i + 1, Label: t.Label(i), Reason: "the cycle passes through a converged world"}
		}
	}
	return nil
}

// protocolActionEnabled finds an action enabled in w that weak fairness forces, as
// invariants.Liveness judges it (invariants.Fair): a protocol action or a free timer. The
// environment's choices — budgeted events and the application's commits — are left out.
func protocolActionEnabled(w spec.World) (spec.Action, bool) {
	for _, a := range spec.Actions(w, nil) {
		n, _, ok := spec.Step(w, a)
		if ok && invariants.Fair(a, w, n) {
			return a, true
		}
	}
	return spec.Action{}, false
}
