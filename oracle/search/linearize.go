package search

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// Linearization is the verdict of Linearize: whether some order of the recorded requests,
// each placed between its begin and its end, is one in which the reference coordinator,
// handling them in that order (with any timers between), gives every recorded answer.
type Linearization struct {
	Verdict string // OK, Violated, or Undecided (the state budget or porcupine's timeout)
	// Detail says what was checked; on Violated, the longest order porcupine found and the
	// requests no behaviour of the reference handles next.
	Detail string
	// Operations is the requests given to porcupine, Segments the quiescent stretches it
	// searched one at a time, States the reference states the steps generated.
	Operations, Segments, States int
}

// Linearize checks the coordinator requests of h with porcupine over the reference (see
// Collector); timeout bounds porcupine (0: none), o.Budget the states of one step.
func Linearize(h history.History, o Options, timeout time.Duration) (Linearization, error) {
	if err := h.Validate(); err != nil {
		return Linearization{}, err
	}
	c := NewCollector(o, timeout, ShapeOf(h))
	for pass := 0; pass == 0 || c.Again(); pass++ {
		for _, e := range h {
			if err := c.Add(e); err != nil {
				return Linearization{}, err
			}
		}
		if _, err := c.Check(); err != nil {
			return Linearization{}, err
		}
	}
	return c.Check()
}

// Visualize is Linearize, and writes porcupine's HTML visualization to w: the whole history
// searched at once (so it holds every request), the linearization found or, on a violation,
// the longest partial ones, with the reference's states after each operation.
func Visualize(h history.History, o Options, timeout time.Duration, w io.Writer) (Linearization, error) {
	if err := h.Validate(); err != nil {
		return Linearization{}, err
	}
	c := NewCollector(o, timeout, ShapeOf(h))
	c.whole = true
	var l Linearization
	for pass := 0; pass == 0 || c.Again(); pass++ {
		c.whole = true
		for _, e := range h {
			if err := c.Add(e); err != nil {
				return Linearization{}, err
			}
		}
		var err error
		if l, err = c.Check(); err != nil {
			return l, err
		}
	}
	if c.model.Step == nil {
		return l, fmt.Errorf("no coordinator request to draw")
	}
	if err := porcupine.Visualize(c.model, c.info, w); err != nil {
		return l, fmt.Errorf("writing porcupine's visualization: %v", err)
	}
	return l, nil
}

// Collector checks a history's requests fed one event at a time (validated, in order), with
// porcupine over the reference: porcupine orders the requests, each placed between its begin
// and its end, and the reference judges every order (linModel, whose step is the search's:
// impl/coordinator or impl/kip848 handling the request in every behaviour). It searches one
// quiescent segment at a time (every request before the cut returned before any after it
// began), as soon as the segment is read, and carries to the next every behaviour that any
// order of the segment reaches (linModel.reached): so only the current segment's requests
// are held, and the verdict is the whole history's.
//
// Its first pass keeps, at each step, only the behaviours with the fewest timers
// (Options.Simplest): its "ok" is sound and cheap, but its "violated" only means that the
// history must be fed again (Again) to the whole search.
type Collector struct {
	o        Options
	timeout  time.Duration
	deadline time.Time
	shape    *Shape
	outside  outsiders
	seg      []recorded        // the current segment's requests
	open     map[int64]int     // requests begun and not ended, by interval id
	maxRet   int64             // the latest end in the segment
	clients  map[string]int    // node → porcupine client id
	strs     map[string]string // one copy of each name
	conns    impl.Conn
	m        *linModel
	state    *stateSet
	res      Linearization
	done     bool
	// whole: search the history at once at Check, keeping porcupine's model and info for the
	// visualization.
	whole bool
	model porcupine.Model
	info  porcupine.LinearizationInfo
}

// recorded is one request's begin and end.
type recorded struct {
	begin, end history.Event
	client     int
}

// NewCollector starts a check: o bounds each step (o.Budget), timeout porcupine's search of
// each segment (0: none), and shape is the history's (ShapeOf, or a first pass feeding
// Shape.Add), needed before the first request of a KIP-848 history.
func NewCollector(o Options, timeout time.Duration, shape *Shape) *Collector {
	o.Shape, o.Simplest = shape, false
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	c := &Collector{o: o, timeout: timeout, deadline: time.Now().Add(timeout), shape: shape, outside: outsiders{},
		open: map[int64]int{}, clients: map[string]int{}, strs: map[string]string{}, m: &linModel{o: o}}
	c.m.o.Simplest = true
	c.state = newStateSet(New(o).frontier)
	c.res.Verdict = OK
	return c
}

// Again reports whether the history must be fed once more, from its first event, before
// Check's verdict stands: the first pass (the simplest explanations) found none, and the
// collector is reset for the whole search (its state count goes on).
func (c *Collector) Again() bool {
	if !c.m.o.Simplest || c.res.Verdict == OK {
		return false
	}
	states, deadline := c.m.states, c.deadline
	*c = *NewCollector(c.o, c.timeout, c.shape)
	c.m.o.Simplest, c.m.states, c.deadline = false, states, deadline // one timeout for both passes
	return true
}

// Add reads one event.
func (c *Collector) Add(e history.Event) error {
	if c.done {
		return nil
	}
	e = c.outside.asRequest(e)
	if e.Kind != history.Request {
		return nil
	}
	e.Node, e.Member, e.Instance, e.Leader = c.intern(e.Node), c.intern(e.Member), c.intern(e.Instance), c.intern(e.Leader)
	for i, m := range e.Members {
		e.Members[i] = c.intern(m)
	}
	if e.Phase == history.Begin {
		if !c.whole && len(c.open) == 0 && len(c.seg) > 0 && e.T > c.maxRet {
			if err := c.cut(e.T); err != nil || c.done {
				return err
			}
		}
		if _, ok := c.clients[e.Node]; !ok {
			c.clients[e.Node] = len(c.clients)
		}
		c.open[e.ID] = len(c.seg)
		c.seg = append(c.seg, recorded{begin: e, client: c.clients[e.Node]})
		return nil
	}
	i, ok := c.open[e.ID]
	if !ok {
		return fmt.Errorf("seq %d: the end of request id=%d, which has not begun", e.Seq, e.ID)
	}
	delete(c.open, e.ID)
	c.seg[i].end = e
	c.maxRet = max(c.maxRet, e.T)
	return nil
}

func (c *Collector) intern(s string) string {
	if t, ok := c.strs[s]; ok {
		return t
	}
	c.strs[s] = s
	return s
}

// Check is the verdict on the requests fed: the last segment is searched to the end of the
// history, where every request must have its answer.
func (c *Collector) Check() (Linearization, error) {
	if !c.done && len(c.open) > 0 {
		return Linearization{}, fmt.Errorf("the history ends before %d requests end", len(c.open))
	}
	if !c.done && len(c.seg) > 0 {
		if err := c.cut(c.maxRet + 1); err != nil {
			return Linearization{}, err
		}
		c.done = c.res.Verdict != OK
	}
	r := c.res
	r.States = c.m.states
	if r.Verdict == OK {
		r.Detail = fmt.Sprintf("linearizable: porcupine ordered the %d requests, in %d quiescent segments, and the reference coordinator gives every recorded answer in some order of each (%d reference states)", r.Operations, r.Segments, r.States)
	}
	return r, nil
}

// cut searches the current segment, and the cut at t after it.
func (c *Collector) cut(t int64) error {
	ops, err := c.operations(t)
	if err != nil {
		return err
	}
	c.res.Operations += len(ops) - 1
	c.res.Segments++
	left := time.Duration(0)
	if c.timeout > 0 {
		if left = time.Until(c.deadline); left <= 0 {
			left = time.Nanosecond
		}
	}
	c.m.reached, c.m.finish = nil, c.whole
	var res porcupine.CheckResult
	if c.whole {
		c.model = c.m.model(c.state)
		res, c.info = porcupine.CheckOperationsVerbose(c.model, porcupineOps(ops), left)
		c.m.reached = c.state.configs // nothing follows
		if res == porcupine.Illegal {
			c.m.reached = nil
		}
	} else {
		res = porcupine.CheckOperationsTimeout(c.m.model(c.state), porcupineOps(ops), left)
		if res != porcupine.Unknown && len(c.m.reached) == 0 && c.m.over == nil && c.m.o.Simplest {
			// The simplest explanations of this segment's steps explain no order of it: try
			// every explanation of its steps, from the same behaviours, before feeding the
			// whole history again.
			c.m.o.Simplest = false
			res = porcupine.CheckOperationsTimeout(c.m.model(c.state), porcupineOps(ops), left)
			c.m.o.Simplest = true
		}
	}
	switch {
	case c.m.over != nil:
		c.stop(Undecided, fmt.Sprintf("undecided at %s: one step needs more than the budget of %d reference states", c.m.over.label, c.o.Budget))
	case res == porcupine.Unknown:
		c.stop(Undecided, fmt.Sprintf("undecided: porcupine timed out after %v, in the segment from seq %d", c.timeout, c.seg[0].begin.Seq))
	case len(c.m.reached) == 0 && c.m.o.Simplest:
		c.stop(Violated, "the simplest explanations explain no order of the segment from seq "+fmt.Sprint(c.seg[0].begin.Seq)+" (Again: the whole search decides)")
	case len(c.m.reached) == 0:
		c.stop(Violated, c.explain(ops, left))
	default:
		c.state = newStateSet(c.m.reached)
		c.m.reached, c.seg = nil, nil
	}
	return nil
}

func (c *Collector) stop(verdict, detail string) {
	c.res.Verdict, c.res.Detail, c.done = verdict, detail, true
	c.seg = nil
}

// operations are the current segment's requests as porcupine's operations, and the cut at t
// as the last (it handles nothing: every request parked must be answered by then).
func (c *Collector) operations(t int64) ([]*operation, error) {
	ops := make([]*operation, 0, len(c.seg)+1)
	for _, r := range c.seg {
		c.conns++
		var req request
		var err error
		if c.shape.Consumer() {
			req, err = consumerRequest(r.begin, c.conns, r.end, c.shape)
		} else {
			req, err = classicRequest(r.begin, c.conns, r.end)
		}
		if err != nil {
			return nil, err
		}
		ops = append(ops, &operation{client: r.client, call: r.begin.T, ret: r.end.T, req: &req, label: label(req, r.begin, r.end)})
	}
	what := "the end of the segment: every request before it has its answer"
	if c.whole {
		what = "the end of the history: every request has its answer"
	}
	return append(ops, &operation{client: len(c.clients), call: t, ret: t, label: what}), nil
}

// explain searches the segment again, keeping porcupine's partial linearizations, replays the
// longest, and names the requests that could come next and that no behaviour of the
// reference handles there, with the reference's states at that point.
func (c *Collector) explain(ops []*operation, left time.Duration) string {
	var info porcupine.LinearizationInfo
	if c.whole {
		info = c.info
	} else {
		m := &linModel{o: c.o}
		_, info = porcupine.CheckOperationsVerbose(m.model(c.state), porcupineOps(ops), left)
	}
	m := &linModel{o: c.o, finish: true}
	// The longest, the first in order among equals: porcupine returns them from a map.
	var longest []int
	for _, part := range info.PartialLinearizations() {
		for _, l := range part {
			if len(l) > len(longest) || len(l) == len(longest) && slices.Compare(l, longest) < 0 {
				longest = l
			}
		}
	}
	s := c.state
	done := make([]bool, len(ops))
	for _, id := range longest {
		s = m.step(s, ops[id])
		done[id] = true
	}
	next := int64(math.MaxInt64) // the operations that may come next: called before every pending one returned
	for i, o := range ops {
		if !done[i] {
			next = min(next, o.ret)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "not linearizable against the reference coordinator: in the segment from seq %d, after %d of its %d requests in the longest order porcupine found", c.seg[0].begin.Seq, len(longest), len(ops)-1)
	if len(longest) > 0 {
		fmt.Fprintf(&b, " (last: %s)", ops[longest[len(longest)-1]].label)
	}
	b.WriteString(", no behaviour of the reference handles next any of:")
	for i, o := range ops {
		if !done[i] && o.call <= next && len(m.step(s, o).configs) == 0 {
			b.WriteString("\n  - " + o.label)
		}
	}
	b.WriteString("\nthe reference's states there:\n  " + strings.ReplaceAll(s.String(), "\n", "\n  "))
	return b.String()
}

// label names a request in messages and in the visualization.
func label(r request, b, e history.Event) string {
	what := "no answer"
	if r.judged {
		w := e.Err
		if w == "" {
			w = "NONE"
		}
		what = endText(e, w)
	}
	s := fmt.Sprintf("id=%d %s %s", b.ID, b.Node, b.Op)
	if b.Member != "" {
		s += " member=" + b.Member
	}
	if b.Op != history.JoinGroup && b.Op != history.LeaveGroup {
		s += fmt.Sprintf(" gen=%d", b.Gen)
	}
	return fmt.Sprintf("%s → %s [seq %d–%d]", s, what, b.Seq, e.Seq)
}

func porcupineOps(ops []*operation) []porcupine.Operation {
	out := make([]porcupine.Operation, len(ops))
	for i, o := range ops {
		out[i] = porcupine.Operation{ClientId: o.client, Input: o, Call: o.call, Return: o.ret}
	}
	return out
}

// outsiders are the client commits from outside the group begun and not yet ended.
type outsiders map[int64]bool

// asRequest is e, or, for a client commit from outside the group (no member id, no
// generation: an assign() consumer), the OffsetCommit request it makes: Kafka judges such a
// commit by the group's state alone (docs/protocol.md §1.8), so the search judges it so
// whether the history recorded the client's commit, its request on the wire, or both.
func (out outsiders) asRequest(e history.Event) history.Event {
	if e.Kind != history.Commit {
		return e
	}
	switch {
	case e.Phase == history.Begin && e.Member == "" && e.Gen < 0:
		out[e.ID] = true
	case e.Phase == history.End && out[e.ID]:
		delete(out, e.ID)
	default:
		return e
	}
	e.Kind, e.Op = history.Request, history.OffsetCommit
	return e
}
