package traces

import (
	"fmt"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/spec"
)

// Result is what a replay saw: one StepResult per directive, and the first divergence.
type Result struct {
	Init  spec.World
	Steps []StepResult
	// Divergence is the first step whose output differs from its expected block; nil when
	// the trace replays.
	Divergence *Divergence
	// Note is set when the trace was written by another model version. It is not a failure:
	// the expected blocks decide.
	Note string
}

// StepResult is one replayed directive.
type StepResult struct {
	Step    Step
	Enabled bool // the action was enabled (a check is always enabled)
	Pre     spec.World
	Post    spec.World // Pre when not enabled
	Events  []spec.Event
	// Violations are, for a check, the always-properties that fail there.
	Violations []Violation
	Got        []string // the output the model produces now
}

// Divergence is the first step where the model no longer does what the trace says.
type Divergence struct {
	Step   int    // 1-based directive index
	Label  string // "step 3 (file:17) `poll a`"
	Reason string // "not enabled" or "output differs"
	Diff   string // go-cmp diff of the expected and produced lines (-want +got)
}

func (d *Divergence) Error() string {
	return fmt.Sprintf("%s: %s\n%s", d.Label, d.Reason, d.Diff)
}

// Replay re-executes every step of t from spec.Init(t.Config) and compares each step's output
// with its expected block. An action that is not enabled leaves the world unchanged and
// outputs "not enabled", so a trace may assert that something cannot happen; where the trace
// expected anything else, that is the divergence "not enabled". Replay goes on after a
// divergence, so that Rewrite and show see the whole trace; Result.Divergence is the first.
func Replay(t *Trace) (*Result, error) {
	if t == nil {
		return nil, fmt.Errorf("traces: nil trace")
	}
	for i, s := range t.Steps {
		if !s.Check && int(s.Action.Slot) >= len(t.Config.Members) {
			return nil, fmt.Errorf("%s: member slot %d outside the config", t.Label(i), s.Action.Slot)
		}
	}
	r := newRunner(t.Config)
	res := &Result{Init: r.w}
	if m := t.Header.Model; m != "" && m != ModelVersion {
		res.Note = fmt.Sprintf("trace written by %q, replayed by %q", m, ModelVersion)
	}
	for i, s := range t.Steps {
		sr := StepResult{Step: s, Enabled: true, Pre: r.w}
		if s.Check {
			sr.Violations = r.violations()
			sr.Got = checkLines(sr.Violations)
		} else if ev, ok := r.step(s.Action); ok {
			sr.Events = ev
			sr.Got = stepLines(ev, &sr.Pre, &r.w)
		} else {
			sr.Enabled = false
			sr.Got = []string{notEnabled}
		}
		sr.Post = r.w
		res.Steps = append(res.Steps, sr)
		if res.Divergence == nil && !slices.Equal(s.Expected, sr.Got) {
			d := &Divergence{Step: i + 1, Label: t.Label(i), Reason: "output differs", Diff: cmp.Diff(s.Expected, sr.Got)}
			if !sr.Enabled {
				d.Reason = notEnabled
			}
			res.Divergence = d
		}
	}
	if res.Divergence == nil && t.Header.cycleLine() != "" {
		res.Divergence = checkLasso(t, res)
	}
	return res, nil
}

// Rewrite returns a copy of t whose expected blocks are what the model outputs now (the
// datadriven -rewrite). Comments, header and directives are kept.
func Rewrite(t *Trace) (*Trace, error) {
	res, err := Replay(t)
	if err != nil {
		return nil, err
	}
	out := t.clone()
	out.Header.Model = ModelVersion
	for i := range out.Steps {
		out.Steps[i].Expected = res.Steps[i].Got
	}
	return out, nil
}
