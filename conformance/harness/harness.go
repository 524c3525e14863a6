package harness

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Group is the consumer group every node joins.
const Group = "g"

// Brokers is the size of the kfake cluster: more than one, so that a node cut from the
// coordinator still reaches the leaders of the partitions on the other brokers.
const Brokers = 3

// Topics are created at start with these partition counts.
var Topics = map[string]int32{"t1": 4, "t2": 2}

// Config configures a Harness.
type Config struct {
	Protocol Protocol
	Timing   Timing
	Seed     uint64        // jitter seed; runs are not reproducible from it, the history is
	Jitter   time.Duration // longest pause added to callbacks and between steps
	Logf     func(format string, args ...any)
}

// Harness is one kfake cluster and the consumers of one run, recording into one history. Its
// own kgo client creates the topics, produces, and describes the group for settling.
type Harness struct {
	cfg     Config
	cluster *kfake.Cluster
	addrs   []string
	rec     *history.Recorder
	obs     *Observer
	admin   *kgo.Client
	adm     *kadm.Client
	server  *Server // Protocol.ServerTap: taps on kfake's side

	mu    sync.Mutex
	nodes map[string]*Node
	parts map[string]int32 // topic → partition count now
	rng   *rand.Rand

	// injected: the harness had kfake answer with an error the coordinator's state does not
	// explain (Fence), so the history's coordinator answers are not all the coordinator's.
	injected bool

	produceStop context.CancelFunc
	produced    chan struct{}
	closeOnce   sync.Once
}

// New starts a cluster with short group timings and the topics seeded with records.
func New(ctx context.Context, cfg Config) (*Harness, error) {
	if cfg.Timing == (Timing{}) {
		cfg.Timing = cfg.Protocol.Timing
	}
	if cfg.Timing == (Timing{}) {
		cfg.Timing = DefaultTiming
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	rec := history.NewRecorder()
	h := &Harness{cfg: cfg, rec: rec, obs: NewObserver(rec), nodes: map[string]*Node{},
		parts: map[string]int32{}, rng: rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15))}
	ms := strconv.Itoa(int(cfg.Timing.Heartbeat.Milliseconds()))
	var listen []kfake.Opt
	if cfg.Protocol.ServerTap {
		h.server = NewServer()
		listen = append(listen, kfake.ListenFn(h.server.Listen))
	}
	c, err := kfake.NewCluster(append(listen, kfake.NumBrokers(Brokers),
		kfake.GroupMinSessionTimeout(100*time.Millisecond),
		kfake.BrokerConfigs(map[string]string{
			"group.consumer.heartbeat.interval.ms": ms,
			"group.consumer.session.timeout.ms":    strconv.Itoa(int(cfg.Timing.Session.Milliseconds())),
		}),
		kfake.WithLogger(h.obs))...)
	if err != nil {
		return nil, fmt.Errorf("kfake: %v", err)
	}
	h.cluster, h.addrs = c, c.ListenAddrs()
	if h.server != nil {
		h.server.setAddrs(h.addrs)
	}
	h.admin, err = kgo.NewClient(kgo.SeedBrokers(h.addrs...), kgo.ClientID("admin"),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.MetadataMinAge(100*time.Millisecond))
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("admin client: %v", err)
	}
	h.adm = kadm.NewClient(h.admin)
	if err := h.createTopics(ctx); err != nil {
		h.Close()
		return nil, err
	}
	pctx, stop := context.WithCancel(context.Background())
	h.produceStop, h.produced = stop, make(chan struct{})
	go h.produce(pctx)
	return h, nil
}

func (h *Harness) createTopics(ctx context.Context) error {
	names := make([]string, 0, len(Topics))
	for t, n := range Topics {
		names = append(names, t)
		if _, err := h.adm.CreateTopic(ctx, n, 1, nil, t); err != nil {
			return fmt.Errorf("create topic %s: %v", t, err)
		}
		h.parts[t] = n
	}
	ds, err := h.adm.ListTopics(ctx, names...)
	if err != nil {
		return fmt.Errorf("list topics: %v", err)
	}
	for _, d := range ds {
		if d.Err != nil {
			return fmt.Errorf("topic %s: %v", d.Topic, d.Err)
		}
		h.obs.SetTopic(d.ID, d.Topic)
	}
	return nil
}

// produce keeps every partition growing, so consumers fetch and have offsets to commit.
func (h *Harness) produce(ctx context.Context) {
	defer close(h.produced)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		h.mu.Lock()
		var rs []*kgo.Record
		for t, n := range h.parts {
			for p := int32(0); p < n; p++ {
				rs = append(rs, &kgo.Record{Topic: t, Partition: p, Value: []byte("x")})
			}
		}
		h.mu.Unlock()
		for _, r := range rs {
			h.admin.Produce(ctx, r, nil)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// jitter pauses for a random time up to Config.Jitter.
func (h *Harness) jitter() {
	if h.cfg.Jitter <= 0 {
		return
	}
	h.mu.Lock()
	d := time.Duration(h.rng.Int64N(int64(h.cfg.Jitter)))
	h.mu.Unlock()
	time.Sleep(d)
}

// History returns the history recorded so far, every open interval closed.
func (h *Harness) History() history.History { return h.rec.History() }

// Observer returns the run's broker-side observer.
func (h *Harness) Observer() *Observer { return h.obs }

// Cluster returns the kfake cluster.
func (h *Harness) Cluster() *kfake.Cluster { return h.cluster }

// Logs returns kfake's log and every node's client log, for the artifacts of a failed run.
func (h *Harness) Logs() map[string]string {
	logs := map[string]string{"kfake": h.obs.Log()}
	h.mu.Lock()
	defer h.mu.Unlock()
	for name, n := range h.nodes {
		logs[name] = n.log.String()
	}
	return logs
}

// Close stops everything: nodes still in the group are closed without recording (the run is
// over), then the cluster. A crashed node's background Close is waited for only briefly: it
// retries requests that can no longer reach any broker.
func (h *Harness) Close() { h.closeOnce.Do(h.close) }

func (h *Harness) close() {
	if h.produceStop != nil {
		h.produceStop()
		<-h.produced
	}
	h.mu.Lock()
	nodes := make([]*Node, 0, len(h.nodes))
	for _, n := range h.nodes {
		nodes = append(nodes, n)
	}
	h.mu.Unlock()
	h.rec.Record(history.Event{Kind: history.Mark, Node: Coordinator, Note: "run over"})
	var wg sync.WaitGroup
	for _, n := range nodes {
		if s := n.status(); s == closed || s == crashed {
			continue
		}
		n.setState(closed)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			if cl := n.cl(); cl != nil {
				cl.Leave(ctx)
			}
		}()
	}
	wg.Wait()
	h.cluster.Close()
	for _, n := range nodes {
		if n.gone == nil {
			continue
		}
		select {
		case <-n.gone:
		case <-time.After(5 * time.Second):
			h.cfg.Logf("crashed node %s: its client still retrying after the cluster closed", n.Name)
		}
	}
	if h.admin != nil {
		h.admin.Close()
	}
}

// live returns the nodes running and reachable, by name.
func (h *Harness) live() []*Node {
	h.mu.Lock()
	defer h.mu.Unlock()
	var ns []*Node
	for _, n := range h.nodes {
		if n.status() == running {
			ns = append(ns, n)
		}
	}
	sort.Slice(ns, func(i, j int) bool { return ns[i].Name < ns[j].Name })
	return ns
}

// partitions lists every partition now, as "topic/partition", sorted.
func (h *Harness) partitions() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var all []string
	for t, n := range h.parts {
		for p := int32(0); p < n; p++ {
			all = append(all, fmt.Sprintf("%s/%d", t, p))
		}
	}
	sort.Strings(all)
	return all
}

func (h *Harness) node(name string) (*Node, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n, ok := h.nodes[name]
	if !ok {
		return nil, fmt.Errorf("no node %q", name)
	}
	return n, nil
}

func (h *Harness) mark(node, format string, args ...any) {
	h.rec.Record(history.Event{Kind: history.Mark, Node: node, Note: fmt.Sprintf(format, args...)})
}

func joinSorted(ss []string) string {
	sort.Strings(ss)
	return strings.Join(ss, ",")
}
