package conform

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/traces"
)

// Report is the outcome of driving an implementation through one trace.
type Report struct {
	Trace string
	// Inputs is the number of member inputs compared (up to and including a mismatch).
	Inputs int
	// Faults are the mutants the trace's config switches on. A trace with a member fault
	// (docs/bugs.md) describes a buggy member: a correct implementation diverges there.
	Faults impl.Faults
	// Skipped says why the trace was not run ("" when it was): the adapter does not
	// support the trace's protocol.
	Skipped string
	// Mismatch is the first step where the implementation did something else than the
	// reference member; nil when it conformed.
	Mismatch *Mismatch
}

// Mismatch is a step where the member under test diverged from the reference member.
type Mismatch struct {
	Step   int    // 1-based directive index in the trace; 0 for the start of the trace
	Label  string // "step 7 (traces/scenarios/x.trace:40) `deliver-response b`"
	Member string // the member slot's name
	Input  string // the input both were given
	Diff   string // go-cmp diff of the outputs, -reference +implementation
}

func (m *Mismatch) Error() string {
	return fmt.Sprintf("%s: member %s given %s did otherwise than the reference (-reference +implementation):\n%s",
		m.Label, m.Member, m.Input, m.Diff)
}

// SkippedMixed opens Report.Skipped for a trace of a mixed world (spec/mixed.go), whose
// members switch protocol in a bounce: not run yet.
const SkippedMixed = "the adapter drivers run one protocol"

// RunFile parses a trace file and runs it (see Run).

func RunFile(a Adapter, path string, opts Options) (Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return Report{}, err
	}
	defer f.Close()
	t, err := traces.Parse(path, f)
	if err != nil {
		return Report{}, err
	}
	return Run(a, t, opts)
}

// RunGlob runs every trace file matching the patterns, in order (for example
// "traces/scenarios/*.trace" and "traces/golden/*.trace" of the groupcheck module).
func RunGlob(a Adapter, opts Options, patterns ...string) ([]Report, error) {
	var paths []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			return nil, err
		}
		paths = append(paths, m...)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("conform: no trace file matches %v", patterns)
	}
	var out []Report
	for _, p := range paths {
		r, err := RunFile(a, p, opts)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Run drives the implementation through a trace: it replays the trace on the reference,
// starts a member for every incarnation of a member slot, gives it every input the
// reference member receives in the trace — in the trace's order, including the coordinator's
// responses as the reference coordinator gave them — and compares what it does with what
// the reference member does. It stops at the first difference (Report.Mismatch). An error
// is a trace that does not replay on the reference, or an adapter that failed.
func Run(a Adapter, t *traces.Trace, opts Options) (Report, error) {
	rep := Report{Trace: t.Name, Faults: t.Config.Faults}
	res, err := traces.Replay(t)
	if err != nil {
		return rep, err
	}
	if res.Divergence != nil {
		return rep, fmt.Errorf("conform: %s does not replay on the reference: %v", t.Name, res.Divergence)
	}
	if t.Config.Mixed() {
		// A slot runs either protocol and a bounce switches it; the drivers speak one.
		rep.Skipped = fmt.Sprintf("%s; %s is a mixed world", SkippedMixed, t.Config.Name)
		return rep, nil
	}
	var d driver = &classicDriver{a: a, opts: opts, members: make([]Member, len(t.Config.Members))}
	if t.Config.ConsumerProtocol {
		d = &kip848Driver{a: a, opts: opts, members: make([]Member848, len(t.Config.Members))}
	}
	name := func(i int) string { return t.Config.Members[i].Name }
	for i, s := range res.Init.Slots {
		if s.Process != spec.Running {
			continue
		}
		want, got, err := d.start(i, name(i), *s)
		if errors.Is(err, ErrUnsupported) {
			rep.Skipped = fmt.Sprintf("the adapter does not support the protocol of %s", t.Config.Name)
			return rep, nil
		}
		if err != nil {
			return rep, fmt.Errorf("conform: %s: starting member %s: %v", t.Name, name(i), err)
		}
		if rep.compare(0, t.Name+": the start of the trace", name(i), "start", want, got) {
			return rep, nil
		}
	}
	for k, sr := range res.Steps {
		if sr.Step.Check || !sr.Enabled {
			continue
		}
		i := int(sr.Step.Action.Slot)
		var want, got []string
		in := "start"
		switch sr.Step.Action.Kind {
		case spec.Start, spec.Restart:
			want, got, err = d.start(i, name(i), *sr.Post.Slots[i])
		case spec.Crash:
			d.drop(i)
			continue
		default:
			var ok bool
			if in, want, got, ok, err = d.step(sr, i); !ok {
				continue
			}
		}
		if err != nil {
			return rep, fmt.Errorf("conform: %s: member %s: %v", t.Label(k), name(i), err)
		}
		if trace, ref := traceLines(sr, i), d.reference(); !slices.Equal(trace, ref) {
			return rep, fmt.Errorf("conform: %s: the reference member given the derived input does not do what the trace shows (-trace +reference):\n%s",
				t.Label(k), cmp.Diff(trace, ref))
		}
		if rep.compare(k+1, t.Label(k), name(i), in, want, got) {
			return rep, nil
		}
		if sr.Post.Slots[i].Process != spec.Running {
			d.drop(i) // a graceful leave ends the incarnation
		}
	}
	return rep, nil
}

// compare counts one input and records a mismatch; it reports whether there was one.
func (rep *Report) compare(step int, label, member, in string, want, got []string) bool {
	rep.Inputs++
	if d := cmp.Diff(want, got); d != "" {
		rep.Mismatch = &Mismatch{Step: step, Label: label, Member: member, Input: in, Diff: d}
		return true
	}
	return false
}

// traceLines are the sends and callbacks of slot i the trace records for a step, in the
// trace's own rendering (spec.Event.String).
func traceLines(sr traces.StepResult, i int) []string {
	out := []string{}
	for _, e := range sr.Events {
		switch e := e.(type) {
		case spec.SendEvent:
			if e.Slot == i {
				out = append(out, e.String())
			}
		case spec.CallbackEvent:
			if e.Slot == i {
				out = append(out, e.String())
			}
		}
	}
	return out
}

// driver is one protocol's half of Run: it starts members, derives each step's input as
// spec.Step delivers it, and runs the reference member beside the implementation.
type driver interface {
	// start begins slot i's member from the slot's reference member; want and got are the
	// compared outputs of the start.
	start(i int, name string, s spec.Slot) (want, got []string, err error)
	// step delivers the step's input to slot i's member; ok is false for a step that gives
	// the member no input (deliveries to the coordinator, timers, metadata changes).
	step(sr traces.StepResult, i int) (in string, want, got []string, ok bool, err error)
	// reference is what the reference member did in the last start or step, in the trace's
	// rendering: the harness checks itself against the trace with it.
	reference() []string
	drop(i int)
}

// runMember is the shared part of a driver's step: the member must be running, and an
// adapter error is reported as such.
func runMember[M any, E any](members []M, i int, step func(M) ([]E, error)) ([]E, error) {
	var zero M
	if any(members[i]) == any(zero) {
		return nil, fmt.Errorf("an input for a member that is not running")
	}
	got, err := step(members[i])
	if err != nil {
		return nil, fmt.Errorf("the adapter failed: %v", err)
	}
	return got, nil
}
