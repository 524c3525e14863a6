package lin

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// Result is the outcome of a linearizability check.
type Result struct {
	// OK: some linearization explains every response (also when porcupine timed out without
	// finding a violation; Detail then says so).
	OK bool
	// Detail says what was checked, and on failure which operations no linearization can
	// explain and why, naming their seq numbers.
	Detail string
	// Operations is the number of coordinator requests checked; Partitions the number of
	// independent sub-histories porcupine checked (one group: 1, or 0 without requests).
	Operations int
	Partitions int
}

// Check replays the Request intervals of h (call = begin time, return = end time) against the
// reference coordinator model for the history's protocol and reports whether some
// linearization explains every response. timeout bounds porcupine (0 = none).
func Check(h history.History, timeout time.Duration) (Result, error) {
	r, _, err := check(h, timeout)
	return r, err
}

// CheckAndVisualize is Check, and writes porcupine's HTML visualization of the checked
// operations to w: the linearization found or, on failure, the longest partial ones and the
// operations that could not be placed. Write it on failure (e.g. to t.TempDir()).
func CheckAndVisualize(h history.History, timeout time.Duration, w io.Writer) (Result, error) {
	r, v, err := check(h, timeout)
	if err != nil {
		return r, err
	}
	if err := porcupine.Visualize(v.model, v.info, w); err != nil {
		return r, fmt.Errorf("lin: writing the visualization: %v", err)
	}
	return r, nil
}

// visual is what Visualize needs from a check.
type visual struct {
	model porcupine.Model
	info  porcupine.LinearizationInfo
}

func check(h history.History, timeout time.Duration) (Result, visual, error) {
	p, err := parse(h)
	if err != nil {
		return Result{}, visual{}, fmt.Errorf("lin: %v", err)
	}
	init := initial(p)
	model := porcupineModel(init)
	ops := make([]porcupine.Operation, len(p.ops))
	for i, o := range p.ops {
		ops[i] = porcupine.Operation{ClientId: o.client, Input: o, Call: o.call, Output: o, Return: o.ret}
	}
	res, info := porcupine.CheckOperationsVerbose(model, ops, timeout)
	r := Result{Operations: len(p.ops)}
	if len(p.ops) > 0 {
		r.Partitions = 1
	}
	scope := fmt.Sprintf("%d %s coordinator requests checked (%d in the history; the rest had no answer and no effect the model does not already allow)",
		len(p.ops), p.proto, p.total)
	switch res {
	case porcupine.Ok:
		r.OK, r.Detail = true, "linearizable: "+scope
	case porcupine.Unknown:
		r.OK, r.Detail = true, fmt.Sprintf("unknown: porcupine timed out after %v without finding a violation; %s", timeout, scope)
	default:
		r.Detail = "not linearizable against the reference " + p.proto.String() + " coordinator: " + explain(p, init, info) + "\n(" + scope + ")"
	}
	return r, visual{model, info}, nil
}

func initial(p *parsed) knowledge {
	if p.proto == consumerProtocol {
		return newConsumer()
	}
	return newClassic(p.static)
}

// explain replays the longest partial linearization porcupine found and reports why each
// operation that could come next cannot: the responses no order of the history explains.
func explain(p *parsed, init knowledge, info porcupine.LinearizationInfo) string {
	var longest []int
	for _, part := range info.PartialLinearizations() {
		for _, l := range part {
			if len(l) > len(longest) {
				longest = l
			}
		}
	}
	s := newStateSet([]knowledge{init})
	done := make([]bool, len(p.ops))
	for _, id := range longest {
		s, _ = s.step(p.ops[id], false)
		done[id] = true
	}
	// The operations that may come next: those called before every pending one returned.
	deadline := int64(1<<63 - 1)
	for _, o := range p.ops {
		if !done[o.id] {
			deadline = min(deadline, o.ret)
		}
	}
	var reasons []string
	for _, o := range p.ops {
		if done[o.id] || o.call > deadline {
			continue
		}
		if next, why := s.step(o, true); len(next.states) == 0 {
			reasons = append(reasons, why...)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "after %d of %d operations in the longest consistent order", len(longest), len(p.ops))
	if len(longest) > 0 {
		fmt.Fprintf(&b, " (last: %s)", p.ops[longest[len(longest)-1]].desc)
	}
	if len(reasons) == 0 {
		b.WriteString(", every next operation fits alone but no order of them fits together")
		return b.String()
	}
	b.WriteString(", no next operation fits:")
	for _, r := range slices.Compact(reasons) {
		b.WriteString("\n  - " + r)
	}
	return b.String()
}
