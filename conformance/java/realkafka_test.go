package java

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestRealKafka runs Kafka's own consumer against the broker at $KAFKA_BOOTSTRAP (a real
// Kafka 4.4.0 in CI; skipped without it): under classic cooperative-sticky and the consumer
// protocol (uniform; dynamic and static members), two members join a fresh group on a fresh
// topic written to every 200 ms and must end up owning every partition once between them, then a
// third joins, the first leaves, and the rest close. Their callbacks, commits and generations
// make a history the oracle checks. The harness's scenarios (TestConformance) run against the
// same broker with the wire tap; this test adds the static member's temporary leave.
func TestRealKafka(t *testing.T) {
	env := newRealKafka(t, "java-smoke-")
	classic := []string{"group.protocol=classic", "partition.assignment.strategy=" + cooperativeAssignor}
	kip848 := []string{"group.protocol=consumer", "group.remote.assignor=uniform"}
	for _, tc := range []smokeCase{
		{"cooperative-sticky", history.Classic, classic, false},
		{"kip848-uniform", history.Consumer, kip848, false},
		// The first member's leave is temporary (member epoch -2): Kafka hands its partitions
		// on when its session expires, which kfake never does (TestKfakeStaticLeaveNeverExpires).
		{"kip848-uniform-static", history.Consumer, kip848, true},
	} {
		for i := range h.Runs() { // -soak N: N runs each
			name := tc.name
			if h.Runs() > 1 {
				name = fmt.Sprintf("%s/run%d", tc.name, i)
			}
			t.Run(name, func(t *testing.T) { smoke(t, env, tc) })
		}
	}
}

// smokeCase is one protocol of TestRealKafka.
type smokeCase struct {
	name, proto string
	settings    []string
	static      bool
}

// smoke is one TestRealKafka run.
func smoke(t *testing.T, env *realKafka, tc smokeCase) {
	r := env.newRun(t, "java-smoke-"+tc.name)
	defer r.close()
	opt := options{settings: tc.settings, static: tc.static}
	r.start("a", tc.proto, opt)
	r.start("b", tc.proto, opt)
	r.settle("a", "b")
	r.start("c", tc.proto, opt)
	r.settle("a", "b", "c")
	r.leave("a")
	r.settle("b", "c")
	r.leave("b")
	r.leave("c")
	r.judge()
}

// realKafka is the broker at $KAFKA_BOOTSTRAP (the test is skipped without it), an admin
// client of it, the built driver and a directory for the members' logs.
type realKafka struct {
	b     Build
	admin *kgo.Client
	adm   *kadm.Client
	addr  string
	logs  string
}

func newRealKafka(t *testing.T, logPrefix string) *realKafka {
	t.Helper()
	addr := os.Getenv("KAFKA_BOOTSTRAP")
	if addr == "" {
		t.Skip("KAFKA_BOOTSTRAP is not set")
	}
	b, err := Built()
	if err != nil {
		t.Fatal(err)
	}
	admin, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(admin.Close)
	logs, err := os.MkdirTemp("", logPrefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("members' logs in %s", logs)
	return &realKafka{b: b, admin: admin, adm: kadm.NewClient(admin), addr: addr, logs: logs}
}

// realRun is one group of Java consumers against the real broker: a fresh topic of four
// partitions written to every 200 ms, the members by node name, and the history their
// callbacks and commits make.
type realRun struct {
	*realKafka
	t       *testing.T
	ctx     context.Context
	cancel  context.CancelFunc
	run     string
	g       *group
	members map[string]*client
	// hold, if set, is called by each member's rebalance callback as it begins (before it
	// does anything): a test blocks there to hold a member inside its callback.
	hold func(name string, kind history.Kind, parts history.Parts)
}

func (env *realKafka) newRun(t *testing.T, name string) *realRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	r := &realRun{realKafka: env, t: t, ctx: ctx, cancel: cancel,
		run: fmt.Sprintf("%s-%d", name, time.Now().UnixNano()), g: newGroup(4), members: map[string]*client{}}
	if _, err := env.adm.CreateTopic(ctx, 4, 1, nil, r.run); err != nil {
		cancel()
		t.Fatalf("create topic %s: %v", r.run, err)
	}
	t.Cleanup(func() { env.adm.DeleteTopics(context.Background(), r.run) })
	go produce(ctx, env.admin, r.run, 4) // records to poll, so that the members commit
	return r
}

func (r *realRun) close() { r.cancel() }

// start starts member name under proto (history.Classic or history.Consumer) with opt's
// settings; a classic member takes JoinSafeTiming, as the kfake runs do.
func (r *realRun) start(name, proto string, opt options) {
	r.t.Helper()
	log, err := os.Create(filepath.Join(r.logs, r.run+"."+name+".log"))
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { log.Close() })
	tm := h.DefaultTiming
	if proto == history.Classic {
		tm = h.JoinSafeTiming
	}
	m := &standIn{g: r.g, name: name, proto: proto, tm: tm, log: log, hold: func(k history.Kind, p history.Parts) {
		if r.hold != nil {
			r.hold(name, k, p)
		}
	}}
	r.g.rec.Record(history.Event{Kind: history.Start, Node: name, Proto: proto})
	props := properties([]string{r.addr}, r.run, name, proto, tm, opt)
	c, err := launch(r.b, m, name, log, []string{r.run}, props, opt)
	if err != nil {
		r.t.Fatalf("start %s: %v", name, err)
	}
	r.t.Logf("%s (%s): JVM started and consumer created in %v", name, proto, c.startup.Round(time.Millisecond))
	r.members[name] = c
}

// settle waits until the live members own every partition between them, each once.
func (r *realRun) settle(live ...string) time.Duration {
	r.t.Helper()
	began := time.Now()
	if err := r.g.settled(r.ctx, live, time.Second); err != nil {
		r.t.Fatalf("%v; owned: %s", err, r.g.String())
	}
	took := time.Since(began)
	r.t.Logf("settled on %s in %v", r.g.String(), took.Round(time.Millisecond))
	return took
}

// leave closes member name's consumer (its revoke callback commits), recorded as a Close.
func (r *realRun) leave(name string) {
	r.t.Helper()
	lctx, lcancel := context.WithTimeout(r.ctx, 30*time.Second)
	defer lcancel()
	m := r.members[name]
	end := r.g.rec.Begin(history.Event{Kind: history.Close, Node: name, Proto: m.n.(*standIn).proto})
	err := m.Leave(lctx)
	x := history.Event{}
	if err != nil {
		x.Err = err.Error()
		r.t.Errorf("leave %s: %v", name, err)
	}
	end(x)
	delete(r.members, name)
}

// judge checks the run's history with the oracle, and keeps it beside the logs if it fails.
func (r *realRun) judge() oracle.Report {
	r.t.Helper()
	hist := r.g.rec.History()
	rep := oracle.Check(hist, oracle.Options{})
	commits := 0
	for _, e := range hist {
		if e.Kind == history.Commit && e.Phase == history.End {
			commits++
		}
	}
	r.t.Logf("oracle on the callbacks and commits (no wire tap): %d events, %d commits, %d violations, %d zombies",
		rep.Events, commits, len(rep.Violations), len(rep.Zombies))
	if !rep.OK() {
		r.t.Errorf("%s", rep)
		if f, err := os.Create(filepath.Join(r.logs, r.run+".jsonl")); err == nil {
			hist.Write(f)
			f.Close()
		}
	}
	return rep
}

// produce writes a record to each partition of topic every 200 ms until ctx ends.
func produce(ctx context.Context, cl *kgo.Client, topic string, parts int32) {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		for p := range parts {
			cl.Produce(ctx, &kgo.Record{Topic: topic, Partition: p, Value: []byte("x")}, nil)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// group is what the smoke run's members own, by their callbacks, and the history their
// callbacks and commits make.
type group struct {
	parts   int
	rec     *history.Recorder
	mu      sync.Mutex
	owned   map[string]map[int32]string // topic → partition → member name
	changed chan struct{}               // a callback changed ownership
}

func newGroup(parts int) *group {
	return &group{parts: parts, rec: history.NewRecorder(), owned: map[string]map[int32]string{},
		changed: make(chan struct{}, 1)}
}

// settled waits until the live members own every partition between them, each partition
// once, and no callback has changed that for quiet.
func (g *group) settled(ctx context.Context, live []string, quiet time.Duration) error {
	timer := time.NewTimer(quiet)
	defer timer.Stop()
	for {
		select {
		case <-g.changed:
			timer.Reset(quiet)
		case <-timer.C:
			if g.covered(live) {
				return nil
			}
			timer.Reset(quiet)
		case <-ctx.Done():
			return fmt.Errorf("not settled on %v: %v", live, ctx.Err())
		}
	}
}

func (g *group) covered(live []string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	n, owners := 0, map[string]bool{}
	for _, ps := range g.owned {
		for _, m := range ps {
			n++
			owners[m] = true
		}
	}
	for _, m := range live {
		if !owners[m] {
			return false
		}
	}
	return n == g.parts && len(owners) == len(live)
}

func (g *group) String() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var s []string
	for t, ps := range g.owned {
		for p, m := range ps {
			s = append(s, fmt.Sprintf("%s/%d=%s", t[len(t)-4:], p, m))
		}
	}
	sort.Strings(s)
	return strings.Join(s, " ")
}

// standIn is a smoke member's host: it keeps ownership in the group and records the
// member's callbacks, commits and generations.
type standIn struct {
	g      *group
	name   string
	proto  string // history.Classic or history.Consumer: the group.protocol it started with
	tm     h.Timing
	log    *os.File                                     // the JVM's stderr and the driver's log lines
	hold   func(kind history.Kind, parts history.Parts) // realRun.hold
	member string
	gen    int32
}

func (m *standIn) event(kind history.Kind, member string, gen int32) history.Event {
	return history.Event{Kind: kind, Node: m.name, Proto: m.proto, Member: member, Gen: gen}
}

func (m *standIn) Begin(kind history.Kind, member string, gen int32, parts history.Parts) func(string, int32) {
	m.Observe(member, gen)
	e := m.event(kind, member, gen)
	e.Parts = parts
	end := m.g.rec.Begin(e)
	m.hold(kind, parts)
	return func(member string, gen int32) { end(m.event("", member, gen)) }
}

func (m *standIn) BeginCommit(member string, gen int32, parts history.Parts, why string) func(string, int32, string) {
	e := m.event(history.Commit, member, gen)
	e.Parts, e.Note = parts, why
	end := m.g.rec.Begin(e)
	return func(member string, gen int32, err string) {
		x := m.event("", member, gen)
		x.Err = err
		end(x)
	}
}

// Observe records a Generation event when the member ID or generation changed (the driver
// calls it only from the JVM's events, one at a time).
func (m *standIn) Observe(member string, gen int32) {
	if member == "" || gen <= 0 || (member == m.member && gen == m.gen) {
		return
	}
	m.member, m.gen = member, gen
	m.g.rec.Record(m.event(history.Generation, member, gen))
}

func (m *standIn) Own(p history.Parts, add bool) {
	m.g.mu.Lock()
	for t, ps := range p {
		if m.g.owned[t] == nil {
			m.g.owned[t] = map[int32]string{}
		}
		for _, q := range ps {
			switch {
			case add:
				m.g.owned[t][q] = m.name
			case m.g.owned[t][q] == m.name:
				delete(m.g.owned[t], q)
			}
		}
	}
	m.g.mu.Unlock()
	select {
	case m.g.changed <- struct{}{}:
	default:
	}
}

func (m *standIn) Polled(int) {}
func (m *standIn) Jitter()    {}
func (m *standIn) Mark(format string, args ...any) {
	e := m.event(history.Mark, "", 0)
	e.Note = fmt.Sprintf(format, args...)
	m.g.rec.Record(e)
}
func (m *standIn) Logf(format string, args ...any)          { fmt.Fprintf(m.log, format+"\n", args...) }
func (m *standIn) Timing() h.Timing                         { return m.tm }
func (m *standIn) WatchCommits(func(string, int32, string)) {}
