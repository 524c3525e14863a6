package history

import (
	"fmt"
	"sort"
)

var kinds = map[Kind]bool{Start: false, Close: true, Crash: false, Cut: false, Heal: false,
	Generation: false, Assign: true, Revoke: true, Lost: true, Commit: true, Request: true,
	Fenced: false, Mark: false} // kind → is an interval

var ops = map[string]bool{JoinGroup: true, SyncGroup: true, Heartbeat: true, LeaveGroup: true,
	OffsetCommit: true, ConsumerGroupHeartbeat: true}

// MinGen is the lowest generation or epoch a history can hold: -2, a static KIP-848 member's
// leave (docs/protocol.md §3.1; -1 is a leave or "no generation", 0 a KIP-848 join).
const MinGen = -2

// validator carries what the per-event checks need from earlier events: live state only (the
// intervals open now), and the IDs begun so far as ranges, which stay few when IDs are handed
// out in order as Recorder does.
type validator struct {
	seq, t int64
	open   map[int64]Event // intervals begun and not yet ended, by ID
	lines  map[int64]int   // where each open interval began (line, or index)
	begun  idRanges
}

func newValidator() *validator {
	return &validator{open: map[int64]Event{}, lines: map[int64]int{}}
}

// firstOpen is the interval begun first among those still open.
func (v *validator) firstOpen() (Event, bool) {
	var first Event
	for _, b := range v.open {
		if first.ID == 0 || b.Seq < first.Seq {
			first = b
		}
	}
	return first, first.ID != 0
}

func (v *validator) check(e Event, line int) error {
	interval, ok := kinds[e.Kind]
	switch {
	case !ok:
		return fmt.Errorf("unknown kind %q", e.Kind)
	case e.Seq <= v.seq:
		return fmt.Errorf("seq %d does not increase (previous %d)", e.Seq, v.seq)
	case e.T < 0:
		return fmt.Errorf("field \"t_ns\": %d is negative", e.T)
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
	case e.Gen < MinGen:
		return fmt.Errorf("field \"gen\": %d is impossible (no generation or epoch is below %d, a static member's leave)", e.Gen, MinGen)
	case e.ID < 0:
		return fmt.Errorf("field \"id\": %d is negative", e.ID)
	}
	if err := checkParts(e.Parts); err != nil {
		return fmt.Errorf("field \"parts\": %v", err)
	}
	if err := checkParts(e.Owned); err != nil {
		return fmt.Errorf("field \"owned\": %v", err)
	}
	for m, p := range e.Assignments {
		if err := checkParts(p); err != nil {
			return fmt.Errorf("field \"assignments\"[%s]: %v", m, err)
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
		if !v.begun.add(e.ID) {
			return fmt.Errorf("id %d begins twice", e.ID)
		}
		v.open[e.ID], v.lines[e.ID] = e, line
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
		delete(v.lines, e.ID)
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

// idRanges is a set of IDs as sorted, disjoint, non-adjacent closed ranges.
type idRanges [][2]int64

// add inserts id and reports whether it was new.
func (rs *idRanges) add(id int64) bool {
	s := *rs
	i := sort.Search(len(s), func(i int) bool { return s[i][1] >= id }) // first range ending at or after id
	if i < len(s) && s[i][0] <= id {
		return false
	}
	joinLeft := i > 0 && s[i-1][1] == id-1
	joinRight := i < len(s) && s[i][0] == id+1
	switch {
	case joinLeft && joinRight:
		s[i-1][1] = s[i][1]
		*rs = append(s[:i], s[i+1:]...)
	case joinLeft:
		s[i-1][1] = id
	case joinRight:
		s[i][0] = id
	default:
		s = append(s, [2]int64{})
		copy(s[i+1:], s[i:])
		s[i] = [2]int64{id, id}
		*rs = s
	}
	return true
}
