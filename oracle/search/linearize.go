package search

import (
	"fmt"
	"io"
	"math"
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
	c, err := collect(h)
	if err != nil {
		return Linearization{}, err
	}
	return c.Check(o, timeout)
}

// Visualize is Linearize, and writes porcupine's HTML visualization of the whole history's
// search to w: the linearization found or, on a violation, the longest partial ones, each
// operation's reference states on hover.
func Visualize(h history.History, o Options, timeout time.Duration, w io.Writer) (Linearization, error) {
	c, err := collect(h)
	if err != nil {
		return Linearization{}, err
	}
	l, run, err := c.whole(o, timeout)
	if err != nil {
		return l, err
	}
	if err := porcupine.Visualize(run.model, run.info, w); err != nil {
		return l, fmt.Errorf("writing porcupine's visualization: %v", err)
	}
	return l, nil
}

func collect(h history.History) (*Collector, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	c := NewCollector()
	for _, e := range h {
		if err := c.Add(e); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Collector gathers a history's requests one event at a time (validated, in order) for
// Check, so that a history read from a file is not held in memory: only its requests are.
type Collector struct {
	shape   Shape
	outside outsiders
	recs    []recorded
	open    map[int64]int     // requests begun and not ended, by interval id
	clients map[string]int    // node → porcupine client id
	strs    map[string]string // one copy of each name
	maxT    int64
}

// recorded is one request's begin and end.
type recorded struct {
	begin, end history.Event
	client     int
}

// NewCollector starts an empty collection.
func NewCollector() *Collector {
	return &Collector{outside: outsiders{}, open: map[int64]int{}, clients: map[string]int{}, strs: map[string]string{}}
}

// Add reads one event.
func (c *Collector) Add(e history.Event) error {
	c.maxT = max(c.maxT, e.T)
	c.shape.Add(e)
	e = c.outside.asRequest(e)
	if e.Kind != history.Request {
		return nil
	}
	e.Node, e.Member, e.Instance, e.Leader = c.intern(e.Node), c.intern(e.Member), c.intern(e.Instance), c.intern(e.Leader)
	for i, m := range e.Members {
		e.Members[i] = c.intern(m)
	}
	if e.Phase == history.Begin {
		if _, ok := c.clients[e.Node]; !ok {
			c.clients[e.Node] = len(c.clients)
		}
		c.open[e.ID] = len(c.recs)
		c.recs = append(c.recs, recorded{begin: e, client: c.clients[e.Node]})
		return nil
	}
	i, ok := c.open[e.ID]
	if !ok {
		return fmt.Errorf("seq %d: the end of request id=%d, which has not begun", e.Seq, e.ID)
	}
	delete(c.open, e.ID)
	c.recs[i].end = e
	return nil
}

func (c *Collector) intern(s string) string {
	if t, ok := c.strs[s]; ok {
		return t
	}
	c.strs[s] = s
	return s
}

// Check searches the requests collected: porcupine orders them, the reference (the search's
// step) judges each order. It first searches the history one quiescent segment at a time
// (segments) keeping only the simplest explanations of each step (Options.Simplest), which
// is cheap and whose "ok" is sound; where that finds no order, the whole history is searched
// at once with every explanation, and that verdict is the one returned.
func (c *Collector) Check(o Options, timeout time.Duration) (Linearization, error) {
	ops, err := c.operations()
	if err != nil {
		return Linearization{}, err
	}
	o = c.options(o)
	deadline := time.Now().Add(timeout)
	m := &linModel{o: o}
	m.o.Simplest = true
	state := c.initial(o)
	segs := segments(ops)
	for _, seg := range segs {
		left := time.Duration(0)
		if timeout > 0 {
			if left = time.Until(deadline); left <= 0 {
				break
			}
		}
		pops := porcupineOps(seg)
		m.last = nil
		if porcupine.CheckOperationsTimeout(m.model(state), pops, left) != porcupine.Ok || m.last == nil {
			state = nil
			break
		}
		state = m.last
	}
	if state != nil && len(segs) > 0 {
		return Linearization{Verdict: OK, Operations: len(ops), Segments: len(segs), States: m.states,
			Detail: fmt.Sprintf("linearizable: porcupine ordered the %d requests, %d quiescent segments one at a time, and the reference coordinator gives every recorded answer in that order (%d reference states)", len(ops), len(segs), m.states)}, nil
	}
	left := time.Duration(0)
	if timeout > 0 {
		left = max(time.Nanosecond, time.Until(deadline))
	}
	l, _, err := c.whole(o, left)
	l.States += m.states
	return l, err
}

// run is what porcupine's visualization needs from a search.
type run struct {
	model porcupine.Model
	info  porcupine.LinearizationInfo
}

// whole searches every request at once, with every explanation of each step.
func (c *Collector) whole(o Options, timeout time.Duration) (Linearization, run, error) {
	ops, err := c.operations()
	if err != nil {
		return Linearization{}, run{}, err
	}
	o = c.options(o)
	m := &linModel{o: o}
	init := c.initial(o)
	model := m.model(init)
	res, info := porcupine.CheckOperationsVerbose(model, porcupineOps(ops), timeout)
	l := Linearization{Operations: len(ops), Segments: 1, States: m.states}
	switch {
	case m.over != nil:
		l.Verdict = Undecided
		l.Detail = fmt.Sprintf("undecided at %s: one step needs more than the budget of %d reference states", m.over.label, o.Budget)
	case res == porcupine.Ok:
		l.Verdict = OK
		l.Detail = fmt.Sprintf("linearizable: porcupine ordered the %d requests, the whole history at once, and the reference coordinator gives every recorded answer in that order (%d reference states)", len(ops), m.states)
	case res == porcupine.Unknown:
		l.Verdict = Undecided
		l.Detail = fmt.Sprintf("undecided: porcupine timed out after %v", timeout)
	default:
		l.Verdict = Violated
		l.Detail = explain(m, init, ops, info)
	}
	return l, run{model, info}, nil
}

// options is o with the collected shape and the default budget.
func (c *Collector) options(o Options) Options {
	o.Shape, o.Simplest = &c.shape, false
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	return o
}

// initial is the set of the search's starting behaviours.
func (c *Collector) initial(o Options) *stateSet {
	return newStateSet(New(o).frontier)
}

// operations are the requests collected, as porcupine's operations, and the end of the
// history as the last (it handles nothing: every request parked must be answered by then).
func (c *Collector) operations() ([]*operation, error) {
	ops := make([]*operation, 0, len(c.recs)+1)
	for i, r := range c.recs {
		var req request
		var err error
		if c.shape.Consumer() {
			req, err = consumerRequest(r.begin, impl.Conn(i+1), r.end, &c.shape)
		} else {
			req, err = classicRequest(r.begin, impl.Conn(i+1), r.end)
		}
		if err != nil {
			return nil, err
		}
		op := &operation{index: i, client: r.client, call: r.begin.T, ret: r.end.T, req: &req}
		if !req.judged {
			op.ret = c.orphanWindow(i)
		}
		op.label = label(req, r.begin, r.end)
		ops = append(ops, op)
	}
	return append(ops, &operation{index: len(c.recs), client: len(c.clients), call: c.maxT + 2, ret: c.maxT + 3, label: "the end of the history"}), nil
}

// orphanWindow is when the request recs[i], which has no answer, may have been handled: after
// its begin and before its node's next answered request returned (a coordinator serves a
// connection in order, and the search finishes a node's orphans so), or at any time if none
// did.
func (c *Collector) orphanWindow(i int) int64 {
	node := c.recs[i].begin.Node
	for _, r := range c.recs[i+1:] {
		if _, ok := judged(r.end); ok && r.begin.Node == node {
			return r.end.T
		}
	}
	return c.maxT + 1
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

// segments cuts the operations where the history is quiescent: every operation before the
// cut returned before any after it was called, so every linearization orders the segments as
// the history does, and a linearization of each, each from the state the one before ended
// in, is one of the whole.
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

// explain replays the longest partial linearization porcupine found and names the requests
// that could come next and that no behaviour of the reference handles there, with the
// reference's states at that point.
func explain(m *linModel, init *stateSet, ops []*operation, info porcupine.LinearizationInfo) string {
	var longest []int
	for _, part := range info.PartialLinearizations() {
		for _, l := range part {
			if len(l) > len(longest) {
				longest = l
			}
		}
	}
	s := init
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
	fmt.Fprintf(&b, "not linearizable against the reference coordinator: after %d of %d requests in the longest order porcupine found", len(longest), len(ops))
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
