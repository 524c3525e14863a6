package confluent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// client is one librdkafka consumer (through confluent-kafka-go) driven by the harness.
// librdkafka runs the rebalance callback from the application's Poll (and from Close), so
// the driver records it there: AssignedPartitions is an assign, RevokedPartitions a revoke
// (the driver commits the revoked partitions first) or, when Consumer.AssignmentLost says
// so, a lost. The revoke ends before the driver calls Unassign: librdkafka takes that call
// as the release and may send its next JoinGroup before the callback returns (a soak run
// recorded the end after Unassign and the oracle rightly saw the next owner's assign begin
// first). Under the cooperative protocols (cooperative-sticky, and KIP-848's consumer)
// both carry the delta and the driver answers with IncrementalAssign/IncrementalUnassign;
// eager ones carry everything, answered with Assign/Unassign.
//
// librdkafka opens its own sockets, so its connections are tapped and cut on kfake's side
// (harness.Server, Protocol.ServerTap); the client ID is the node's name, which binds them.
// librdkafka does not expose its member ID and generation: they are the last ones its
// coordinator accepted, from the tap (Node.Joined).
type client struct {
	n    *h.Node
	c    *kafka.Consumer
	stop context.CancelFunc
	done chan struct{} // the poll loop returned

	mu         sync.Mutex
	next       map[string]map[int32]kafka.Offset // the offset after the last record polled
	lastCommit time.Time
	closing    bool
}

// start starts a librdkafka consumer with the given group settings.
func start(settings kafka.ConfigMap) func(n *h.Node) (h.Client, error) {
	return func(n *h.Node) (h.Client, error) {
		tm := n.Timing()
		cfg := kafka.ConfigMap{
			"bootstrap.servers":                  strings.Join(n.Addrs(), ","),
			"client.id":                          n.Name,
			"group.id":                           n.Group(),
			"enable.auto.commit":                 false,
			"auto.offset.reset":                  "earliest",
			"topic.metadata.refresh.interval.ms": 500,
			"fetch.wait.max.ms":                  100,
			"reconnect.backoff.ms":               50,
			"reconnect.backoff.max.ms":           500,
			"go.logs.channel.enable":             true,
			"debug":                              "cgrp",
		}
		for k, v := range settings {
			cfg[k] = v
		}
		if cfg["group.protocol"] != "consumer" {
			cfg["session.timeout.ms"] = int(tm.Session.Milliseconds())
			cfg["heartbeat.interval.ms"] = int(tm.Heartbeat.Milliseconds())
			// librdkafka's JoinGroup rebalance timeout is max.poll.interval.ms, which it requires
			// to be at least the session timeout.
			cfg["max.poll.interval.ms"] = int(max(tm.Rebalance, tm.Session).Milliseconds())
		}
		c, err := kafka.NewConsumer(&cfg)
		if err != nil {
			return nil, err
		}
		n.GenerationsFromTap()
		cl := &client{n: n, c: c, done: make(chan struct{}), next: map[string]map[int32]kafka.Offset{},
			lastCommit: time.Now()}
		go func() {
			for l := range c.Logs() {
				n.Logf("%s %s %s", l.Timestamp.Format("15:04:05.000"), l.Tag, l.Message)
			}
		}()
		if err := c.SubscribeTopics(n.Topics(), cl.rebalance); err != nil {
			c.Close()
			return nil, err
		}
		ctx, stop := context.WithCancel(context.Background())
		cl.stop = stop
		go cl.poll(ctx)
		return cl, nil
	}
}

// Group is the member ID and generation (epoch) the coordinator last accepted.
func (cl *client) Group() (string, int32) { return cl.n.Joined() }

// poll is the application's loop: Poll (which runs the rebalance callback), commit now and
// then.
func (cl *client) poll(ctx context.Context) {
	defer close(cl.done)
	for ctx.Err() == nil {
		switch e := cl.c.Poll(int(cl.n.Timing().Poll.Milliseconds())).(type) {
		case *kafka.Message:
			tp := e.TopicPartition
			cl.mu.Lock()
			if cl.next[*tp.Topic] == nil {
				cl.next[*tp.Topic] = map[int32]kafka.Offset{}
			}
			cl.next[*tp.Topic][tp.Partition] = tp.Offset + 1
			cl.mu.Unlock()
			cl.n.Polled(1)
		case kafka.Error:
			cl.n.Logf("error: %v", e)
		}
		cl.mu.Lock()
		due := time.Since(cl.lastCommit) >= cl.n.Timing().Commit
		cl.mu.Unlock()
		if due {
			cl.commit(nil, "poll")
		}
	}
}

// rebalance is the rebalance callback, run from Poll or Close.
func (cl *client) rebalance(c *kafka.Consumer, ev kafka.Event) error {
	cooperative := c.GetRebalanceProtocol() == "COOPERATIVE"
	switch e := ev.(type) {
	case kafka.AssignedPartitions:
		member, gen := cl.n.Joined()
		parts := toParts(e.Partitions)
		end := cl.n.Begin(history.Assign, member, gen, parts)
		cl.n.Own(parts, true)
		cl.n.Jitter()
		var err error
		if cooperative {
			err = c.IncrementalAssign(e.Partitions)
		} else {
			err = c.Assign(e.Partitions)
		}
		end(cl.n.Joined())
		return err
	case kafka.RevokedPartitions:
		member, gen := cl.n.Joined()
		parts := toParts(e.Partitions)
		kind := history.Revoke
		lost := c.AssignmentLost()
		if lost {
			kind = history.Lost
		}
		end := cl.n.Begin(kind, member, gen, parts)
		cl.n.Jitter()
		if !lost {
			cl.commit(parts, "revoke")
		}
		// The application is done with the partitions before it hands them back: librdkafka
		// takes the Unassign as the release and may rejoin before this callback returns.
		cl.n.Own(parts, false)
		cl.forget(parts)
		end(cl.n.Joined())
		if cooperative {
			return c.IncrementalUnassign(e.Partitions)
		}
		return c.Unassign()
	}
	return nil
}

// commit commits what was polled and not committed, in only (nil: everything), and records
// the commit with its outcome.
func (cl *client) commit(only history.Parts, why string) {
	cl.mu.Lock()
	cl.lastCommit = time.Now()
	var offs []kafka.TopicPartition
	parts := history.Parts{}
	for t, ps := range cl.next {
		for p, o := range ps {
			if only != nil && !contains(only[t], p) {
				continue
			}
			offs = append(offs, kafka.TopicPartition{Topic: &t, Partition: p, Offset: o})
			parts[t] = append(parts[t], p)
			delete(ps, p)
		}
	}
	cl.mu.Unlock()
	if len(offs) == 0 {
		return
	}
	member, gen := cl.n.Joined()
	end := cl.n.BeginCommit(member, gen, parts, why)
	res, err := cl.c.CommitOffsets(offs)
	x := ""
	if err != nil {
		x = kafkaErr(err)
	}
	for _, tp := range res {
		if x == "" && tp.Error != nil {
			x = kafkaErr(tp.Error)
		}
	}
	end(member, gen, x)
}

// forget drops the polled offsets of released partitions: they are no longer ours to commit.
func (cl *client) forget(parts history.Parts) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	for t, ps := range parts {
		for _, p := range ps {
			delete(cl.next[t], p)
		}
	}
}

// Leave stops the poll loop and closes the consumer: librdkafka revokes everything (the
// callback runs from Close, and commits) and leaves the group.
func (cl *client) Leave(ctx context.Context) error {
	cl.stop()
	<-cl.done
	errc := make(chan error, 1)
	go func() { errc <- cl.c.Close() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return fmt.Errorf("close: %v", ctx.Err())
	}
}

// Kill closes the consumer after its network went down; librdkafka's close cannot leave and
// gives up on its own timeouts.
func (cl *client) Kill() {
	cl.stop()
	<-cl.done
	cl.c.Close()
}

// kafkaErr names a librdkafka error: the Kafka error name for broker errors (librdkafka's
// positive codes are Kafka's), else librdkafka's text.
func kafkaErr(err error) string {
	var ke kafka.Error
	if errors.As(err, &ke) && ke.Code() > 0 {
		return h.ErrName(int16(ke.Code()))
	}
	return err.Error()
}

func toParts(tps []kafka.TopicPartition) history.Parts {
	p := history.Parts{}
	for _, tp := range tps {
		p[*tp.Topic] = append(p[*tp.Topic], tp.Partition)
	}
	return p
}

func contains(ps []int32, p int32) bool {
	for _, x := range ps {
		if x == p {
			return true
		}
	}
	return false
}
