package search

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// Options bound a search. The zero value uses DefaultBudget.
type Options struct {
	// Budget is the most reference states the search may generate to explain one recorded
	// answer (0: DefaultBudget). A search that needs more stops there and says "undecided at"
	// that event: it counts states, not seconds, so one input has one verdict on any machine.
	Budget int
	// Variant is the coordinator variant the history is judged against (impl.Kafka, the
	// default, as Apache Kafka ships; impl.KIP for KIP-423's JoinReason semantics).
	Variant impl.Variant
	// Simplest keeps, at each answer, only the behaviours that explain it with the fewest
	// timer firings. What it finds are behaviours of the reference, so its "ok" is as good
	// as the whole search's, and it is much cheaper (timers are most of the nondeterminism);
	// but a behaviour it dropped may have been the one a later answer needed, so its
	// "violated" is only a reason to run the whole search (Judge does both).
	Simplest bool
	// Shape is what the search knows of the whole history before it starts (ShapeOf, or a
	// first pass feeding Shape.Add). A KIP-848 history needs it: without it the search
	// judges classic histories only.
	Shape *Shape

	_ struct{} // keyed literals only
}

// DefaultBudget is the per-answer state budget when Options.Budget is 0.
const DefaultBudget = 200_000

// Verdicts of Result.Verdict.
const (
	OK        = "ok"        // some behaviour of the reference produces every recorded answer
	Violated  = "violated"  // no behaviour produces the answer at Result.Seq
	Undecided = "undecided" // the budget ran out at Result.Seq
	NotSearch = "not searched"
)

// Result is a search's verdict on one history.
type Result struct {
	Verdict string
	Seq     int64         // the event no behaviour produces, or where the budget ran out
	Event   history.Event // that event
	Detail  string        // one line: what happened at Seq
	// Before renders a few of the reference's states just before Seq, and Allowed the
	// answers the reference allows there (Violated only).
	Before  []string
	Allowed []string
	// States is the number of reference states generated in all; Requests the recorded
	// requests searched.
	States   int
	Requests int
	// Commits names the OffsetCommit rule of the broker, where the commits of a KIP-848
	// history tell it (commitRule): "" while every behaviour found allows either.
	Commits string
}

// maxShown bounds the states a failure renders.
const maxShown = 3

// Checker searches the reference for a behaviour that produces a history fed to it one event
// at a time (Add), in Seq order, validated. It holds the frontier (the reference states that
// explain the history so far) and the events from the oldest request whose end is not read
// yet: a request is searched from its begin knowing its recorded answer, so that a behaviour
// that answers it otherwise dies at once, and a JoinGroup without member id learns the member
// id the coordinator handed out. The window is as long as the longest request.
type Checker struct {
	o        Options
	frontier []config
	queue    []history.Event         // events not yet searched, in order
	ahead    map[int64]history.Event // a request's recorded end, by interval id
	blocked  map[int64]history.Event // requests whose end is not read yet: their begins
	// crashed: requests ended at their node's crash (crash), whose recorded ends are to come;
	// cut: those whose end at the crash is queued; dying: those whose end at the crash was
	// searched, left as orphans until the next answer.
	crashed, cut, dying map[int64]bool
	outside             outsiders // client commits from outside the group, begun, not ended
	conns               impl.Conn // connections handed out: one per request, never reused
	res                 Result
	done                bool
	buf                 []byte
	at                  int64 // the seq of the event searched (keyView)
}

// New is a Checker at the start of a history: an Empty group.
func New(o Options) *Checker {
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	start := []config{{coord: coordinator.New(coordinator.Config{Variant: o.Variant})}}
	if o.Shape.Consumer() {
		// A new group starts at epoch 0, or at 1 from KAFKA-20268 on (Kafka 4.4).
		cl, _ := o.Shape.cluster()
		g := kip848.New(kip848.Config{Variant: o.Variant, CommitRule: kip848.CommitAssignmentEpochs}, cl) // commitRule
		start = []config{{consumer: true, kip: g}, {consumer: true, kip: g.StartingAt(1)}}
	}
	return &Checker{o: o, frontier: start, ahead: map[int64]history.Event{},
		blocked: map[int64]history.Event{}, crashed: map[int64]bool{}, cut: map[int64]bool{}, dying: map[int64]bool{},
		outside: outsiders{}, res: Result{Verdict: OK}}
}

// Add feeds the next event. Events after a verdict other than OK are ignored.
func (c *Checker) Add(e history.Event) error {
	if c.done {
		return nil
	}
	e = c.outside.asRequest(e)
	if e.Kind == history.Request && e.Phase == history.End && c.crashed[e.ID] {
		delete(c.crashed, e.ID)
		if _, answered := judged(e); answered {
			c.stop(e, NotSearch, fmt.Sprintf("seq %d: request id=%d of %s is answered after %s crashed (a crashed node observes nothing)", e.Seq, e.ID, e.Node, e.Node))
		}
		return nil // ended at the crash already
	}
	if e.Kind == history.Request && e.Phase == history.Begin {
		c.blocked[e.ID] = e
	}
	if _, ok := c.blocked[e.ID]; ok && e.Kind == history.Request && e.Phase == history.End {
		delete(c.blocked, e.ID)
		c.ahead[e.ID] = e
	}
	c.queue = append(c.queue, e)
	if e.Kind == history.Crash {
		c.crash(e)
	}
	for len(c.queue) > 0 && !c.done {
		h := c.queue[0]
		if _, ok := c.blocked[h.ID]; ok && h.Kind == history.Request && h.Phase == history.Begin {
			break
		}
		c.queue = c.queue[1:]
		if err := c.step(h); err != nil {
			return err
		}
	}
	if len(c.queue) == 0 {
		c.queue = nil // let the backing array go
	}
	return nil
}

// crash ends the requests of e's node still waiting for their recorded ends at e, the
// node's crash, as ends without an answer: a crashed node observes nothing more (its
// recorder records nothing from it: history.Recorder), so what it had sent is answered to
// nobody, and its recorded ends, when they come (Note Unfinished, at the end of the file),
// only repeat that; one that carries an answer makes the history not searched. Without this
// every event after the crash would wait in the queue for them, to the end of the history.
//
// Such a request the coordinator had not handled yet becomes an orphan (unanswered) that
// may still arrive until the next recorded answer, of any node, and is then dropped from
// every behaviour (end): a broker handles a dead client's request as soon as it reads it or
// never (the harness resets the node's connections at the crash: Harness.Crash), and the
// search does not let it arrive at any later time, where each such request would double
// every behaviour to the end of the history.
func (c *Checker) crash(e history.Event) {
	var ids []int64
	for id, b := range c.blocked {
		if b.Node == e.Node {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		b := c.blocked[id]
		delete(c.blocked, id)
		end := history.Event{Seq: e.Seq, T: e.T, Kind: b.Kind, Phase: history.End, ID: id, Node: b.Node,
			Proto: b.Proto, Op: b.Op, Member: b.Member, Gen: b.Gen, Note: history.Unfinished}
		c.ahead[id] = end
		c.crashed[id], c.cut[id] = true, true
		c.queue = append(c.queue, end)
	}
}

// Result is the verdict on what was fed so far: OK unless an answer was found impossible or
// the budget ran out.
func (c *Checker) Result() Result {
	r := c.res
	if r.Verdict == OK && len(c.queue) > 0 {
		r.Verdict, r.Seq = Undecided, c.queue[0].Seq
		r.Detail = fmt.Sprintf("the history ends before the answer to request id=%d", c.queue[0].ID)
	}
	var rules uint8
	for _, f := range c.frontier {
		rules |= f.commits.set()
	}
	switch {
	case !c.o.Shape.Consumer():
	case rules == exactRule.set():
		r.Commits = commitRuleNames[exactRule]
	case rules == kip1251Rule.set():
		r.Commits = commitRuleNames[kip1251Rule]
	}
	return r
}

// step searches one event.
func (c *Checker) step(e history.Event) error {
	c.at = e.Seq
	if e.Kind != history.Request {
		return nil
	}
	if e.Op == history.ConsumerGroupHeartbeat && !c.o.Shape.Consumer() {
		c.stop(e, NotSearch, "ConsumerGroupHeartbeat: a KIP-848 history needs Options.Shape (search.ShapeOf)")
		return nil
	}
	if e.Phase == history.Begin {
		return c.begin(e)
	}
	return c.end(e)
}

func (c *Checker) stop(e history.Event, verdict, detail string) {
	c.res.Verdict, c.res.Seq, c.res.Event, c.res.Detail, c.done = verdict, e.Seq, e, detail, true
	c.frontier, c.queue = nil, nil
}

// begin adds a sent request to every behaviour, waiting for the coordinator.
func (c *Checker) begin(e history.Event) error {
	c.conns++
	conn := c.conns
	var r request
	var err error
	if c.o.Shape.Consumer() {
		r, err = consumerRequest(e, conn, c.ahead[e.ID], c.o.Shape)
	} else {
		r, err = classicRequest(e, conn, c.ahead[e.ID])
	}
	if err != nil {
		return err
	}
	delete(c.ahead, e.ID)
	c.res.Requests++
	o := open{id: e.ID, req: &r}
	for i, f := range c.frontier {
		at := len(f.open)
		for at > 0 && f.open[at-1].id > e.ID {
			at--
		}
		f.open = slices.Insert(slices.Clone(f.open), at, o)
		c.frontier[i] = f
	}
	return nil
}

// end matches a recorded end against every behaviour.
func (c *Checker) end(e history.Event) error {
	code, ok := judged(e)
	if !ok {
		c.unanswered(e)
		return nil
	}
	matched, _, err := c.closure(e, code)
	if err != nil {
		c.stop(e, Undecided, err.Error())
		return nil
	}
	if len(matched) == 0 {
		c.fail(e, code)
		return nil
	}
	if len(c.dying) > 0 {
		// A crashed node's orphans could arrive up to this answer, and not after (crash).
		for i, s := range matched {
			matched[i].open = slices.DeleteFunc(slices.Clone(s.open), func(o open) bool { return c.dying[o.id] })
		}
		clear(c.dying)
	}
	c.frontier = c.dedup(matched)
	return nil
}

// unanswered: an end without an answer takes the request out of every behaviour where the
// coordinator handled it; where it did not, the request may still arrive (an orphan).
func (c *Checker) unanswered(e history.Event) {
	if c.cut[e.ID] {
		delete(c.cut, e.ID)
		c.dying[e.ID] = true
	}
	next := c.frontier[:0:0]
	for _, f := range c.frontier {
		i := f.find(e.ID)
		if f.open[i].status == waiting {
			o := f.open[i]
			o.status = orphan
			next = append(next, f.with(i, o))
		} else {
			next = append(next, f.without(i))
		}
	}
	c.frontier = c.dedup(next)
}

// closure explores from the frontier every order of the coordinator's handling of the open
// requests and of its timers, up to the answer to request e.ID, and returns the behaviours
// whose answer matches e (with the request finished), and every state explored. A state
// whose answer is given is not explored further: what can follow it, the next event's
// closure explores.
//
// The exploration goes by levels of timers fired: level k holds the states reached with k
// timer firings and any handling of requests. Under Options.Simplest it stops at the first
// level with a match: those behaviours explain the answer with the fewest timers, and the
// ones with more are not kept (see Options.Simplest for why that is sound for "ok").
func (c *Checker) closure(e history.Event, code impl.ErrorCode) (matched, seen []config, err error) {
	index := states{}
	var level []config // the states of the current level, to fire timers from
	add := func(n config) bool {
		n = n.settleInert()
		if !c.fresh(index, n) {
			return true
		}
		seen = append(seen, n)
		level = append(level, n)
		c.res.States++
		return len(seen) <= c.o.Budget
	}
	for _, f := range c.frontier {
		f.via = nil
		add(f)
	}
	for from := 0; ; {
		// Close the level under the handling of requests.
		for k := from; k < len(seen); k++ {
			s := seen[k]
			i := s.find(e.ID)
			if s.open[i].status == answered {
				if matches(s.open[i].reply, s.open[i].same, e, code) {
					matched = append(matched, finish(s.without(i), e.Node))
				}
				continue
			}
			for j, o := range s.open {
				if o.status != waiting && o.status != orphan {
					continue
				}
				for _, n := range s.handle(j) {
					if !add(n) {
						return nil, nil, c.overBudget(e)
					}
				}
			}
		}
		if len(matched) > 0 && c.o.Simplest {
			return matched, seen, nil
		}
		// The next level: one more timer from every state of this one.
		prev := level
		level, from = nil, len(seen)
		for _, s := range prev {
			if s.open[s.find(e.ID)].status == answered {
				continue
			}
			for _, n := range s.timers() {
				if !add(n) {
					return nil, nil, c.overBudget(e)
				}
			}
		}
		if from == len(seen) {
			return matched, seen, nil
		}
	}
}

func (c *Checker) overBudget(e history.Event) error {
	return fmt.Errorf("the answer to request id=%d (%s %s) needs more than the budget of %d states", e.ID, e.Node, e.Op, c.o.Budget)
}

// finish is s after a node's answered request: its orphans took effect before it or never
// (a coordinator serves a connection in order).
func finish(s config, node string) config {
	s.open = slices.DeleteFunc(slices.Clone(s.open), func(o open) bool { return o.req.node == node && o.status == orphan })
	return s
}

// dedup drops repeated states, keeping the first of each (fresh).
func (c *Checker) dedup(cs []config) []config {
	// Behaviours under either commit rule first: the same state under one rule is one of them.
	slices.SortStableFunc(cs, func(a, b config) int { return cmp.Compare(b.commits.set(), a.commits.set()) })
	index := states{}
	out := cs[:0]
	for _, s := range cs {
		if c.fresh(index, s) {
			out = append(out, s)
		}
	}
	if c.o.Shape.Consumer() {
		out = slices.DeleteFunc(out, func(s config) bool { return c.subsumed(index, s) })
	}
	return out
}

// subsumed reports whether index holds a behaviour that allows everything s allows: s with
// one of its STABLE members in UNRELEASED_PARTITIONS instead, at the same epoch and previous
// epoch (as the key sees it), holding the same partitions. Such a member waits for
// partitions of its target that others still hold; the search re-chooses its target entry
// at every heartbeat (entries), and the entry that is its assignment moves it to STABLE at
// the same epoch with the same answer, while from STABLE the coordinator leaves it as it is
// (kip848.Reconcile): the same member record and answer, its previous epoch set to the
// member epoch both ways. At a new target epoch both compute the next assignment from the
// same fields (computeNextAssignment ignores the state it leaves); no timer is armed in
// either; commits and the other members read its epochs and partitions, not its state. So
// the UNRELEASED behaviour can do all the STABLE one does, and may also take the awaited
// partitions once they are free. Only dynamic consumer-protocol members with nothing pending
// are compared (a static member's temporary leave and a classic member read more). Kept
// behaviours are never the subsumed ones' only witness: a chain of subsumptions ends at one
// that is kept.
func (c *Checker) subsumed(index states, s config) bool {
	v := c.view()
	for _, m := range s.kip.Members() {
		if m.State != kip848.Stable || m.InstanceID != "" || m.Classic != nil || m.RebalanceTimer.Armed ||
			!m.PartitionsPendingRevocation.IsEmpty() || m.RevocationTargetEpoch != 0 ||
			m.PreviousMemberEpoch != m.MemberEpoch && v.prevRead(s, m) {
			continue
		}
		v.flip = m.ID
		c.buf = s.keyAs(c.buf, v)
		if seen, r := index[string(c.buf)], s.commits.set(); seen|r == seen {
			return true
		}
	}
	return false
}

// view is how the Checker's keys see a config at the event it searches (keyView).
func (c *Checker) view() keyView { return keyView{shape: c.o.Shape, at: c.at} }

// states are the configs seen, by key, each with the commit rules seen with it: a config
// whose rules (commitRule.set) were all seen with its key already is one of those behaviours.
type states map[string]uint8

// fresh records s in index and reports whether it is a behaviour not seen before.
func (c *Checker) fresh(index states, s config) bool {
	c.buf = s.keyAs(c.buf, c.view())
	seen, r := index[string(c.buf)], s.commits.set()
	if seen|r == seen {
		return false
	}
	index[string(c.buf)] = seen | r
	return true
}

// unconstrained is the closure of the frontier up to e's answer, whatever that answer is:
// the request's recorded end is set aside, so that the report can say what the reference
// would have answered.
func (c *Checker) unconstrained(e history.Event, code impl.ErrorCode) []config {
	saved, states := c.frontier, c.res.States
	defer func() { c.frontier, c.res.States = saved, states }()
	c.frontier = make([]config, len(saved))
	var free *request
	for i, f := range saved {
		j := f.find(e.ID)
		o := f.open[j]
		if free == nil {
			r := *o.req
			r.free = true
			free = &r
		}
		o.req = free
		c.frontier[i] = f.with(j, o)
	}
	_, seen, _ := c.closure(e, code)
	return seen
}

// fail records that no behaviour produces e: the states just before it, and what the
// reference would answer there.
func (c *Checker) fail(e history.Event, code impl.ErrorCode) {
	seen := c.unconstrained(e, code)
	allowed := map[string]bool{}
	var list []string
	waitingToo := false
	for _, s := range seen {
		i := s.find(e.ID)
		switch s.open[i].status {
		case answered:
			t := replyText(s.open[i].reply)
			if !allowed[t] {
				allowed[t] = true
				list = append(list, t)
			}
		default:
			waitingToo = true
		}
	}
	slices.Sort(list)
	if waitingToo {
		list = append(list, "no answer yet (the request is not handled, or parked)")
	}
	var before []string
	for _, f := range c.frontier[:min(len(c.frontier), maxShown)] {
		before = append(before, f.render())
	}
	if len(c.frontier) > maxShown {
		before = append(before, fmt.Sprintf("(and %d more)", len(c.frontier)-maxShown))
	}
	what := e.Err
	if what == "" {
		what = "NONE"
	}
	c.stop(e, Violated, fmt.Sprintf("seq %d: no behaviour of the reference coordinator answers request id=%d (%s %s) with %s", e.Seq, e.ID, e.Node, e.Op, endText(e, what)))
	c.res.Before, c.res.Allowed = before, list
}

func endText(e history.Event, what string) string {
	var b strings.Builder
	b.WriteString(what)
	if e.Op == history.JoinGroup && what == "NONE" {
		fmt.Fprintf(&b, " gen=%d member=%s leader=%s", e.Gen, orDash(e.Member), orDash(e.Leader))
		if len(e.Members) > 0 {
			fmt.Fprintf(&b, " members=(%s)", strings.Join(e.Members, " "))
		}
	}
	if e.Op == history.ConsumerGroupHeartbeat && what == "NONE" {
		fmt.Fprintf(&b, " member=%s epoch=%d", orDash(e.Member), e.Gen)
		switch {
		case len(e.Parts) > 0:
			b.WriteString(" assignment=" + parts(e.Parts).String())
		case e.Note == noteAssignmentNull:
			b.WriteString(" assignment unchanged")
		}
	}
	if e.Op == history.SyncGroup && what == "NONE" {
		b.WriteString(" assignment=" + parts(e.Parts).String())
	}
	return b.String()
}

// String renders the result for a person: the verdict line, then for a violation the states
// before the event and the answers allowed there.
func (r Result) String() string {
	var b strings.Builder
	switch r.Verdict {
	case OK:
		fmt.Fprintf(&b, "ok: a behaviour of the reference produces all %d requests (%d states)", r.Requests, r.States)
		if r.Commits != "" {
			b.WriteString("; its commits are judged by " + r.Commits)
		}
	default:
		fmt.Fprintf(&b, "%s at event %d: %s", r.Verdict, r.Seq, r.Detail)
	}
	if len(r.Before) > 0 {
		b.WriteString("\nthe reference's states just before it:")
		for _, s := range r.Before {
			b.WriteString("\n  " + strings.ReplaceAll(s, "\n", "\n  "))
		}
	}
	if len(r.Allowed) > 0 {
		b.WriteString("\nwhat the reference would answer there:")
		for _, a := range r.Allowed {
			b.WriteString("\n  " + a)
		}
	}
	return b.String()
}
