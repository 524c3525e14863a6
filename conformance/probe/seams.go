package main

import (
	"fmt"
	"time"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/impl/migration"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Mixed-group schedules (docs/protocol.md §9): classic members and consumer-protocol members
// in one group id, scripted request by request, each sent to the broker as raw protocol and
// each answer compared with impl/migration.Group's in the same state. The worlds of the
// probe's search are one protocol each; these are the seams between the two, written out
// because the reference world has no mixed-group preset to search yet.

// seamPrefix names the mixed schedules' topics on the broker; seamTopics are the reference's
// (one, "t", of 4 partitions), created with every world's.
const seamPrefix = "probe-seam-"

var seamTopics = map[string]int32{"t": 4}

// seamStep is one member's request. race: the next step's request is sent right behind this
// one, before its answer, and the reference takes whichever order the broker's answer to this
// one shows (see runSeam).
type seamStep struct {
	member string
	req    impl.Request
	// mk makes the request from the reference's state and what each classic member owns
	// (its last SyncGroup answer), when req is nil.
	mk   func(g migration.Group, owned map[string]impl.PartitionSet) impl.Request
	race bool
}

// request is the step's request in the reference state g.
func (st seamStep) request(g migration.Group, owned map[string]impl.PartitionSet) seamStep {
	if st.mk != nil {
		st.req = st.mk(g, owned)
	}
	return st
}

// seamSchedule is a scripted mixed-group schedule. known are its classified differences
// from the reference (docs/real-kafka.md): a difference line containing one of them is
// expected, any other fails the schedule. finding, when set, checks a run for what the
// schedule shows of Kafka, so that the test fails when Kafka stops showing it.
type seamSchedule struct {
	name    string
	steps   []seamStep
	known   []string
	finding func(seamRun) error
}

// seamRun is what one run of a schedule saw: every step's answers, the reference's and the
// broker's, the differences, and the order each race took.
type seamRun struct {
	lines []string
	diffs []string
	races []string
}

// seamConfig is the reference coordinator as conformance/kafka's broker runs it: migration
// policy bidirectional (Kafka 4.x's default), the uniform assignor, KIP-1251's commit rule
// (Kafka 4.3 on), no size limits.
func seamConfig() migration.Config {
	return migration.Config{Cluster: impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: seamTopics["t"]})}
}

// refDeliver is the reference's handling of one request.
func refDeliver(g migration.Group, req impl.Request, fresh impl.MemberID) (migration.Group, []impl.Reply) {
	if h, ok := req.(impl.ConsumerGroupHeartbeatRequest); ok {
		return g.Heartbeat(h, fresh)
	}
	return g.Handle(req, fresh)
}

// refJoinAtOnce fires the reference's join timer where the broker completes the join phase at
// once (group.initial.rebalance.delay.ms 0: a classic group's first join phase, or one with
// no members left; see realisable).
func refJoinAtOnce(g migration.Group) (migration.Group, []impl.Reply) {
	if c := g.Classic(); g.IsConsumer() || !c.EnabledJoinPhaseTimeout() || !(c.InitialJoin() || len(c.Members()) == 0) {
		return g, nil
	}
	return g.OnClassic(func(c coordinator.Group) (coordinator.Group, []impl.Reply) { return c.JoinPhaseTimeout() })
}

// seamConn is a member's connection with the reference requests it has sent that the
// reference has not answered yet, oldest first.
type seamConn struct {
	w       *wireConn
	pending []impl.Request
	early   *received // an answer read ahead (a race's), not yet compared
}

func (c *seamConn) await(d time.Duration) (received, error) {
	if r := c.early; r != nil {
		c.early = nil
		return *r, nil
	}
	return c.w.await(d)
}

// runSeam runs s once in a group of its own. Member names are the reference's member ids
// (fresh ids); the broker's are matched by first appearance, as in every schedule, and
// partitions are relabelled as in KIP-848 worlds until some proper subset of the topic has
// been exchanged (a leader's SyncGroup, a commit, an assignment).
func (p *prober) runSeam(s seamSchedule) (seamRun, error) {
	var run seamRun
	p.seq++
	group := fmt.Sprintf("probe-%s-seam-%s-%d", p.runID, s.name, p.seq)
	addr, err := p.b.coordinator(group)
	if err != nil {
		return run, err
	}
	if _, err := p.b.setGroupConfigs(group, groupConfigs(longMs)); err != nil {
		return run, err
	}
	n := newNames(seamPrefix, true)
	n.topicIDs = p.topicIDs
	for t, c := range seamTopics {
		n.partitions[t] = c
	}
	owned := map[string]impl.PartitionSet{}
	tm := timing{rebalance: longMs}
	conns := map[impl.Conn]*seamConn{}
	defer func() {
		for _, c := range conns {
			c.w.close()
		}
	}()
	send := func(st seamStep) error {
		c := conns[st.req.From()]
		if c == nil {
			w, err := dial(addr, st.member)
			if err != nil {
				return err
			}
			c = &seamConn{w: w}
			conns[st.req.From()] = c
		}
		kreq, err := n.request(group, st.member, shiftGeneration(n, st.req), tm)
		if err != nil {
			return err
		}
		c.pending = append(c.pending, st.req)
		return c.w.send(kreq)
	}
	// expect awaits the broker's answer to each reference reply, in order, and compares.
	expect := func(k int, replies []impl.Reply) error {
		for _, r := range replies {
			c := conns[r.To]
			if c == nil || len(c.pending) == 0 {
				return fmt.Errorf("step %d: the reference answers connection %d, which has no request", k+1, r.To)
			}
			sent := c.pending[0]
			c.pending = c.pending[1:]
			got, err := c.await(p.answer)
			if err != nil {
				run.diffs = append(run.diffs, fmt.Sprintf("step %d %s: reference %s %+v, broker: %v", k+1, c.w.name, requestFlavour(sent), r.Response, err))
				continue
			}
			if got.err != nil {
				return got.err
			}
			if a, ok := r.Response.(impl.SyncGroupResponse); ok && a.Error == impl.None {
				owned[c.w.name] = a.Assignment.Partitions
			}
			run.lines = append(run.lines, fmt.Sprintf("step %d %s %s: reference %+v; broker %s", k+1, c.w.name, requestFlavour(sent), r.Response, brokerText(n, got.resp)))
			for _, d := range compare(n, sent, shiftJoin(n, r.Response), got.resp) {
				run.diffs = append(run.diffs, fmt.Sprintf("step %d %s %s: %s", k+1, c.w.name, requestFlavour(sent), d))
			}
		}
		return nil
	}
	g := migration.New(seamConfig())
	for k := 0; k < len(s.steps); k++ {
		st := s.steps[k].request(g, owned)
		if err := send(st); err != nil {
			return run, err
		}
		before := g
		var out []impl.Reply
		g, out = refDeliver(g, st.req, impl.MemberID(st.member))
		if st.race && k+1 < len(s.steps) {
			// The join timer (delay 0) and the next request race at the broker: which came
			// first shows in this request's answer, a completed join or one the next request
			// answered. The reference takes the same order.
			next := s.steps[k+1].request(g, owned) // built before this step's answer: sent right behind it
			if err := send(next); err != nil {
				return run, err
			}
			c := conns[st.req.From()]
			got, err := c.w.await(p.answer)
			if err != nil {
				return run, err
			}
			// Three orders show in the answer: the join timer first (the join completes,
			// x leads), the heartbeat in the first join phase (REBALANCE_IN_PROGRESS), or
			// the heartbeat before the JoinGroup (a classic member of a consumer group: no
			// leader).
			jr, _ := got.resp.(*kmsg.JoinGroupResponse)
			c.early = &got
			var timer, out2 []impl.Reply
			switch {
			case jr != nil && jr.ErrorCode == 0 && jr.LeaderID != "":
				run.races = append(run.races, "join timer first")
				g, timer = refJoinAtOnce(g)
				g, out2 = refDeliver(g, next.req, impl.MemberID(next.member))
			case jr != nil && jr.ErrorCode == 0:
				run.races = append(run.races, "heartbeat before the JoinGroup")
				g, out2 = refDeliver(before, next.req, impl.MemberID(next.member))
				out2, out = nil, out2 // compared first: its epoch tells the numbering (names.learnShift)
				var join []impl.Reply
				g, join = refDeliver(g, st.req, impl.MemberID(st.member))
				out2 = join
			default:
				run.races = append(run.races, "heartbeat in the first join phase")
				g, out2 = refDeliver(g, next.req, impl.MemberID(next.member))
				g, timer = refJoinAtOnce(g)
			}
			if err := expect(k, append(append(out, timer...), out2...)); err != nil {
				return run, err
			}
			k++
			continue
		}
		var timer []impl.Reply
		g, timer = refJoinAtOnce(g)
		out = append(out, timer...)
		if !repliesTo(out, st.req.From()) {
			p.seamParked(group, g)
		}
		if err := expect(k, out); err != nil {
			return run, err
		}
	}
	// A request the reference still parks must not have been answered by the broker.
	for _, c := range conns {
		if len(c.pending) == 0 {
			continue
		}
		if got, err := c.w.await(300 * time.Millisecond); err == nil {
			run.diffs = append(run.diffs, fmt.Sprintf("end %s: reference parks %s, broker answered %s", c.w.name, requestFlavour(c.pending[0]), brokerText(n, got.resp)))
		}
	}
	return run, nil
}

func repliesTo(out []impl.Reply, c impl.Conn) bool {
	for _, r := range out {
		if r.To == c {
			return true
		}
	}
	return false
}

// seamParked waits, up to the answer deadline, until the broker's classic group has as many
// members as the reference's: a request the reference parks has no answer to wait for, and
// the next step's request, on another connection, must not overtake it.
func (p *prober) seamParked(group string, g migration.Group) {
	if g.IsConsumer() {
		return
	}
	want := len(g.Classic().AllMembers())
	for deadline := time.Now().Add(p.answer); time.Now().Before(deadline); time.Sleep(pollEvery) {
		if v, err := p.b.describe(group, false); err == nil && v.Members == want {
			return
		}
	}
}

// shiftGeneration numbers a classic request's generation as the broker does in a group that
// began as a consumer group: a classic member's generation is its member epoch, which Kafka
// 4.4 numbers from 1 (KAFKA-20268, names.epoch). OffsetCommit goes through names.epoch already.
// In a group converted from a classic one the shift is 0.
func shiftGeneration(n *names, r impl.Request) impl.Request {
	sh := impl.Generation(n.epochShift)
	switch q := r.(type) {
	case impl.SyncGroupRequest:
		if q.Generation > 0 {
			q.Generation += sh
		}
		return q
	case impl.HeartbeatRequest:
		if q.Generation > 0 {
			q.Generation += sh
		}
		return q
	}
	return r
}

// shiftJoin is a JoinGroup answer's generation as the broker numbers it (shiftGeneration).
func shiftJoin(n *names, r impl.Response) impl.Response {
	if j, ok := r.(impl.JoinGroupResponse); ok && j.Generation > 0 {
		j.Generation += impl.Generation(n.epochShift)
		return j
	}
	return r
}
