package kafkago

import (
	"context"
	"errors"
	"sync"
	"time"

	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
	kafka "github.com/segmentio/kafka-go"
)

// client is one kafka-go ConsumerGroup driven by the harness. kafka-go's groups are eager
// and have no rebalance listener: a Generation (from ConsumerGroup.Next) carries the whole
// assignment, and ends, with the context of every function started on it, when its
// heartbeat fails for any reason (a rebalance, a fence, a lost connection) or the group
// closes; kafka-go joins the next generation only after all of those functions returned
// (consumergroup.go, nextGeneration and Generation.close). So the driver records:
//
//   - assign: Next returned a generation, with its assignment;
//   - revoke: the generation's context ended; the driver commits what it processed through
//     the generation's connection and returns. The application cannot tell a rebalance from
//     a fence (ctx.Err() is ErrGenerationEnded either way), so this is never a lost: a
//     commit of a fenced generation is refused by the coordinator (ILLEGAL_GENERATION).
type client struct {
	n    *h.Node
	cg   *kafka.ConsumerGroup
	stop context.CancelFunc
	done chan struct{} // the Next loop returned

	mu  sync.Mutex
	gen *kafka.Generation
}

// start starts a kafka-go consumer group member with the given balancer.
func start(balancer kafka.GroupBalancer) func(n *h.Node) (h.Client, error) {
	return func(n *h.Node) (h.Client, error) {
		tm := n.Timing()
		dialer := &kafka.Dialer{ClientID: n.Name, DialFunc: n.Net().DialContext, Timeout: 5 * time.Second}
		cg, err := kafka.NewConsumerGroup(kafka.ConsumerGroupConfig{
			ID: n.Group(), Brokers: n.Addrs(), Dialer: dialer, Topics: n.Topics(),
			GroupBalancers:    []kafka.GroupBalancer{balancer},
			HeartbeatInterval: tm.Heartbeat, SessionTimeout: tm.Session, RebalanceTimeout: tm.Rebalance,
			JoinGroupBackoff: 200 * time.Millisecond, WatchPartitionChanges: true,
			PartitionWatchInterval: 500 * time.Millisecond, StartOffset: kafka.FirstOffset,
			Timeout:     tm.Session,
			Logger:      kafka.LoggerFunc(n.Logf),
			ErrorLogger: kafka.LoggerFunc(n.Logf),
		})
		if err != nil {
			return nil, err
		}
		c := &client{n: n, cg: cg, done: make(chan struct{})}
		ctx, stop := context.WithCancel(context.Background())
		c.stop = stop
		go c.next(ctx, dialer)
		return c, nil
	}
}

// next is the application's loop: take each generation and consume its partitions until
// it ends.
func (c *client) next(ctx context.Context, dialer *kafka.Dialer) {
	defer close(c.done)
	for {
		gen, err := c.cg.Next(ctx)
		switch {
		case errors.Is(err, kafka.ErrGroupClosed), ctx.Err() != nil:
			return
		case err != nil:
			c.n.Logf("Next: %v", err)
			continue
		}
		c.mu.Lock()
		c.gen = gen
		c.mu.Unlock()
		parts := history.Parts{}
		for t, as := range gen.Assignments {
			for _, a := range as {
				parts[t] = append(parts[t], int32(a.ID))
			}
		}
		end := c.n.Begin(history.Assign, gen.MemberID, gen.ID, parts)
		c.n.Own(parts, true)
		c.n.Jitter()
		end(gen.MemberID, gen.ID)
		w := &work{c: c, gen: gen, next: map[string]map[int]int64{}}
		gen.Start(func(gctx context.Context) { w.run(gctx, dialer, parts) })
	}
}

// Group is the current generation's member ID and generation.
func (c *client) Group() (string, int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen == nil {
		return "", 0
	}
	return c.gen.MemberID, c.gen.ID
}

// Leave closes the group: kafka-go ends the generation (the driver's revoke commits), waits
// for it, and sends LeaveGroup.
func (c *client) Leave(ctx context.Context) error { return c.loop().Leave(ctx) }

// Kill closes the group after the network went down.
func (c *client) Kill() { c.loop().Kill() }

func (c *client) loop() h.Loop {
	return h.Loop{Close: func() error { return c.cg.Close() }, Stop: c.stop, Done: c.done}
}

// work consumes one generation's partitions.
type work struct {
	c   *client
	gen *kafka.Generation

	mu         sync.Mutex
	next       map[string]map[int]int64 // the offset after the last record processed
	lastCommit time.Time
}

// run reads every assigned partition from its committed offset until the generation ends,
// committing every Timing.Commit, then revokes everything with a last commit.
func (w *work) run(ctx context.Context, dialer *kafka.Dialer, parts history.Parts) {
	n := w.c.n
	rctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for t, as := range w.gen.Assignments {
		for _, a := range as {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w.read(rctx, dialer, t, a)
			}()
		}
	}
	tick := time.NewTicker(n.Timing().Commit)
	defer tick.Stop()
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-tick.C:
			w.commit("poll")
		}
	}
	cancel()
	wg.Wait()
	end := n.Begin(history.Revoke, w.gen.MemberID, w.gen.ID, parts)
	n.Jitter()
	w.commit("revoke")
	n.Own(parts, false)
	end(w.gen.MemberID, w.gen.ID)
}

// read fetches one partition from its assigned offset.
func (w *work) read(ctx context.Context, dialer *kafka.Dialer, topic string, a kafka.PartitionAssignment) {
	r := kafka.NewReader(kafka.ReaderConfig{Brokers: w.c.n.Addrs(), Topic: topic, Partition: a.ID,
		Dialer: dialer, MaxWait: 100 * time.Millisecond})
	defer r.Close()
	off := a.Offset
	if off < 0 {
		off = kafka.FirstOffset
	}
	if err := r.SetOffset(off); err != nil {
		w.c.n.Logf("SetOffset %s/%d: %v", topic, a.ID, err)
		return
	}
	for {
		m, err := r.ReadMessage(ctx)
		if err != nil {
			return
		}
		w.mu.Lock()
		if w.next[topic] == nil {
			w.next[topic] = map[int]int64{}
		}
		w.next[topic][a.ID] = m.Offset + 1
		w.mu.Unlock()
		w.c.n.Polled(1)
	}
}

// commit commits what was processed and not yet committed, recording it with its outcome.
func (w *work) commit(why string) {
	w.mu.Lock()
	offs := w.next
	w.next = map[string]map[int]int64{}
	w.mu.Unlock()
	if len(offs) == 0 {
		return
	}
	parts := history.Parts{}
	for t, ps := range offs {
		for p := range ps {
			parts[t] = append(parts[t], int32(p))
		}
	}
	end := w.c.n.BeginCommit(w.gen.MemberID, w.gen.ID, parts, why)
	err := w.gen.CommitOffsets(offs)
	x := ""
	if err != nil {
		x = kafkaErr(err)
	}
	end(w.gen.MemberID, w.gen.ID, x)
}

// kafkaErr names a kafka-go error by its Kafka name where it is one.
func kafkaErr(err error) string {
	var ke kafka.Error
	if errors.As(err, &ke) {
		return h.ErrName(int16(ke))
	}
	return err.Error()
}
