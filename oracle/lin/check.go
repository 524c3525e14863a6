package lin

import (
	"fmt"
	"io"
	"math"
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
//
// It searches segment by segment (see segments): porcupine's memory grows with the square of
// the operations it is given, and a long history is many short rounds. Only when a segment
// finds no linearization from the state the earlier segments reached is the whole history
// searched at once, so the verdict is the whole search's.
func Check(h history.History, timeout time.Duration) (Result, error) {
	p, err := parse(h)
	if err != nil {
		return Result{}, fmt.Errorf("lin: %v", err)
	}
	if r, ok := checkSegments(p, timeout); ok {
		return r, nil
	}
	r, _, err := checkParsed(p, timeout)
	return r, err
}

// segments cuts the operations where the history is quiescent: every operation before the
// cut returned before any after it was called. Every linearization orders the segments as
// the history does, so a linearization of each, each from the state the one before ended in,
// is a linearization of the whole.
func segments(ops []*operation) [][]*operation {
	var out [][]*operation
	start := 0
	maxRet := int64(math.MinInt64)
	for i, o := range ops {
		if i > start && o.call > maxRet {
			out = append(out, ops[start:i])
			start = i
		}
		maxRet = max(maxRet, o.ret)
	}
	if start < len(ops) {
		out = append(out, ops[start:])
	}
	return out
}

// checkSegments linearizes the history segment by segment, carrying the state porcupine's
// linearization of each ended in. ok is false when it could not decide (a segment found no
// linearization from that state, where another order of an earlier segment might have led
// elsewhere): the caller then searches the whole history.
func checkSegments(p *parsed, timeout time.Duration) (Result, bool) {
	deadline := time.Now().Add(timeout)
	state := newStateSet([]knowledge{initial(p)})
	segs := segments(p.ops)
	for _, seg := range segs {
		ops := make([]porcupine.Operation, len(seg))
		for i, o := range seg {
			ops[i] = porcupine.Operation{ClientId: o.client, Input: o, Call: o.call, Output: o, Return: o.ret}
		}
		left := time.Duration(0)
		if timeout > 0 {
			if left = time.Until(deadline); left <= 0 {
				return Result{}, false
			}
		}
		from := state
		model := porcupineModel(nil)
		model.Init = func() any { return from }
		res, info := porcupine.CheckOperationsVerbose(model, ops, left)
		if res != porcupine.Ok {
			return Result{}, false
		}
		lin := info.PartialLinearizations()
		if len(lin) != 1 || len(lin[0]) == 0 || len(lin[0][0]) != len(seg) {
			return Result{}, false
		}
		for _, id := range lin[0][0] {
			state, _ = state.step(seg[id], false)
		}
		for _, o := range seg {
			o.memo = "" // the knowledge keeps the labels it needs; the rest are made again if asked for
		}
		if len(state.states) == 0 {
			return Result{}, false
		}
	}
	r := Result{OK: true, Operations: len(p.ops)}
	if len(p.ops) > 0 {
		r.Partitions = 1
	}
	r.Detail = fmt.Sprintf("linearizable: %d %s coordinator requests checked in %d quiescent segments (%d in the history; the rest had no answer and no effect the model does not already allow)",
		len(p.ops), p.proto, len(segs), p.total)
	return r, true
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
	return checkParsed(p, timeout)
}

// checkParsed searches the whole history at once.
func checkParsed(p *parsed, timeout time.Duration) (Result, visual, error) {
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
		fmt.Fprintf(&b, " (last: %s)", p.ops[longest[len(longest)-1]].label())
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
