package franzgo

import (
	"context"
	"sync"
	"time"

	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// client is one kgo consumer driven by the harness: its three callbacks, its commits and its
// poll loop, reported through the harness node.
type client struct {
	n    *h.Node
	cl   *kgo.Client
	stop context.CancelFunc
	done chan struct{} // the poll loop returned

	mu         sync.Mutex
	lastCommit time.Time
	processed  map[string]map[int32]kgo.EpochOffset // next offset after the last record polled
}

// start starts a kgo consumer with docs/clients.md §2's options, plus manual commits with
// BlockRebalanceOnPoll, so that the application's commits cannot race kgo's callbacks.
func start(opt kgo.Opt) func(n *h.Node) (h.Client, error) {
	return func(n *h.Node) (h.Client, error) {
		c := &client{n: n, done: make(chan struct{}), lastCommit: time.Now(),
			processed: map[string]map[int32]kgo.EpochOffset{}}
		tm := n.Timing()
		cl, err := kgo.NewClient(
			kgo.SeedBrokers(n.Addrs()...), kgo.ClientID(n.Name), kgo.Dialer(n.Net().DialContext),
			kgo.ConsumerGroup(n.Group()), kgo.ConsumeTopics(n.Topics()...), opt,
			kgo.SessionTimeout(tm.Session), kgo.HeartbeatInterval(tm.Heartbeat), kgo.RebalanceTimeout(tm.Rebalance),
			kgo.MetadataMaxAge(500*time.Millisecond), kgo.MetadataMinAge(100*time.Millisecond),
			kgo.FetchMaxWait(100*time.Millisecond), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
			kgo.DisableAutoCommit(), kgo.BlockRebalanceOnPoll(),
			kgo.OnPartitionsAssigned(c.onAssigned), kgo.OnPartitionsRevoked(c.onRevoked),
			kgo.OnPartitionsLost(c.onLost),
			kgo.WithLogger(kgo.BasicLogger(n.Log(), kgo.LogLevelInfo, nil)),
		)
		if err != nil {
			return nil, err
		}
		c.cl = cl
		ctx, stop := context.WithCancel(context.Background())
		c.stop = stop
		go c.poll(ctx)
		return c, nil
	}
}

// Group reads kgo's member ID and generation (epoch); safe inside callbacks (docs/clients.md §2).
func (c *client) Group() (string, int32) { return c.cl.GroupMetadata() }

// Leave stops the poll loop, then has kgo revoke everything (the revoke commits) and leave.
func (c *client) Leave(ctx context.Context) error {
	c.stop()
	<-c.done
	c.cl.AllowRebalance()
	err := c.cl.LeaveGroupContext(ctx)
	c.cl.Close()
	return err
}

// Kill closes kgo without leaving; its network is down, so Close retries until it gives up.
func (c *client) Kill() {
	c.stop()
	<-c.done
	c.cl.AllowRebalance()
	c.cl.Close()
}

// begin records a callback's begin with kgo's member and generation, and returns its end. It
// reads them from the client kgo hands the callback: the first assign can run before
// kgo.NewClient has returned, while c.cl is still nil.
func (c *client) begin(cl *kgo.Client, kind history.Kind, m map[string][]int32) func() {
	member, gen := cl.GroupMetadata()
	end := c.n.Begin(kind, member, gen, toParts(m))
	return func() { end(cl.GroupMetadata()) }
}

func (c *client) onAssigned(_ context.Context, cl *kgo.Client, m map[string][]int32) {
	end := c.begin(cl, history.Assign, m)
	c.n.Own(toParts(m), true)
	c.n.Jitter()
	end()
}

func (c *client) onRevoked(ctx context.Context, cl *kgo.Client, m map[string][]int32) {
	end := c.begin(cl, history.Revoke, m)
	if c.n.Fault() == h.LateCommit && len(m) > 0 {
		offs := c.processedOf(m) // handed to a worker that flushes them later
		c.n.Own(toParts(m), false)
		end()
		go func() {
			time.Sleep(c.n.Timing().LateAck / 2)
			c.commitOffsets(context.Background(), cl, offs, "late")
		}()
		return
	}
	if c.n.Fault() == h.EarlyRevokeAck && len(m) > 0 {
		c.n.Own(toParts(m), false) // kgo is told the partitions are free...
		go func() {                // ...while the application is still working on them
			time.Sleep(c.n.Timing().LateAck)
			end()
		}()
		return
	}
	c.n.Jitter()
	c.commitOffsets(ctx, cl, cl.UncommittedOffsets(), "revoke")
	c.n.Own(toParts(m), false)
	end()
}

func (c *client) onLost(_ context.Context, cl *kgo.Client, m map[string][]int32) {
	c.n.Own(toParts(m), false)
	if c.n.Fault() == h.SkipLost {
		return // the application never hears that it lost the partitions
	}
	end := c.begin(cl, history.Lost, m)
	c.n.Jitter()
	end()
}

// commitOffsets commits offs, recording the commit and its outcome. Commits happen only where
// kgo cannot be mid-rebalance: in the revoke callback, and between PollFetches and
// AllowRebalance (BlockRebalanceOnPoll).
func (c *client) commitOffsets(ctx context.Context, cl *kgo.Client, offs map[string]map[int32]kgo.EpochOffset, why string) {
	if len(offs) == 0 || ctx.Err() != nil {
		return
	}
	parts := history.Parts{}
	for t, ps := range offs {
		for p := range ps {
			parts[t] = append(parts[t], p)
		}
	}
	member, gen := cl.GroupMetadata()
	end := c.n.BeginCommit(member, gen, parts, why)
	cctx, cancel := context.WithTimeout(ctx, c.n.Timing().Commit*3)
	defer cancel()
	var cerr string
	cl.CommitOffsetsSync(cctx, offs, func(_ *kgo.Client, req *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
		if req.MemberID != "" {
			member, gen = req.MemberID, req.Generation
		}
		switch {
		case err != nil: // kgo passes a nil response with an error
			cerr = h.ErrString(err)
		case resp != nil:
			cerr = h.CommitErr(resp)
		}
	})
	end(member, gen, cerr)
	c.mu.Lock()
	c.lastCommit = time.Now()
	c.mu.Unlock()
}

// poll is the node's consume loop: poll, commit now and then, allow the rebalance.
func (c *client) poll(ctx context.Context) {
	defer close(c.done)
	for ctx.Err() == nil {
		pctx, cancel := context.WithTimeout(ctx, c.n.Timing().Poll)
		fs := c.cl.PollFetches(pctx)
		cancel()
		if fs.IsClientClosed() {
			return
		}
		c.n.Observe(c.cl.GroupMetadata())
		c.mu.Lock()
		k := 0
		fs.EachRecord(func(r *kgo.Record) {
			k++
			if c.processed[r.Topic] == nil {
				c.processed[r.Topic] = map[int32]kgo.EpochOffset{}
			}
			c.processed[r.Topic][r.Partition] = kgo.EpochOffset{Epoch: r.LeaderEpoch, Offset: r.Offset + 1}
		})
		due := time.Since(c.lastCommit) >= c.n.Timing().Commit
		c.mu.Unlock()
		c.n.Polled(k)
		if due {
			c.commitOffsets(ctx, c.cl, c.cl.UncommittedOffsets(), "poll")
		}
		c.cl.AllowRebalance()
	}
}

// processedOf returns the offsets processed in the partitions of m.
func (c *client) processedOf(m map[string][]int32) map[string]map[int32]kgo.EpochOffset {
	c.mu.Lock()
	defer c.mu.Unlock()
	offs := map[string]map[int32]kgo.EpochOffset{}
	for t, ps := range m {
		for _, p := range ps {
			if o, ok := c.processed[t][p]; ok {
				if offs[t] == nil {
					offs[t] = map[int32]kgo.EpochOffset{}
				}
				offs[t][p] = o
			}
		}
	}
	return offs
}

func toParts(m map[string][]int32) history.Parts {
	p := history.Parts{}
	for t, ps := range m {
		p[t] = append([]int32(nil), ps...)
	}
	return p
}
