package harness

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kfake"
)

// Coordinator is the node name of events that only the broker observed about a member the
// harness cannot name (kfake fencing a member ID no tap has seen).
const Coordinator = "coordinator"

// Observer collects what the broker side shows, for every node of one run: the member IDs the
// taps have seen (to name the node of a fenced member), the topic IDs (KIP-848 requests carry
// IDs, histories carry names), and kfake's log.
type Observer struct {
	rec *history.Recorder

	mu      sync.Mutex
	members map[string]string   // member ID → node
	topics  map[[16]byte]string // topic ID → name
	log     bytes.Buffer        // kfake's log, for the artifacts of a failed run
	errors  []string            // kfake ERROR lines and tap failures: each fails the run

	// The classic group's last generation as its leader was told it, and the members that
	// left on their own (an accepted LeaveGroup), to tell a removal from a departure.
	gen    int32
	roster []string
	left   map[string]bool

	// top is the highest generation or member epoch any member was answered with; moved is
	// closed (and replaced) whenever it rises.
	top   int32
	moved chan struct{}
}

// advance notes that a member was answered with generation (or epoch) gen.
func (o *Observer) advance(gen int32) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if gen > o.top {
		o.top = gen
		if o.moved != nil {
			close(o.moved)
		}
		o.moved = make(chan struct{})
	}
}

// past waits until some member was answered with a generation or epoch above gen, or until
// deadline; it reports whether the group moved on.
func (o *Observer) past(gen int32, deadline <-chan time.Time) bool {
	for {
		o.mu.Lock()
		if o.top > gen {
			o.mu.Unlock()
			return true
		}
		if o.moved == nil {
			o.moved = make(chan struct{})
		}
		moved := o.moved
		o.mu.Unlock()
		select {
		case <-moved:
		case <-deadline:
			return false
		}
	}
}

// NewObserver returns an observer recording into rec.
func NewObserver(rec *history.Recorder) *Observer {
	return &Observer{rec: rec, members: map[string]string{}, topics: map[[16]byte]string{},
		left: map[string]bool{}}
}

// Tap returns the wire tap of one node's connections.
func (o *Observer) Tap(node, proto string) *Tap { return &Tap{obs: o, node: node, proto: proto} }

// SetTopic records a topic's ID.
func (o *Observer) SetTopic(id [16]byte, name string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.topics[id] = name
}

func (o *Observer) topic(id [16]byte) (string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	name, ok := o.topics[id]
	return name, ok
}

// member notes that node uses member ID m.
func (o *Observer) member(m, node string) {
	if m == "" {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.members[m] = node
}

// NodeOf names the node that used member ID m, or Coordinator.
func (o *Observer) NodeOf(m string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if n, ok := o.members[m]; ok {
		return n
	}
	return Coordinator
}

// leaves notes that member m left the group on its own.
func (o *Observer) leaves(m string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.left[m] = true
}

// hasLeft reports whether member m left the group on its own.
func (o *Observer) hasLeft(m string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.left[m]
}

// logf adds a line to the broker-side log (what the harness read from a broker at an
// address).
func (o *Observer) logf(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Fprintf(&o.log, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05.000")}, args...)...)
}

// generation takes a classic leader's JoinGroup response: a member of the previous
// generation that is not in this one's member list, and did not leave, was removed by the
// coordinator (a session or rebalance timeout; kfake does not log those for classic groups).
// The Fenced event is late, at the first moment the removal shows; the partitions cannot
// move before it, since only this generation's SyncGroup can hand them out.
func (o *Observer) generation(gen int32, members []string) {
	o.mu.Lock()
	if gen <= o.gen {
		o.mu.Unlock()
		return
	}
	now := map[string]bool{}
	for _, m := range members {
		now[m] = true
	}
	var gone []string
	for _, m := range o.roster {
		if !now[m] && !o.left[m] {
			gone = append(gone, m)
		}
	}
	prev := o.gen
	o.gen, o.roster = gen, append([]string(nil), members...)
	o.mu.Unlock()
	for _, m := range gone {
		o.rec.Record(history.Event{Kind: history.Fenced, Node: o.NodeOf(m), Proto: history.Classic,
			Member: m, Gen: prev, Note: fmt.Sprintf("not in generation %d's member list", gen)})
	}
}

// Errors returns kfake's ERROR log lines and the taps' decoding failures. kfake logs at ERROR
// when a partition is claimed while another member owns it (docs/clients.md §1, addPartitionEpochs),
// so an ERROR line is a double assignment seen from inside the broker.
func (o *Observer) Errors() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.errors...)
}

// Log returns kfake's log so far.
func (o *Observer) Log() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.log.String()
}

func (o *Observer) fail(msg string) {
	o.mu.Lock()
	o.errors = append(o.errors, msg)
	o.mu.Unlock()
	o.rec.Record(history.Event{Kind: history.Mark, Node: Coordinator, Note: msg})
}

// kfakeFences are the kfake log formats that mean the coordinator removed a KIP-848 member
// without the member asking (groups.go: scheduleConsumerRebalanceTimeout and the session
// timer). Their arguments are group, member, epoch, remaining.
var kfakeFences = map[string]string{
	"consumerSessionTimeout:":   "session timeout",
	"consumerRebalanceTimeout:": "rebalance timeout",
}

// Logf is a kfake.Logger. It keeps the log and turns fencing lines into Fenced events.
func (o *Observer) Logf(level kfake.LogLevel, format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	o.mu.Lock()
	fmt.Fprintf(&o.log, "%s [%s] %s\n", time.Now().Format("15:04:05.000"), level, line)
	o.mu.Unlock()
	if level == kfake.LogLevelError {
		o.fail("kfake ERROR: " + line)
		return
	}
	for prefix, why := range kfakeFences {
		if !strings.HasPrefix(format, prefix) || len(args) < 3 {
			continue
		}
		m, _ := args[1].(string)
		epoch, _ := args[2].(int32)
		o.rec.Record(history.Event{Kind: history.Fenced, Node: o.NodeOf(m), Proto: history.Consumer,
			Member: m, Gen: epoch, Note: "kfake " + why})
	}
}
