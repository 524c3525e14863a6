package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// prober runs schedules against one broker.
type prober struct {
	name     string // the broker, for reports: kfake or its address
	b        *broker
	topicIDs map[string][16]byte // every world's topics, by broker name
	runID    string              // makes group ids unique across runs on one broker
	seq      int
	// answer bounds the wait for a response the reference gives at once; a timer's wait
	// adds the timeout the schedule set.
	answer time.Duration
	trace  io.Writer // each step's reference events and broker answers; nil for none
}

func (p *prober) tracef(format string, args ...any) {
	if p.trace != nil {
		fmt.Fprintf(p.trace, format+"\n", args...)
	}
}

// outcome is one schedule's run.
type outcome struct {
	Steps, Requests, Responses, Equal int
	Exercised                         map[transition]bool
	Refused                           []string    // group configs the broker does not know
	Relabels                          int         // KIP-848 assignor choices matched by relabelling partitions
	EpochShift                        int32       // what the broker adds to KIP-848 epochs (KAFKA-20268)
	Diff                              *difference // the first step where broker and reference part
}

// difference is where a broker's answer differs from the reference's: the schedule up to
// and including that step, the step, and every differing field.
type difference struct {
	Schedule schedule
	Step     int
	Lines    []string
	// Replanned marks a difference a re-planned schedule met (replan).
	Replanned bool
}

func (d difference) String() string {
	return fmt.Sprintf("%s step %d (%s): %s", d.Schedule.World, d.Step+1, d.Schedule.Target, strings.Join(d.Lines, "; "))
}

// timing chooses a schedule's timeouts by replaying it in the reference: a member whose id
// the schedule lets expire gets a short session, and a schedule that waits for a join,
// sync or rebalance timer a short rebalance timeout; everything else is long, so that no
// timer fires where the schedule does not wait for it.
func timingFor(s schedule, cfg spec.Config) timing {
	t := timing{session: map[string]int32{}, rebalance: longMs, memberRebalance: map[string]int32{}}
	w := spec.Init(cfg)
	for _, a := range s.Actions {
		switch a.Kind {
		case spec.SessionExpiry, spec.PendingExpiry:
			name, _, _ := strings.Cut(string(a.Member), "#")
			t.session[name] = shortSession
		case spec.SyncTimeout:
			t.rebalance = shortRebalace
		case spec.RebalanceTimeout: // KIP-848: each member's own rebalance timeout
			name, _, _ := strings.Cut(string(a.Member), "#")
			t.memberRebalance[name] = shortRebalace
		case spec.JoinTimeout:
			if !w.Coord.InitialJoin() {
				t.rebalance = shortRebalace
			}
		}
		w, _ = spec.Next(w, a)
	}
	return t
}

// timerConflict reports whether s waits for a classic member's session to expire while the
// group is in a join or sync phase whose timer the schedule also made short: the broker's
// phase timer (the rebalance timeout) would fire first, which the reference, whose timers
// have no length, does not order. The probe cannot choose timeouts that realise both
// orders, so it does not run such a schedule (the report counts them).
func timerConflict(s schedule, cfg spec.Config) bool {
	t := timingFor(s, cfg)
	if cfg.ConsumerProtocol || t.rebalance == longMs {
		return false
	}
	w := spec.Init(cfg)
	for _, a := range s.Actions {
		if a.Kind == spec.SessionExpiry && (w.Coord.State() == coordinator.PreparingRebalance || w.Coord.State() == coordinator.CompletingRebalance) {
			return true
		}
		w, _ = spec.Next(w, a)
	}
	return false
}

// connOf is spec's connection numbering: six bits of incarnation per slot.
func connOf(slot int, incarnation uint8) impl.Conn { return impl.Conn(slot<<6 | int(incarnation)) }

// runSchedule drives the broker through s and compares every answer with the reference's.
func (p *prober) runSchedule(s schedule, cfg spec.Config) (outcome, error) {
	p.seq++
	group := fmt.Sprintf("probe-%s-%s-%d", p.runID, s.World, p.seq)
	o := outcome{Exercised: map[transition]bool{}}
	addr, err := p.b.coordinator(group)
	if err != nil {
		return o, err
	}
	n := newNames(topicPrefix(s.World), cfg.ConsumerProtocol)
	n.topicIDs = p.topicIDs
	for _, tm := range cfg.Topics {
		n.partitions[tm.Name] = tm.Partitions
	}
	t := timingFor(s, cfg)
	if cfg.ConsumerProtocol {
		session := int32(longMs)
		if len(t.session) > 0 {
			session = shortSession
		}
		refused, err := p.b.setGroupConfigs(group, groupConfigs(session))
		if err != nil {
			return o, err
		}
		o.Refused = refused
	}
	conns := map[impl.Conn]*wireConn{}
	defer func() {
		for _, c := range conns {
			c.close()
		}
	}()
	// unanswered: the reference requests sent on each connection that the broker has not
	// answered yet, oldest first (a broker answers a connection in order).
	unanswered := map[impl.Conn][]impl.Request{}
	part := func(step int, lines ...string) {
		o.Diff = &difference{Schedule: schedule{World: s.World, Actions: s.Actions[:step+1], Target: s.Target}, Step: step, Lines: lines}
	}
	w := spec.Init(cfg)
	for k, a := range s.Actions {
		next, ev, ok := spec.Step(w, a)
		if !ok {
			return o, fmt.Errorf("schedule %s step %d %q: not enabled in the reference", s.Target, k+1, a.Text(&cfg))
		}
		o.Steps++
		wait := p.answer
		var tick func() []string // run every keepEvery while the step waits
		p.tracef("step %d: %s", k+1, a.Text(&cfg))
		for _, e := range ev {
			p.tracef("    ref %s", e)
		}
		switch a.Kind {
		case spec.DeliverRequest:
			i := int(a.Slot)
			req := w.Slots[i].Out[0]
			c := conns[req.From()]
			if c == nil {
				if c, err = dial(addr, fmt.Sprintf("%s/%d", cfg.Members[i].Name, w.Slots[i].Incarnation)); err != nil {
					return o, err
				}
				conns[req.From()] = c
			}
			kreq, err := n.request(group, cfg.Members[i].Name, req, t)
			if err != nil {
				return o, err
			}
			if err := c.send(kreq); err != nil {
				return o, err
			}
			o.Requests++
			unanswered[req.From()] = append(unanswered[req.From()], req)
		case spec.SessionExpiry, spec.PendingExpiry:
			wait += shortSession * time.Millisecond
			tick = p.keepAlive(n, group, w, a.Member)
		case spec.JoinTimeout, spec.SyncTimeout, spec.RebalanceTimeout:
			wait += shortRebalace * time.Millisecond
		}
		for _, e := range ev {
			r, ok := e.(spec.ReplyEvent)
			if !ok {
				continue
			}
			conn, found := answeredConn(next, r, unanswered)
			c := conns[conn]
			if !found || c == nil {
				part(k, fmt.Sprintf("the reference answers %s on a connection with no request", r.Name))
				return o, nil
			}
			q := unanswered[conn]
			unanswered[conn] = q[1:]
			got, err := c.await(wait)
			if err == nil {
				err = got.err
			}
			if err != nil {
				part(k, fmt.Sprintf("reference answers %s, broker: %v", r, err))
				return o, nil
			}
			o.Responses++
			p.tracef("    broker -> %s: %s", r.Name, brokerText(n, got.resp))
			if diffs := compare(n, q[0], r.Response, got.resp); len(diffs) > 0 {
				part(k, append([]string{fmt.Sprintf("%s to %s: %s", kmsg.NameForKey(got.req.Key()), r.Name, brokerText(n, got.resp))}, diffs...)...)
				return o, nil
			}
			o.Equal++
		}
		if lines := p.sameView(group, next, n, wait, tick); len(lines) > 0 {
			part(k, lines...)
			return o, nil
		}
		if tr := transitionOf(w, a, ev); tr != "" {
			o.Exercised[tr] = true
		}
		w = next
		o.Relabels, o.EpochShift = n.relabels, n.epochShift
	}
	for conn, c := range conns {
		if i := int(conn >> 6); len(unanswered[conn]) == 0 && len(c.got) > 0 {
			r := <-c.got
			part(len(s.Actions)-1, fmt.Sprintf("the broker answered %s a request the reference keeps unanswered: %s", cfg.Members[i].Name, brokerText(n, r.resp)))
			return o, nil
		}
	}
	return o, nil
}

// answeredConn is the connection a reference reply goes to: the slot's current one, or,
// for a reply nobody reads (dropped), the slot's connection whose oldest unanswered
// request it answers. The broker's answer is compared either way: the coordinator's
// answer is defined whether or not its reader is still there.
func answeredConn(w spec.World, r spec.ReplyEvent, unanswered map[impl.Conn][]impl.Request) (impl.Conn, bool) {
	if !r.Dropped {
		c := connOf(r.Slot, w.Slots[r.Slot].Incarnation)
		return c, len(unanswered[c]) > 0
	}
	inc := w.Slots[r.Slot].Incarnation
	if p := w.Slots[r.Slot].Process; p == spec.Running || p == spec.Paused {
		inc-- // the current incarnation reads its connection: a dropped answer is an older one's
	}
	for ; ; inc-- {
		c := connOf(r.Slot, inc)
		if q := unanswered[c]; len(q) > 0 && answers(q[0], r.Response) {
			return c, true
		}
		if inc == 0 {
			return 0, false
		}
	}
}

// refView is the reference coordinator's group as a broker describes it.
func refView(w spec.World, n *names) groupView {
	if w.Config().ConsumerProtocol {
		g := w.Group
		v := groupView{State: strings.ToLower(g.State().String()), Epoch: n.epoch(g.GroupEpoch()), Assigned: int32(g.AssignmentEpoch()), Members: len(g.Members())}
		if g.GroupEpoch() > 0 { // the group exists: its target epoch is numbered like the group's
			v.Assigned += n.epochShift
		}
		return v
	}
	return groupView{State: w.Coord.State().String(), Members: len(w.Coord.Members())}
}

// sameView waits until the broker describes the group as the reference has it after the
// step, up to the deadline. A group the reference holds in a join phase the broker
// completes at once (joinAtOnce) is not compared: the next step is its join timer.
func (p *prober) sameView(group string, w spec.World, n *names, wait time.Duration, tick func() []string) []string {
	want := refView(w, n)
	if joinAtOnce(w) {
		return nil
	}
	deadline := time.Now().Add(wait)
	var ticked time.Time
	for {
		got, err := p.b.describe(group, w.Config().ConsumerProtocol)
		if err != nil {
			return []string{err.Error()}
		}
		if got == want || emptiedAtGroupEpoch(w, want, got) {
			return nil
		}
		// Keep the others alive only once the view shows the step has not happened yet: a
		// keep-alive that reaches the broker after the expiry would move the group on.
		if tick != nil && time.Since(ticked) > keepEvery {
			if lines := tick(); lines != nil {
				return lines
			}
			ticked = time.Now()
		}
		if time.Now().After(deadline) {
			return []string{fmt.Sprintf("group: reference %s, broker %s", want, got)}
		}
		_ = p.b.pause()
	}
}

// emptiedAtGroupEpoch reports whether the broker's view is the reference's but for
// KAFKA-20442 (Kafka 4.4): a KIP-848 group that loses its last member by a fence or a leave
// writes its target assignment epoch up to the group epoch, where the reference (and Kafka
// before it) leaves the target epoch behind until the next member joins.
func emptiedAtGroupEpoch(w spec.World, want, got groupView) bool {
	if !w.Config().ConsumerProtocol || want.State != "empty" || want.Members != 0 {
		return false
	}
	want.Assigned = want.Epoch
	return got == want
}

// keepAlive is, for a step that lets a KIP-848 member's session expire, what keeps every
// other member of the group alive meanwhile: the group's session timeout is short for all
// of them, and only one is to expire. It heartbeats each other member (on the admin
// connection: a broker binds no member to a connection) where the reference shows that
// such a heartbeat changes nothing. Classic members need none: only the expiring member
// has a short session. It returns nil when there is nothing to keep alive.
func (p *prober) keepAlive(n *names, group string, w spec.World, expiring impl.MemberID) func() []string {
	if !w.Config().ConsumerProtocol {
		return nil
	}
	var reqs []impl.ConsumerGroupHeartbeatRequest
	for _, m := range w.Group.Members() {
		if m.ID != expiring && quietHeartbeat(w, m) {
			reqs = append(reqs, impl.ConsumerGroupHeartbeatRequest{MemberID: m.ID, MemberEpoch: m.MemberEpoch, InstanceID: m.InstanceID})
		}
	}
	if len(reqs) == 0 {
		return nil
	}
	return func() []string {
		for _, r := range reqs {
			q, err := n.heartbeat848(group, "", r, timing{})
			if err != nil {
				return []string{err.Error()}
			}
			resp, err := p.b.admin.roundTrip(q, adminWait)
			if err != nil {
				return []string{fmt.Sprintf("keep-alive heartbeat of %s: %v", r.MemberID, err)}
			}
			if g := resp.(*kmsg.ConsumerGroupHeartbeatResponse); g.ErrorCode != 0 {
				return []string{fmt.Sprintf("keep-alive heartbeat of %s: reference NONE, broker %s", r.MemberID, impl.ErrorCode(g.ErrorCode))}
			}
		}
		return nil
	}
}

// keepEvery is how often a waiting step keeps the other members' sessions alive.
const keepEvery = shortSession * time.Millisecond / 3

func topicPrefix(world string) string { return "probe-" + world + "-" }
