package lin

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/oracle/differential"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// operation is one coordinator request of a history as the model reads it: the begin's
// request and, when it came, the end's response. It is porcupine's Input (and Output).
type operation struct {
	id     int
	client int // porcupine's client id: the node's index in order of appearance
	node   string
	op     string
	seq    [2]int64 // seq of the begin and of the end (0: no end)
	call   int64
	ret    int64

	// The request.
	member, instance string
	gen              int32
	assignments      map[string]impl.PartitionSet // a SyncGroup from the leader; nil: none sent

	// The response. answered is false when none came (no end, an end the recorder closed as
	// "unfinished", or an error name that is not a coordinator's answer): the outcome is
	// unknown and the model lets the request have taken effect or not.
	answered   bool
	err        impl.ErrorCode
	respMember string
	respGen    int32
	leader     string
	members    []string // sorted; nil when the response listed none
	parts      impl.PartitionSet
	hasParts   bool

	merged int    // unanswered retries of the same request merged into this one
	memo   string // label, once asked for; forgotten once its segment is checked
}

// protocol is the group protocol a history's requests speak.
type protocol int8

const (
	classicProtocol protocol = iota
	consumerProtocol
)

func (p protocol) String() string {
	if p == consumerProtocol {
		return history.Consumer
	}
	return history.Classic
}

// parsed is a history read for the model.
type parsed struct {
	proto  protocol
	static bool // some event names a group.instance.id
	ops    []*operation
	nodes  []string
	total  int // requests in the history, checked or not
}

// parse validates h and extracts its coordinator requests. Requests whose outcome is
// unknown and whose effect the model already allows without them are dropped (see doc.go).
func parse(h history.History) (*parsed, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	c := NewCollector()
	for _, e := range h {
		if err := c.Add(e); err != nil {
			return nil, err
		}
	}
	return c.parsed()
}

// Collector gathers a history's coordinator requests one event at a time, so that a history
// read from a file need not be held in memory for the check: only its requests are, as the
// model reads them. Feed it a validated history (history.Reader validates) in order.
type Collector struct {
	p             *parsed
	byID          map[int64]*operation // requests without an end yet
	clients       map[string]int
	strs          map[string]string // one copy of each name (nodes, member IDs, ops)
	classicAt     *history.Event    // the first request of each protocol
	consumerAt    *history.Event
	consumerStart bool
	maxT          int64
	all           []*operation
}

// NewCollector starts an empty collection.
func NewCollector() *Collector {
	return &Collector{p: &parsed{}, byID: map[int64]*operation{}, clients: map[string]int{}, strs: map[string]string{}}
}

// intern returns the collector's copy of s.
func (c *Collector) intern(s string) string {
	if t, ok := c.strs[s]; ok {
		return t
	}
	c.strs[s] = s
	return s
}

// Add reads one event: a request's begin or end, or what tells the protocol (a start) or
// static membership (an instance ID).
func (c *Collector) Add(ev history.Event) error {
	e := &ev
	c.maxT = max(c.maxT, e.T)
	if e.Instance != "" {
		c.p.static = true
	}
	if e.Proto == history.Consumer && e.Kind == history.Start {
		c.consumerStart = true
	}
	if e.Kind != history.Request {
		return nil
	}
	switch e.Op {
	case history.ConsumerGroupHeartbeat:
		if c.consumerAt == nil {
			c.consumerAt = e
		}
	case history.OffsetCommit:
	default:
		if c.classicAt == nil {
			c.classicAt = e
		}
	}
	e.Node, e.Member, e.Op, e.Leader = c.intern(e.Node), c.intern(e.Member), c.intern(e.Op), c.intern(e.Leader)
	for i, m := range e.Members {
		e.Members[i] = c.intern(m)
	}
	if e.Phase == history.Begin {
		if _, ok := c.clients[e.Node]; !ok {
			c.clients[e.Node] = len(c.p.nodes)
			c.p.nodes = append(c.p.nodes, e.Node)
		}
		o, err := request(e)
		if err != nil {
			return err
		}
		o.client = c.clients[e.Node]
		c.byID[e.ID] = o
		c.all = append(c.all, o)
		return nil
	}
	o := c.byID[e.ID]
	delete(c.byID, e.ID)
	if o == nil {
		return fmt.Errorf("history seq %d: the end of request %d that has not begun", e.Seq, e.ID)
	}
	return o.response(e)
}

// Check checks the requests collected (see the package's Check).
func (c *Collector) Check(timeout time.Duration) (Result, error) {
	p, err := c.parsed()
	if err != nil {
		return Result{}, fmt.Errorf("lin: %v", err)
	}
	if r, ok := checkSegments(p, timeout); ok {
		return r, nil
	}
	r, _, err := checkParsed(p, timeout)
	return r, err
}

// parsed finishes the collection: the protocol, and the requests the model checks. Call it
// once.
func (c *Collector) parsed() (*parsed, error) {
	p := c.p
	if c.classicAt != nil && c.consumerAt != nil {
		return nil, fmt.Errorf("history mixes the classic protocol (%s at seq %d) and KIP-848 (%s at seq %d); "+
			"linearizability is checked for one group speaking one protocol", c.classicAt.Op, c.classicAt.Seq, c.consumerAt.Op, c.consumerAt.Seq)
	}
	if c.consumerAt != nil || c.classicAt == nil && c.consumerStart {
		p.proto = consumerProtocol // a history of commits only follows its members' protocol
	}
	all := c.all
	p.total = len(all)
	p.ops = nil
	last := map[string]*operation{} // each node's last checked operation
	for i, o := range all {
		if !o.answered {
			if !p.keepsUnanswered(o) {
				continue
			}
			o.ret = window(all, i, c.maxT)
			if prev := last[o.node]; prev != nil && sameUnanswered(prev, o) {
				prev.merged++
				continue
			}
		}
		last[o.node] = o
		o.id = len(p.ops)
		p.ops = append(p.ops, o)
	}
	return p, nil
}

// window is when the unanswered request all[i] may take effect: after its call and before
// its node's next answered request returns. A client's requests to the coordinator take
// effect in the order it sent them (one Kafka connection is served in order), so a request
// that was never answered took effect, if at all, before a later one was answered.
func window(all []*operation, i int, maxT int64) int64 {
	for _, o := range all[i+1:] {
		if o.node == all[i].node && o.answered && o.call > all[i].call {
			return o.ret
		}
	}
	return maxT + 1 // no later answer: at any time
}

// sameUnanswered: b is an unanswered request of the same node as the unanswered a, with
// the same window and an effect a already allows (retries of one request), so that one
// operation stands for both. Without merging, porcupine would try every subset of a long
// run of retries (a member cut off from the coordinator).
func sameUnanswered(a, b *operation) bool {
	return !a.answered && a.node == b.node && a.op == b.op && a.ret == b.ret &&
		a.member == b.member && a.gen <= b.gen && a.op != history.SyncGroup
}

// keepsUnanswered: a request without an answer is checked only where its possible effect
// is one the model does not otherwise allow: a classic SyncGroup may have been the leader's
// that completed the round; a KIP-848 heartbeat may have changed the member's epoch and
// assignment.
func (p *parsed) keepsUnanswered(o *operation) bool {
	switch o.op {
	case history.SyncGroup:
		return p.proto == classicProtocol
	case history.ConsumerGroupHeartbeat:
		return true
	}
	return false
}

// request reads a Request begin.
func request(e *history.Event) (*operation, error) {
	o := &operation{node: e.Node, op: e.Op, seq: [2]int64{e.Seq, 0}, call: e.T, ret: math.MaxInt64,
		member: e.Member, instance: e.Instance, gen: e.Gen}
	if e.Assignments != nil {
		o.assignments = map[string]impl.PartitionSet{}
		for m, ps := range e.Assignments {
			s, err := differential.ToSet(ps)
			if err != nil {
				return nil, fmt.Errorf("history seq %d: assignments[%s]: %v", e.Seq, m, err)
			}
			o.assignments[m] = s
		}
	}
	return o, nil
}

// response reads a Request end into its operation.
func (o *operation) response(e *history.Event) error {
	o.seq[1], o.ret = e.Seq, e.T
	if e.Note == "unfinished" {
		return nil
	}
	code, err := differential.ParseError(e.Err)
	if err != nil {
		return nil // not a coordinator's answer (a transport error, a client-side timeout)
	}
	o.answered, o.err = true, code
	o.respMember, o.respGen, o.leader = e.Member, e.Gen, e.Leader
	if e.Members != nil {
		o.members = slices.Sorted(slices.Values(e.Members))
	}
	if e.Parts != nil {
		s, err := differential.ToSet(e.Parts)
		if err != nil {
			return fmt.Errorf("history seq %d: parts: %v", e.Seq, err)
		}
		o.parts, o.hasParts = s, true
	}
	return nil
}

// label names the operation in messages and in the visualization (describe, remembered).
func (o *operation) label() string {
	if o.memo == "" {
		o.memo = o.describe()
	}
	return o.memo
}

// describe names the operation in messages and in the visualization.
func (o *operation) describe() string {
	var b strings.Builder
	var args []string
	if o.member != "" {
		args = append(args, "member "+o.member)
	}
	if o.op != history.JoinGroup && o.op != history.LeaveGroup {
		args = append(args, fmt.Sprintf("%s %d", o.genWord(), o.gen))
	}
	fmt.Fprintf(&b, "%s by %s", o.op, o.node)
	if len(args) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(args, ", "))
	}
	b.WriteString(" → " + o.result())
	if o.seq[1] != 0 {
		fmt.Fprintf(&b, " [seq %d–%d]", o.seq[0], o.seq[1])
	} else {
		fmt.Fprintf(&b, " [seq %d, no end]", o.seq[0])
	}
	if o.merged > 0 {
		fmt.Fprintf(&b, " and %d retries", o.merged)
	}
	return b.String()
}

func (o *operation) genWord() string {
	if o.op == history.ConsumerGroupHeartbeat {
		return "epoch"
	}
	return "gen"
}

// result is the response part of describe.
func (o *operation) result() string {
	if !o.answered {
		return "no answer"
	}
	s := o.err.String()
	switch {
	case o.op == history.JoinGroup && o.err == impl.None:
		s += fmt.Sprintf(" gen %d member %s leader %s", o.respGen, o.respMember, o.leader)
		if o.members != nil {
			s += " members " + strings.Join(o.members, ",")
		}
	case o.op == history.JoinGroup && o.err == impl.MemberIDRequired:
		s += " member " + o.respMember
	case o.op == history.SyncGroup && o.err == impl.None:
		s += " " + o.parts.String()
	case o.op == history.ConsumerGroupHeartbeat && o.err == impl.None:
		s += fmt.Sprintf(" member %s epoch %d", o.respMember, o.respGen)
		if o.hasParts {
			s += " " + o.parts.String()
		}
	}
	return s
}
