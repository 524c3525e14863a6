package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// History is a whole record, in Seq order.
type History []Event

// maxLine bounds one event's line; a longer line is an error, not a silent truncation.
const maxLine = 1 << 20

// Read parses JSON lines (blank lines are skipped) and validates the history: an error names
// the line and what is wrong with it, never a partial history.
func Read(r io.Reader) (History, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var h History
	v := newValidator()
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var e Event
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("history line %d: %v", line, err)
		}
		// Decoder.More is false before a stray '}' or ']', so look at what is left instead.
		if rest := bytes.TrimSpace(b[dec.InputOffset():]); len(rest) > 0 {
			return nil, fmt.Errorf("history line %d: more than one JSON value on the line (%.20q follows the event)", line, rest)
		}
		if err := v.check(e); err != nil {
			return nil, fmt.Errorf("history line %d: %v", line, err)
		}
		h = append(h, e)
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, fmt.Errorf("history line %d: longer than %d bytes", line+1, maxLine)
		}
		return nil, fmt.Errorf("history: %v", err)
	}
	return h, nil
}

// Validate checks an in-memory history as Read checks a file; errors name the event's index.
func (h History) Validate() error {
	v := newValidator()
	for i, e := range h {
		if err := v.check(e); err != nil {
			return fmt.Errorf("history event %d (seq %d): %v", i, e.Seq, err)
		}
	}
	return nil
}

// Write writes h as JSON lines.
func (h History) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for _, e := range h {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return bw.Flush()
}

var kinds = map[Kind]bool{Start: false, Close: true, Crash: false, Cut: false, Heal: false,
	Generation: false, Assign: true, Revoke: true, Lost: true, Commit: true, Request: true,
	Fenced: false, Mark: false} // kind → is an interval

var ops = map[string]bool{JoinGroup: true, SyncGroup: true, Heartbeat: true, LeaveGroup: true,
	OffsetCommit: true, ConsumerGroupHeartbeat: true}

// validator carries what the per-event checks need from earlier events.
type validator struct {
	seq, t int64
	open   map[int64]Event // intervals begun and not yet ended, by ID
	ended  map[int64]bool
}

func newValidator() *validator {
	return &validator{open: map[int64]Event{}, ended: map[int64]bool{}}
}

func (v *validator) check(e Event) error {
	interval, ok := kinds[e.Kind]
	switch {
	case !ok:
		return fmt.Errorf("unknown kind %q", e.Kind)
	case e.Seq <= v.seq:
		return fmt.Errorf("seq %d does not increase (previous %d)", e.Seq, v.seq)
	case e.T < v.t:
		return fmt.Errorf("t_ns %d goes back in time (previous %d)", e.T, v.t)
	case e.Node == "":
		return fmt.Errorf("%s event without a node", e.Kind)
	case e.Proto != "" && e.Proto != Classic && e.Proto != Consumer:
		return fmt.Errorf("unknown proto %q (want %q or %q)", e.Proto, Classic, Consumer)
	case e.Kind == Request && !ops[e.Op]:
		return fmt.Errorf("request with unknown op %q", e.Op)
	case e.Kind != Request && e.Op != "":
		return fmt.Errorf("op %q on a %s event", e.Op, e.Kind)
	}
	if err := checkParts(e.Parts); err != nil {
		return err
	}
	if err := checkParts(e.Owned); err != nil {
		return fmt.Errorf("owned: %v", err)
	}
	for m, p := range e.Assignments {
		if err := checkParts(p); err != nil {
			return fmt.Errorf("assignments[%s]: %v", m, err)
		}
	}
	v.seq, v.t = e.Seq, e.T
	if !interval {
		if e.Phase != "" {
			return fmt.Errorf("%s is an instant; phase %q is not allowed", e.Kind, e.Phase)
		}
		return nil
	}
	if e.ID == 0 {
		return fmt.Errorf("%s %s without an id", e.Kind, e.Phase)
	}
	switch e.Phase {
	case Begin:
		if _, dup := v.open[e.ID]; dup || v.ended[e.ID] {
			return fmt.Errorf("id %d begins twice", e.ID)
		}
		v.open[e.ID] = e
	case End:
		b, ok := v.open[e.ID]
		if !ok {
			return fmt.Errorf("%s end with id %d that has not begun", e.Kind, e.ID)
		}
		if b.Kind != e.Kind || b.Node != e.Node || b.Op != e.Op {
			return fmt.Errorf("end id %d (%s %s on %s) does not match its begin (%s %s on %s)",
				e.ID, e.Kind, e.Op, e.Node, b.Kind, b.Op, b.Node)
		}
		delete(v.open, e.ID)
		v.ended[e.ID] = true
	default:
		return fmt.Errorf("%s needs phase %q or %q, got %q", e.Kind, Begin, End, e.Phase)
	}
	return nil
}

func checkParts(p Parts) error {
	for t, ps := range p {
		if t == "" {
			return fmt.Errorf("partition with an empty topic name")
		}
		seen := map[int32]bool{}
		for _, q := range ps {
			if q < 0 {
				return fmt.Errorf("negative partition %s/%d", t, q)
			}
			if seen[q] {
				return fmt.Errorf("partition %s/%d listed twice", t, q)
			}
			seen[q] = true
		}
	}
	return nil
}
