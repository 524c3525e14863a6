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
	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestRealKafka is a smoke run of the driver against the broker at $KAFKA_BOOTSTRAP (a real
// Kafka 4.4.0 in CI; skipped without it): under classic cooperative-sticky and the consumer
// protocol (uniform; dynamic and static members), two members join a fresh group on a fresh topic, must end up owning
// every partition once between them, then a third joins and the first leaves, and the rest
// close. It records no history: the oracle-checked scenarios run through the harness
// (TestConformance), which reaches kfake only until it takes a broker's address.
func TestRealKafka(t *testing.T) {
	addr := os.Getenv("KAFKA_BOOTSTRAP")
	if addr == "" {
		t.Skip("KAFKA_BOOTSTRAP is not set")
	}
	b, err := Built()
	if err != nil {
		t.Fatal(err)
	}
	admin, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	adm := kadm.NewClient(admin)
	logs, err := os.MkdirTemp("", "java-smoke-")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("members' logs in %s", logs)
	classic := []string{"group.protocol=classic", "partition.assignment.strategy=" + cooperativeAssignor}
	kip848 := []string{"group.protocol=consumer", "group.remote.assignor=uniform"}
	for _, tc := range []struct {
		name, proto string
		settings    []string
		static      bool
	}{
		{"cooperative-sticky", history.Classic, classic, false},
		{"kip848-uniform", history.Consumer, kip848, false},
		// The first member's leave is temporary (member epoch -2): Kafka hands its partitions
		// on when its session expires, which kfake never does (TestKfakeStaticLeaveNeverExpires).
		{"kip848-uniform-static", history.Consumer, kip848, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			run := fmt.Sprintf("java-smoke-%s-%d", tc.name, time.Now().UnixNano())
			if _, err := adm.CreateTopic(ctx, 4, 1, nil, run); err != nil {
				t.Fatalf("create topic %s: %v", run, err)
			}
			defer adm.DeleteTopics(context.Background(), run)
			g := newGroup(4)
			tm := h.DefaultTiming
			if tc.proto == history.Classic {
				tm = h.JoinSafeTiming
			}
			opt := options{settings: tc.settings, static: tc.static}
			members := map[string]*client{}
			startOne := func(name string) {
				t.Helper()
				log, err := os.Create(filepath.Join(logs, run+"."+name+".log"))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { log.Close() })
				m := &standIn{g: g, name: name, tm: tm, log: log}
				props := properties([]string{addr}, run, name, tc.proto, tm, opt)
				c, err := launch(b, m, name, log, []string{run}, props, opt)
				if err != nil {
					t.Fatalf("start %s: %v", name, err)
				}
				t.Logf("%s: JVM started and consumer created in %v", name, c.startup.Round(time.Millisecond))
				members[name] = c
			}
			settle := func(live ...string) {
				t.Helper()
				began := time.Now()
				if err := g.settled(ctx, live, time.Second); err != nil {
					t.Fatalf("%v; owned: %s", err, g.String())
				}
				t.Logf("settled on %s in %v", g.String(), time.Since(began).Round(time.Millisecond))
			}
			leave := func(name string) {
				t.Helper()
				lctx, lcancel := context.WithTimeout(ctx, 30*time.Second)
				defer lcancel()
				if err := members[name].Leave(lctx); err != nil {
					t.Errorf("leave %s: %v", name, err)
				}
			}
			startOne("a")
			startOne("b")
			settle("a", "b")
			startOne("c")
			settle("a", "b", "c")
			leave("a")
			settle("b", "c")
			leave("b")
			leave("c")
		})
	}
}

// group is what the smoke run's members own, by their callbacks.
type group struct {
	parts   int
	mu      sync.Mutex
	owned   map[string]map[int32]string // topic → partition → member name
	changed chan struct{}               // a callback changed ownership
}

func newGroup(parts int) *group {
	return &group{parts: parts, owned: map[string]map[int32]string{}, changed: make(chan struct{}, 1)}
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

// standIn is a smoke member's host: it keeps ownership in the group and records nothing else.
type standIn struct {
	g    *group
	name string
	tm   h.Timing
	log  *os.File // the JVM's stderr and the driver's log lines
}

func (m *standIn) Begin(history.Kind, string, int32, history.Parts) func(string, int32) {
	return func(string, int32) {}
}

func (m *standIn) BeginCommit(string, int32, history.Parts, string) func(string, int32, string) {
	return func(string, int32, string) {}
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

func (m *standIn) Observe(string, int32)                    {}
func (m *standIn) Polled(int)                               {}
func (m *standIn) Jitter()                                  {}
func (m *standIn) Mark(format string, args ...any)          { m.Logf(format, args...) }
func (m *standIn) Logf(format string, args ...any)          { fmt.Fprintf(m.log, format+"\n", args...) }
func (m *standIn) Timing() h.Timing                         { return m.tm }
func (m *standIn) WatchCommits(func(string, int32, string)) {}
