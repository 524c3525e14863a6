package history

import (
	"sync"
	"time"
)

// Recorder collects a history from a running test. It is safe for concurrent use: every
// process of the test records into one Recorder, which stamps Seq and a shared monotonic time
// under one lock, so the order of Seq is the order of the calls.
type Recorder struct {
	mu     sync.Mutex
	start  time.Time
	now    func() time.Duration // the clock; tests may replace it with NewRecorderClock
	events History
	nextID int64
	dead   map[string]bool // crashed nodes: a dead process observes nothing more
}

// NewRecorder starts a recorder on the process's monotonic clock.
func NewRecorder() *Recorder {
	r := &Recorder{start: time.Now(), dead: map[string]bool{}}
	r.now = func() time.Duration { return time.Since(r.start) }
	return r
}

// NewRecorderClock starts a recorder on the given clock (nanoseconds since some origin),
// for deterministic tests.
func NewRecorderClock(now func() int64) *Recorder {
	return &Recorder{now: func() time.Duration { return time.Duration(now()) }, dead: map[string]bool{}}
}

// Record appends e, stamping Seq and T (and, for a begin with no ID, a fresh ID, returned).
// Events from a node recorded after its Crash are dropped (ID 0 is returned): a dead process
// observes nothing, and a late callback from a client torn down in the background must not
// look like ownership.
func (r *Recorder) Record(e Event) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dead[e.Node] && e.Kind != Start {
		return 0
	}
	switch e.Kind {
	case Crash:
		r.dead[e.Node] = true
	case Start:
		delete(r.dead, e.Node)
	}
	switch {
	case e.Phase == Begin && e.ID == 0:
		r.nextID++
		e.ID = r.nextID
	case e.ID > r.nextID:
		r.nextID = e.ID // a caller's own ID: never hand it out again
	}
	e.Seq = int64(len(r.events)) + 1
	e.T = int64(r.now())
	if n := len(r.events); n > 0 && e.T < r.events[n-1].T {
		e.T = r.events[n-1].T // a replaced clock must not make the history invalid
	}
	r.events = append(r.events, e)
	return e.ID
}

// Begin records the begin of an interval and returns a function that records its end; the
// end copies Kind, Node, Proto, Op and ID from the begin, and takes what end sets.
func (r *Recorder) Begin(e Event) func(end Event) {
	e.Phase = Begin
	id := r.Record(e)
	return func(x Event) {
		if id == 0 {
			return
		}
		x.Kind, x.Node, x.Proto, x.Op, x.ID, x.Phase = e.Kind, e.Node, e.Proto, e.Op, id, End
		r.Record(x)
	}
}

// History returns a copy of what has been recorded, with every interval still open closed:
// an interval whose end never came (a crash mid-callback) is ended at the last time recorded
// with Note Unfinished, so that the copy always validates.
func (r *Recorder) History() History {
	r.mu.Lock()
	defer r.mu.Unlock()
	h := append(History(nil), r.events...)
	open := map[int64]Event{}
	var order []int64
	for _, e := range h {
		switch e.Phase {
		case Begin:
			open[e.ID] = e
			order = append(order, e.ID)
		case End:
			delete(open, e.ID)
		}
	}
	var t int64
	if len(h) > 0 {
		t = h[len(h)-1].T
	}
	for _, id := range order {
		if b, ok := open[id]; ok {
			h = append(h, Event{Seq: int64(len(h)) + 1, T: t, Kind: b.Kind, Phase: End, ID: id,
				Node: b.Node, Proto: b.Proto, Op: b.Op, Member: b.Member, Gen: b.Gen, Note: Unfinished})
		}
	}
	return h
}
