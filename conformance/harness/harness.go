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

// Group is the consumer group every node joins on kfake. On a broker at an address
// (Config.Bootstrap), which outlives the run, each run has its own group and topics, named
// with the run's prefix (Harness.GroupID, Node.Group).
const Group = "g"

// Brokers is the size of the kfake cluster: more than one, so that a node cut from the
// coordinator still reaches the leaders of the partitions on the other brokers.
const Brokers = 3

// Topics are created at start with these partition counts.
var Topics = map[string]int32{"t1": 4, "t2": 2}

// LateTopic is the topic a scenario with OpCreateTopic creates mid-run, with LatePartitions
// partitions. Every node of such a scenario subscribes to it from its start, as a deployment
// whose consumers are rolled out before the topic they read is created.
const (
	LateTopic      = "t3"
	LatePartitions = 2
)

// Config configures a Harness.
type Config struct {
	Protocol Protocol
	// Bootstrap, if set, is a broker to run against (host:port) instead of an in-process
	// kfake cluster: Apache Kafka's own, say (conformance/kafka). See external.go.
	Bootstrap string
	Timing    Timing
	Seed      uint64        // jitter seed; runs are not reproducible from it, the history is
	Jitter    time.Duration // longest pause added to callbacks and between steps
	Logf      func(format string, args ...any)
}

// Harness is one kfake cluster and the consumers of one run, recording into one history. Its
// own kgo client creates the topics, produces, and describes the group for settling.
type Harness struct {
	cfg     Config
	cluster *kfake.Cluster   // nil on a broker at an address
	addrs   []string         // what clients bootstrap from
	brokers map[string]int32 // every broker address clients dial → its node ID
	group   string
	topics  map[string]string // Topics' name → this run's topic name
	proxy   *Proxy            // Protocol.ServerTap on a broker at an address
	watch   *watcher          // the broker's side of KIP-848 membership, on a broker at an address
	rec     *history.Recorder
	obs     *Observer
	admin   *kgo.Client
	adm     *kadm.Client
	server  *Server // Protocol.ServerTap: taps on kfake's side

	mu    sync.Mutex
	nodes map[string]*Node
	parts map[string]int32 // topic → partition count now
	rng   *rand.Rand

	late  bool                   // the scenario creates LateTopic: every node subscribes to it
	armed map[string]func() bool // node → whether its armed CrashMidJoin has fired

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
		parts: map[string]int32{}, rng: rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15)),
		group: Group, topics: map[string]string{}}
	for t := range Topics {
		h.topics[t] = t
	}
	h.topics[LateTopic] = LateTopic
	if cfg.Bootstrap != "" {
		if err := h.external(ctx); err != nil {
			h.Close()
			return nil, err
		}
	} else if err := h.kfake(); err != nil {
		return nil, err
	}
	if err := h.createTopics(ctx); err != nil {
		h.Close()
		return nil, err
	}
	pctx, stop := context.WithCancel(context.Background())
	h.produceStop, h.produced = stop, make(chan struct{})
	go h.produce(pctx)
	return h, nil
}

// kfake starts the in-process cluster and the admin client on it.
func (h *Harness) kfake() error {
	cfg := h.cfg
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
		return fmt.Errorf("kfake: %v", err)
	}
	h.cluster, h.addrs = c, c.ListenAddrs()
	h.brokers = map[string]int32{}
	for i, a := range h.addrs {
		h.brokers[a] = int32(i)
	}
	if h.server != nil {
		h.server.setAddrs(h.brokers)
	}
	if err := h.adminClient(); err != nil {
		c.Close()
		return err
	}
	return nil
}

func (h *Harness) adminClient() error {
	var err error
	h.admin, err = kgo.NewClient(kgo.SeedBrokers(h.adminSeeds()...), kgo.ClientID("admin"),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.MetadataMinAge(100*time.Millisecond))
	if err != nil {
		return fmt.Errorf("admin client: %v", err)
	}
	h.adm = kadm.NewClient(h.admin)
	return nil
}

// adminSeeds are the addresses the harness's own client dials: the brokers themselves, never
// the proxy.
func (h *Harness) adminSeeds() []string {
	if h.cfg.Bootstrap != "" {
		return strings.Split(h.cfg.Bootstrap, ",")
	}
	return h.addrs
}

// GroupID is the run's consumer group.
func (h *Harness) GroupID() string { return h.group }

// Topic is the run's name of one of Topics.
func (h *Harness) Topic(name string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t, ok := h.topics[name]; ok {
		return t
	}
	return name
}

func (h *Harness) createTopics(ctx context.Context) error {
	names := make([]string, 0, len(Topics))
	for base, n := range Topics {
		t := h.Topic(base)
		names = append(names, t)
		r, err := h.adm.CreateTopic(ctx, n, 1, nil, t)
		if err == nil {
			err = r.Err
		}
		if err != nil {
			return fmt.Errorf("create topic %s: %v", t, err)
		}
		h.parts[t] = n
	}
	return h.awaitTopics(ctx, names)
}

// awaitTopics waits, up to 10 s, until the metadata lists every topic of names with a leader
// for each partition (a real broker creates topics asynchronously: a client that asked at
// once would see UNKNOWN_TOPIC_OR_PARTITION), and records their IDs.
func (h *Harness) awaitTopics(ctx context.Context, names []string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		ds, err := h.adm.ListTopics(ctx, names...)
		if err == nil {
			err = ds.Error()
		}
		if err == nil {
			for _, d := range ds {
				for _, p := range d.Partitions {
					if p.Leader < 0 || p.Err != nil {
						err = fmt.Errorf("topic %s partition %d has no leader yet", d.Topic, p.Partition)
					}
				}
			}
		}
		if err == nil && len(ds) == len(names) {
			for _, d := range ds {
				h.obs.SetTopic(d.ID, d.Topic)
			}
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("topics %v not served after 10s: %v", names, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
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

// Logs returns kfake's log (or, on a broker at an address, what the harness read from it)
// and every node's client log, for the artifacts of a failed run.
func (h *Harness) Logs() map[string]string {
	name := "kfake"
	if h.cluster == nil {
		name = "broker"
	}
	logs := map[string]string{name: h.obs.Log()}
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
	if h.watch != nil {
		h.watch.stop()
	}
	if h.cluster != nil {
		h.cluster.Close()
	} else {
		h.forget()
	}
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
	if h.proxy != nil {
		h.proxy.Close()
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
