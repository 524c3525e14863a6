package sarama

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	ibm "github.com/IBM/sarama"
	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// client is one Sarama ConsumerGroup driven by the harness. Sarama has no rebalance
// listener; the driver maps what Sarama does onto the history (docs/clients.md §4):
//
//   - assign: Sarama holds a partition (it lists it as owned in its next JoinGroup) from the
//     moment it processes its SyncGroup response, before any ConsumeClaim starts; the
//     OnAssignment hook of a wrapping BalanceStrategy runs right there, and records an assign
//     of what is new;
//   - revoke: a ConsumeClaim returning (the driver commits the partition's offset first), or
//     at the session's Cleanup for a claim whose ConsumeClaim never started; lost instead
//     when the session ended on a fencing or failure cause (context.Cause of the session's
//     context: UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, a heartbeat loop that gave up), after
//     which Kafka's contract forbids a commit.
//
// Sarama waits for every revoked ConsumeClaim to return before it rejoins (eager: before
// Cleanup and the next Consume; cooperative: revokeClaims before the follow-up JoinGroup),
// so a ConsumeClaim's return is the end of the release.
type client struct {
	n    *h.Node
	cg   ibm.ConsumerGroup
	stop context.CancelFunc
	done chan struct{} // the Consume loop returned

	commitMu sync.Mutex // one commit at a time: Commit flushes every marked offset
	outcome  chan commitOutcome

	mu      sync.Mutex
	sess    ibm.ConsumerGroupSession // the current session, for Group
	running map[tp]bool              // partitions whose ConsumeClaim is running
}

// tp is a topic partition.
type tp struct {
	topic     string
	partition int32
}

// commitOutcome is one OffsetCommit response as the node's wire tap decoded it.
type commitOutcome struct {
	member string
	gen    int32
	err    string
}

// start starts a Sarama consumer group member with the given strategies, in preference
// order (more than one: Protocol.Mixed).
func start(strategies ...func() ibm.BalanceStrategy) func(n *h.Node) (h.Client, error) {
	return func(n *h.Node) (h.Client, error) {
		tm := n.Timing()
		cfg := ibm.NewConfig()
		cfg.ClientID = n.Name
		cfg.Version = ibm.V4_0_0_0
		cfg.Net.Proxy.Enable, cfg.Net.Proxy.Dialer = true, n.Net()
		cfg.Metadata.RefreshFrequency = 500 * time.Millisecond // the leader's partition-count check
		cfg.Metadata.Retry.Backoff = 100 * time.Millisecond
		cfg.Consumer.Group.Session.Timeout = tm.Session
		cfg.Consumer.Group.Heartbeat.Interval = tm.Heartbeat
		cfg.Consumer.Group.Rebalance.Timeout = tm.Rebalance
		cfg.Consumer.Group.Rebalance.Retry.Backoff = 200 * time.Millisecond
		c := &client{n: n, done: make(chan struct{}), outcome: make(chan commitOutcome, 16), running: map[tp]bool{}}
		cfg.Consumer.Group.Rebalance.GroupStrategies = nil // NewConfig's default is range
		for _, strategy := range strategies {
			cfg.Consumer.Group.Rebalance.GroupStrategies = append(cfg.Consumer.Group.Rebalance.GroupStrategies,
				&watch{BalanceStrategy: strategy(), c: c})
		}
		cfg.Consumer.Offsets.AutoCommit.Enable = false
		cfg.Consumer.Offsets.Initial = ibm.OffsetOldest
		cfg.Consumer.MaxWaitTime = 100 * time.Millisecond
		cfg.Consumer.Return.Errors = true
		cg, err := ibm.NewConsumerGroup(n.Addrs(), n.Group(), cfg)
		if err != nil {
			return nil, err
		}
		c.cg = cg
		n.WatchCommits(func(member string, gen int32, err string) {
			select {
			case c.outcome <- commitOutcome{member, gen, err}:
			default:
			}
		})
		ctx, stop := context.WithCancel(context.Background())
		c.stop = stop
		go c.errors()
		go c.consume(ctx)
		return c, nil
	}
}

// consume is the application's loop: Consume returns at the end of every eager session
// (and of a cooperative one that failed), and is called again.
func (c *client) consume(ctx context.Context) {
	defer close(c.done)
	for ctx.Err() == nil {
		err := c.cg.Consume(ctx, c.n.Topics(), c)
		if errors.Is(err, ibm.ErrClosedConsumerGroup) {
			return
		}
		if err != nil {
			c.n.Logf("Consume: %v", err)
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
}

// errors drains Sarama's error channel into the node's log.
func (c *client) errors() {
	for err := range c.cg.Errors() {
		c.n.Logf("error: %v", err)
	}
}

// Group is the current session's member ID and generation (Sarama changes both inside a
// cooperative session).
func (c *client) Group() (string, int32) {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s == nil {
		return "", 0
	}
	return s.MemberID(), s.GenerationID()
}

// Leave closes the group: Sarama ends the session (every ConsumeClaim returns, each a revoke
// with its commit) and then sends LeaveGroup, under the lock Consume holds.
func (c *client) Leave(ctx context.Context) error { return c.loop().Leave(ctx) }

// Kill closes the group after the network went down.
func (c *client) Kill() { c.loop().Kill() }

func (c *client) loop() h.Loop {
	return h.Loop{Close: func() error { return c.cg.Close() }, Stop: c.stop, Done: c.done}
}

// Setup notes the session; the assignment is recorded per partition in ConsumeClaim.
func (c *client) Setup(s ibm.ConsumerGroupSession) error {
	c.mu.Lock()
	c.sess = s
	c.mu.Unlock()
	c.n.Observe(s.MemberID(), s.GenerationID())
	return nil
}

// Cleanup runs once every ConsumeClaim of the session has returned: what is still owned
// had a claim that never started, and is released here.
func (c *client) Cleanup(s ibm.ConsumerGroupSession) error {
	c.release(s, c.n.Owned(), c.lostCause(s))
	return nil
}

// assigned records what an assignment adds to what the node owns, and releases what it
// drops that no ConsumeClaim holds (a claim that never started).
func (c *client) assigned(a *ibm.ConsumerGroupMemberAssignment, gen int32) {
	member, _ := c.n.Joined()
	owned := c.n.Owned()
	added, dropped := history.Parts{}, history.Parts{}
	for t, ps := range a.Topics {
		for _, p := range ps {
			if !has(owned, t, p) {
				added[t] = append(added[t], p)
			}
		}
	}
	c.mu.Lock()
	for t, ps := range owned {
		for _, p := range ps {
			if !slices.Contains(a.Topics[t], p) && !c.running[tp{t, p}] {
				dropped[t] = append(dropped[t], p)
			}
		}
	}
	c.mu.Unlock()
	if len(dropped) > 0 {
		end := c.n.Begin(history.Revoke, member, gen, dropped)
		c.n.Own(dropped, false)
		end(member, gen)
	}
	if len(added) > 0 {
		end := c.n.Begin(history.Assign, member, gen, added)
		c.n.Own(added, true)
		c.n.Jitter()
		end(member, gen)
	}
}

// release records the revoke (or lost) of parts at the end of their claims.
func (c *client) release(s ibm.ConsumerGroupSession, parts history.Parts, lost bool) {
	if len(parts) == 0 {
		return
	}
	kind := history.Revoke
	if lost {
		kind = history.Lost
	}
	end := c.n.Begin(kind, s.MemberID(), s.GenerationID(), parts)
	c.n.Jitter()
	c.n.Own(parts, false)
	end(s.MemberID(), s.GenerationID())
}

// lostCause reports whether the session ended on a fencing or failure cause.
func (c *client) lostCause(s ibm.ConsumerGroupSession) bool {
	return s.Context().Err() != nil && fenced(context.Cause(s.Context()))
}

// ConsumeClaim processes one partition, committing what it processed every Timing.Commit;
// its return is the partition's release: a revoke with a commit, or a lost.
func (c *client) ConsumeClaim(s ibm.ConsumerGroupSession, claim ibm.ConsumerGroupClaim) error {
	me := tp{claim.Topic(), claim.Partition()}
	parts := history.Parts{me.topic: {me.partition}}
	c.mu.Lock()
	c.running[me] = true
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.running, me)
		c.mu.Unlock()
	}()
	// No Observe here: a cooperative session keeps its claims across generations and stores
	// the new generation only after OnAssignment has run (consumer_group_cooperative.go
	// rejoinCooperative), so a claim starting then reads the old one, and recording it would
	// show the member going back a generation it has already seen (burst on kfake).
	if !has(c.n.Owned(), me.topic, me.partition) { // the hook did not see it
		end := c.n.Begin(history.Assign, s.MemberID(), s.GenerationID(), parts)
		c.n.Own(parts, true)
		end(s.MemberID(), s.GenerationID())
	}
	next := int64(-1) // the offset after the last record processed
	tick := time.NewTicker(c.n.Timing().Commit)
	defer tick.Stop()
loop:
	for {
		// A careful application stops as soon as the session ends: a select with the
		// session's Done beside a ready message or tick picks among them at random, and a
		// claim that picked the tick once more would commit after its member learned that
		// it was removed (docs/real-kafka.md, finding 4).
		if s.Context().Err() != nil {
			break
		}
		select {
		case m, ok := <-claim.Messages():
			if !ok {
				break loop
			}
			next = m.Offset + 1
			c.n.Polled(1)
		case <-tick.C:
			c.commit(s, claim, next, "poll")
		case <-s.Context().Done():
			break loop
		}
	}
	if c.lostCause(s) {
		c.release(s, parts, true)
		return nil
	}
	end := c.n.Begin(history.Revoke, s.MemberID(), s.GenerationID(), parts)
	c.n.Jitter()
	c.commit(s, claim, next, "revoke")
	c.n.Own(parts, false)
	end(s.MemberID(), s.GenerationID())
	return nil
}

func has(p history.Parts, topic string, partition int32) bool {
	return slices.Contains(p[topic], partition)
}

// fenced reports whether a session ended because the member lost its membership (the
// coordinator said so, or the heartbeat loop gave up on it) rather than for a rebalance or a
// close.
func fenced(cause error) bool {
	switch {
	case cause == nil, errors.Is(cause, context.Canceled), errors.Is(cause, ibm.ErrRebalanceInProgress),
		errors.Is(cause, ibm.ErrSessionPartitionCountChanged), errors.Is(cause, ibm.ErrSessionConsumeClaimExited):
		return false
	}
	return true
}

// commit marks and commits one partition's offset, recording the commit; its outcome is the
// OffsetCommit response the wire tap decoded, since Commit returns none.
func (c *client) commit(s ibm.ConsumerGroupSession, claim ibm.ConsumerGroupClaim, next int64, why string) {
	if next < 0 {
		return
	}
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	for len(c.outcome) > 0 { // a response to a commit nobody waits for any more
		<-c.outcome
	}
	member, gen := s.MemberID(), s.GenerationID()
	end := c.n.BeginCommit(member, gen, history.Parts{claim.Topic(): {claim.Partition()}}, why)
	s.MarkOffset(claim.Topic(), claim.Partition(), next, "")
	s.Commit()
	select {
	case o := <-c.outcome:
		end(o.member, o.gen, o.err)
	default:
		end(member, gen, "no OffsetCommit answered") // not sent (nothing new), or its connection failed
	}
}
