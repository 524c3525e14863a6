package harness

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// state is where a node is in its life, as the harness made it.
type state int

const (
	running state = iota
	cut           // cut off from the coordinator, still running
	closed        // left gracefully
	crashed       // died without leaving
)

// Node is one consumer process: a client of the library under test in the group, with a
// stable name, its own network and log, and the harness's view of what its callbacks say it
// owns. Drivers report through its methods; all of them are safe for concurrent use.
type Node struct {
	Name   string
	h      *Harness
	fault  Fault
	net    *Net
	tap    *Tap
	topics []string
	group  string
	log    syncBuffer // the client's log, for the artifacts of a failed run

	gone chan struct{} // a crashed node's background Kill returned

	mu       sync.Mutex
	client   Client
	st       state
	owned    map[string]map[int32]bool // what the client's callbacks say it owns
	member   string                    // last member ID and generation observed
	gen      int32
	fromTap  bool // GenerationsFromTap: Observe records nothing
	polled   int  // records polled so far
	polledAt int  // polled when the node was cut
}

// Fault is the application fault this node runs with (NoFault: a correct application).
func (n *Node) Fault() Fault { return n.fault }

// Net is the node's network: dial the brokers through it.
func (n *Node) Net() *Net { return n.net }

// Addrs are the addresses to bootstrap from.
func (n *Node) Addrs() []string { return n.h.addrs }

// Group is the consumer group to join (Group on kfake; the run's own on a broker at an
// address).
func (n *Node) Group() string { return n.group }

// Topics are the topics to subscribe to.
func (n *Node) Topics() []string { return append([]string(nil), n.topics...) }

// Timing is the run's group timing.
func (n *Node) Timing() Timing { return n.h.cfg.Timing }

// Proto is the history protocol of the run (history.Classic or history.Consumer).
func (n *Node) Proto() string { return n.h.cfg.Protocol.Proto }

// Log is where the client's own log goes; it is saved with a failed run's artifacts.
func (n *Node) Log() io.Writer { return &n.log }

// Jitter pauses for a random time up to the run's jitter: drivers call it inside callbacks.
func (n *Node) Jitter() { n.h.jitter() }

// Begin records the begin of a callback (Assign, Revoke or Lost) with the partitions it
// hands over and the member and generation the client reports, and returns what records its
// end. It does not change what the node owns: call Own for that.
func (n *Node) Begin(kind history.Kind, member string, gen int32, parts history.Parts) func(member string, gen int32) {
	n.Observe(member, gen)
	end := n.h.rec.Begin(history.Event{Kind: kind, Node: n.Name, Proto: n.Proto(),
		Member: member, Gen: gen, Parts: parts})
	return func(member string, gen int32) { end(history.Event{Member: member, Gen: gen}) }
}

// GenerationsFromTap is for drivers whose member ID and generation come from the wire tap
// (Joined), not from the client: the tap's request events already record when the member
// learned them, and a Generation event recorded later, at a callback, would claim a fresh
// proof of membership at the wrong time (after a cut and a fencing answer, say).
func (n *Node) GenerationsFromTap() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.fromTap = true
}

// Observe records a Generation event when the member ID or generation changed.
func (n *Node) Observe(member string, gen int32) {
	n.mu.Lock()
	if n.fromTap {
		n.mu.Unlock()
		return
	}
	changed := member != n.member || gen != n.gen
	n.member, n.gen = member, gen
	n.mu.Unlock()
	if changed && member != "" {
		n.h.rec.Record(history.Event{Kind: history.Generation, Node: n.Name, Proto: n.Proto(),
			Member: member, Gen: gen})
	}
}

// Own applies a callback to the harness's view of what the client owns: add the partitions
// (an assign) or remove them (a revoke or lost).
func (n *Node) Own(p history.Parts, add bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for t, ps := range p {
		if n.owned[t] == nil {
			n.owned[t] = map[int32]bool{}
		}
		for _, x := range ps {
			if add {
				n.owned[t][x] = true
			} else {
				delete(n.owned[t], x)
			}
		}
	}
}

// Owned returns what the node owns, by its callbacks.
func (n *Node) Owned() history.Parts {
	n.mu.Lock()
	defer n.mu.Unlock()
	p := history.Parts{}
	for t, ps := range n.owned {
		for x := range ps {
			p[t] = append(p[t], x)
		}
		sort.Slice(p[t], func(i, j int) bool { return p[t][i] < p[t][j] })
		if len(p[t]) == 0 {
			delete(p, t)
		}
	}
	return p
}

// BeginCommit records the begin of an offset commit of parts, made for reason why, and
// returns what records its outcome: the member and generation the commit went out with, and
// the Kafka error name ("" for success).
func (n *Node) BeginCommit(member string, gen int32, parts history.Parts, why string) func(member string, gen int32, err string) {
	end := n.h.rec.Begin(history.Event{Kind: history.Commit, Node: n.Name, Proto: n.Proto(),
		Member: member, Gen: gen, Parts: parts, Note: why})
	return func(member string, gen int32, err string) {
		end(history.Event{Member: member, Gen: gen, Err: err})
	}
}

// WatchCommits has fn called with every OffsetCommit response this node's tap decodes: the
// member and generation the request carried and the first partition error ("" for none).
// It is for client libraries whose commit call does not return the outcome (Sarama's
// ConsumerGroupSession.Commit).
func (n *Node) WatchCommits(fn func(member string, gen int32, err string)) {
	n.tap.mu.Lock()
	defer n.tap.mu.Unlock()
	n.tap.onCommit = fn
}

// Joined returns the member ID and generation (epoch) of the last JoinGroup or
// ConsumerGroupHeartbeat this node's coordinator accepted, as the wire tap decoded it: for
// drivers whose client does not say which member it is (Sarama's OnAssignment, librdkafka).
func (n *Node) Joined() (member string, gen int32) {
	n.tap.mu.Lock()
	defer n.tap.mu.Unlock()
	return n.tap.joined.Member, n.tap.joined.Gen
}

// Polled counts k records polled (a cut member's count is noted at its heal).
func (n *Node) Polled(k int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.polled += k
}

// Mark records a free-form note about this node.
func (n *Node) Mark(format string, args ...any) { n.h.mark(n.Name, format, args...) }

// Logf writes to the node's log.
func (n *Node) Logf(format string, args ...any) { fmt.Fprintf(&n.log, format+"\n", args...) }

// view is the node as the settle signature sees it.
func (n *Node) view() (st state, member string, gen int32, owned []string) {
	n.mu.Lock()
	cl := n.client
	n.mu.Unlock()
	if cl != nil {
		member, gen = cl.Group()
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for t, ps := range n.owned {
		for p := range ps {
			owned = append(owned, fmt.Sprintf("%s/%d", t, p))
		}
	}
	sort.Strings(owned)
	return n.st, member, gen, owned
}

func (n *Node) setState(s state) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.st = s
}

func (n *Node) status() state {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.st
}

func (n *Node) cl() Client {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.client
}

// syncBuffer is a bytes.Buffer safe for concurrent logging.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
