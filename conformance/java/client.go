package java

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// client is one KafkaConsumer in its own JVM, driven by the harness. The Go side is the
// application: the JVM's rebalance callbacks wait for it (process.go), so a callback's begin
// is recorded before the callback does anything and its end before the consumer goes on, and
// a commit's begin before the commit is sent.
type client struct {
	n    host
	name string
	p    *proc
	opt  options
	stop context.CancelFunc
	done chan struct{} // the poll loop returned

	mu         sync.Mutex
	member     string
	gen        int32
	stopped    bool          // the application stopped on a fatal error and closed the consumer
	fatal      chan failure  // what poll threw, for tests (dropped when full)
	startup    time.Duration // from exec to the consumer created
	lastCommit time.Time
	wire       wireCommit // the last OffsetCommit the tap decoded
}

// host is what a client reports to: the harness's node (h.Node), or a test's stand-in.
type host interface {
	Begin(kind history.Kind, member string, gen int32, parts history.Parts) func(member string, gen int32)
	BeginCommit(member string, gen int32, parts history.Parts, why string) func(member string, gen int32, err string)
	Own(p history.Parts, add bool)
	Observe(member string, gen int32)
	Polled(k int)
	Jitter()
	Mark(format string, args ...any)
	Logf(format string, args ...any)
	Timing() h.Timing
	WatchCommits(fn func(member string, gen int32, err string))
}

// wireCommit is an OffsetCommit as the tap decoded it: the member and generation the request
// carried and the first partition error.
type wireCommit struct {
	seq         int
	member, err string
	gen         int32
}

// options are what a protocol's members run with.
type options struct {
	settings []string // consumer properties, property=value
	// static makes the member static (KIP-345): group.instance.id is the node's name, or
	// instance where that is set (two members sharing one fence each other).
	static   bool
	instance string
	// onFatal is what the application does when poll throws: "continue" (catch it and poll
	// again, as a Java application may) or "stop" (close the consumer and exit, as the
	// reference clients stop).
	onFatal string
	started func(*client) // if set, called with each started client (tests)
}

// start starts a KafkaConsumer with the given options in a new JVM.
func start(opt options) func(n *h.Node) (h.Client, error) {
	return func(n *h.Node) (h.Client, error) {
		if n.Fault() != h.NoFault {
			return nil, fmt.Errorf("java driver: fault %s is not implemented", n.Fault())
		}
		b, err := Built()
		if err != nil {
			return nil, err
		}
		return launch(b, n, n.Name, n.Log(), n.Topics(), properties(n.Addrs(), n.Group(), n.Name, n.Proto(), n.Timing(), opt), opt)
	}
}

// launch starts a driver JVM and its consumer, and the application's poll loop.
func launch(b Build, n host, name string, log io.Writer, topics, props []string, opt options) (*client, error) {
	opt.onFatal = cmp.Or(opt.onFatal, "continue")
	began := time.Now()
	p, err := startProc(b, log)
	if err != nil {
		return nil, err
	}
	c := &client{n: n, name: name, p: p, opt: opt, done: make(chan struct{}), lastCommit: time.Now(), fatal: make(chan failure, 16)}
	n.WatchCommits(func(member string, gen int32, err string) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.wire = wireCommit{seq: c.wire.seq + 1, member: member, gen: gen, err: err}
	})
	cmd := append([]string{"start", "topics=" + strings.Join(topics, ","), "on.fatal=" + opt.onFatal}, props...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = p.send("%s", strings.Join(cmd, " "))
	if err == nil {
		_, err = c.await(ctx, "started")
	}
	if err != nil {
		p.kill()
		return nil, err
	}
	c.startup = time.Since(began)
	n.Logf("jvm ready and consumer created in %v", c.startup.Round(time.Millisecond))
	ctx, stop := context.WithCancel(context.Background())
	c.stop = stop
	go c.poll(ctx)
	if opt.started != nil {
		opt.started(c)
	}
	return c, nil
}

// properties are the consumer's configuration: the harness's timings, manual commits, short
// metadata and reconnect intervals, the node's name as client ID (harness.Server binds the
// connections by it), then the protocol's settings.
func properties(addrs []string, group, name, proto string, tm h.Timing, opt options) []string {
	ms := func(d time.Duration) string { return fmt.Sprint(d.Milliseconds()) }
	p := []string{
		"bootstrap.servers=" + strings.Join(addrs, ","),
		"client.id=" + name,
		"group.id=" + group,
		"enable.auto.commit=false",
		"auto.offset.reset=earliest",
		"max.poll.interval.ms=" + ms(tm.Rebalance), // the rebalance timeout of both protocols
		"metadata.max.age.ms=500",
		"fetch.max.wait.ms=100",
		"reconnect.backoff.ms=50",
		"reconnect.backoff.max.ms=500",
		"retry.backoff.ms=50",
		"retry.backoff.max.ms=500",
		"request.timeout.ms=10000",
		"default.api.timeout.ms=10000",
	}
	if proto == history.Classic {
		// Under group.protocol=consumer the broker sets both, and the consumer refuses them.
		p = append(p, "session.timeout.ms="+ms(tm.Session), "heartbeat.interval.ms="+ms(tm.Heartbeat))
	}
	if opt.static {
		p = append(p, "group.instance.id="+cmp.Or(opt.instance, name))
	}
	return append(p, opt.settings...)
}

// Group is the member ID and generation (member epoch) from the consumer's groupMetadata() in
// its last event.
func (c *client) Group() (string, int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.member, c.gen
}

// poll is the application's loop: poll, commit now and then.
func (c *client) poll(ctx context.Context) {
	defer close(c.done)
	for ctx.Err() == nil {
		if err := c.p.send("poll %d", c.n.Timing().Poll.Milliseconds()); err != nil {
			return
		}
		e, err := c.await(context.Background(), "polled")
		if err != nil {
			c.n.Logf("poll: %v", err)
			return
		}
		c.n.Polled(e.Records)
		if e.Error != nil {
			c.n.Mark("poll threw %s; the application's reaction: %s", e.Error, e.Reaction)
			select {
			case c.fatal <- *e.Error:
			default:
			}
			if e.Reaction == "stop" {
				c.mu.Lock()
				c.stopped = true
				c.mu.Unlock()
				if _, err := c.await(context.Background(), "closed"); err != nil {
					c.n.Logf("stop: %v", err)
				}
				return
			}
		}
		c.mu.Lock()
		due := time.Since(c.lastCommit) >= c.n.Timing().Commit
		c.mu.Unlock()
		if due {
			if err := c.commit(context.Background(), "poll"); err != nil {
				c.n.Logf("commit: %v", err)
				return
			}
		}
	}
}

// await runs the driver's callbacks until the event want arrives, and returns it.
func (c *client) await(ctx context.Context, want string) (event, error) {
	for {
		e, err := c.p.next(ctx)
		if err != nil {
			return e, err
		}
		if e.Member != nil {
			c.mu.Lock()
			c.member, c.gen = *e.Member, e.Gen
			c.mu.Unlock()
			if e.Gen > 0 {
				c.n.Observe(*e.Member, e.Gen)
			}
		}
		switch {
		case e.Ev == want:
			return e, nil
		case e.Ev == "assigned" || e.Ev == "revoked" || e.Ev == "lost":
			if err := c.callback(ctx, e); err != nil {
				return e, err
			}
		default:
			return e, fmt.Errorf("driver: want event %q, have %q", want, e.Ev)
		}
	}
}

// callback is the application's rebalance listener: an assign takes the partitions, a revoke
// commits what it polled and gives them up, a lost gives them up without committing.
func (c *client) callback(ctx context.Context, e event) error {
	parts := toParts(e.Parts)
	member := *e.Member
	kind := map[string]history.Kind{"assigned": history.Assign, "revoked": history.Revoke, "lost": history.Lost}[e.Ev]
	end := c.n.Begin(kind, member, e.Gen, parts)
	switch kind {
	case history.Assign:
		c.n.Own(parts, true)
		c.n.Jitter()
	case history.Revoke:
		c.n.Jitter()
		if err := c.commit(ctx, "revoke"); err != nil {
			return err
		}
		c.n.Own(parts, false)
	case history.Lost:
		c.n.Own(parts, false)
		c.n.Jitter()
	}
	end(member, e.Gen)
	return c.p.send("return")
}

// commit has the driver commit what it polled, recording the commit and its outcome. The
// outcome's name is the Kafka error where the exception carries one; where it does not (the
// classic consumer's CommitFailedException), the tap's OffsetCommit response says which.
func (c *client) commit(ctx context.Context, why string) error {
	c.mu.Lock()
	c.lastCommit = time.Now()
	c.mu.Unlock()
	if err := c.p.send("commit %s", why); err != nil {
		return err
	}
	e, err := c.await(ctx, "commit")
	if err != nil || len(e.Parts) == 0 {
		return err
	}
	member, gen := *e.Member, e.Gen
	end := c.n.BeginCommit(member, gen, toParts(e.Parts), why)
	c.mu.Lock()
	seen := c.wire.seq
	c.mu.Unlock()
	if err := c.p.send("go"); err != nil {
		return err
	}
	r, err := c.await(ctx, "committed")
	if err != nil {
		return err
	}
	c.mu.Lock()
	w := c.wire
	c.mu.Unlock()
	x := ""
	if w.seq != seen { // the commit reached the coordinator: record what the request carried
		member, gen = w.member, w.gen
	}
	if r.Error != nil {
		x = r.Error.name()
		if r.Error.Code == "" && w.seq != seen && w.err != "" {
			x = w.err
		}
		c.n.Logf("commit %s: %s", why, r.Error)
	}
	end(member, gen, x)
	return nil
}

// Leave stops the poll loop and closes the consumer: it revokes everything (the callback
// commits) and leaves the group.
func (c *client) Leave(ctx context.Context) error {
	c.stop()
	<-c.done
	c.mu.Lock()
	stopped := c.stopped
	c.mu.Unlock()
	if stopped {
		return nil // the application closed the consumer itself, on a fatal error
	}
	limit := 30 * time.Second
	if d, ok := ctx.Deadline(); ok {
		limit = time.Until(d)
	}
	if err := c.p.send("close %d", limit.Milliseconds()); err != nil {
		return err
	}
	e, err := c.await(ctx, "closed")
	if err != nil {
		c.p.kill()
		return fmt.Errorf("close: %v", err)
	}
	select {
	case <-c.p.exited:
	case <-ctx.Done():
		c.p.kill()
	}
	if e.Error != nil {
		return fmt.Errorf("close: %s", e.Error)
	}
	return nil
}

// Kill ends the JVM without leaving (SIGKILL), after its network went down.
func (c *client) Kill() {
	c.p.kill()
	c.stop()
	<-c.done
}

func toParts(m map[string][]int32) history.Parts {
	p := history.Parts{}
	for t, ps := range m {
		q := append([]int32(nil), ps...)
		sort.Slice(q, func(i, j int) bool { return q[i] < q[j] })
		p[t] = q
	}
	return p
}
