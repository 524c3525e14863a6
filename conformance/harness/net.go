package harness

import (
	"context"
	"net"
	"os"
	"sync"
	"syscall"
)

// Net is one consumer process's network. It dials the brokers through a conn wrapper that
// can refuse and reset, so that a crash and a cut look like a real network partition to kgo
// (refused dials, ECONNRESET on open connections), not like an orderly close: closing from a
// kfake control instead can trip kgo's ErrFirstReadEOF heuristic and make the error fatal
// (docs/clients.md §5, "Kill mechanics").
type Net struct {
	brokers map[string]int32 // listen address → broker node ID
	tap     *Tap             // nil: no tap
	dialer  net.Dialer

	mu    sync.Mutex
	down  bool           // every broker unreachable (crash)
	cut   map[int32]bool // brokers unreachable (cut from the coordinator)
	conns map[*conn]bool // open connections, to reset on a cut
}

// NewNet returns a network that reaches the brokers at addrs (broker i listens on addrs[i],
// as kfake.Cluster.ListenAddrs lists them) and feeds group traffic to tap.
func NewNet(addrs []string, tap *Tap) *Net {
	ids := map[string]int32{}
	for i, a := range addrs {
		ids[a] = int32(i)
	}
	return newNet(ids, tap)
}

// newNet returns a network that reaches the brokers listening at the keys of ids, each with
// the node ID it maps to.
func newNet(ids map[string]int32, tap *Tap) *Net {
	n := &Net{brokers: map[string]int32{}, tap: tap, cut: map[int32]bool{}, conns: map[*conn]bool{}}
	for a, id := range ids {
		n.brokers[a] = id
	}
	return n
}

// Dial dials without a context (Sarama's proxy dialer, golang.org/x/net/proxy.Dialer).
func (n *Net) Dial(network, host string) (net.Conn, error) {
	return n.DialContext(context.Background(), network, host)
}

// DialContext is a kgo.Dialer (and kafka-go's Dialer.DialFunc).
func (n *Net) DialContext(ctx context.Context, network, host string) (net.Conn, error) {
	broker, known := n.brokers[host]
	if !known {
		broker = -1
	}
	if n.unreachable(broker) {
		return nil, &net.OpError{Op: "dial", Net: network, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	}
	raw, err := n.dialer.DialContext(ctx, network, host)
	if err != nil {
		return nil, err
	}
	c := &conn{Conn: raw, n: n, broker: broker, pending: map[int32]pending{}}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.down || n.cut[broker] { // cut while dialing
		raw.Close()
		return nil, &net.OpError{Op: "dial", Net: network, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	}
	n.conns[c] = true
	return c, nil
}

// Down makes every broker unreachable and resets every open connection: the process crashed.
func (n *Net) Down() { n.sever(func(*conn) bool { return true }, func() { n.down = true }) }

// Cut makes the given brokers unreachable and resets the connections to them; the others
// stay reachable, so a consumer cut from its coordinator keeps fetching from the rest.
func (n *Net) Cut(brokers ...int32) {
	set := map[int32]bool{}
	for _, b := range brokers {
		set[b] = true
	}
	n.sever(func(c *conn) bool { return set[c.broker] }, func() {
		for b := range set {
			n.cut[b] = true
		}
	})
}

// Heal makes every broker reachable again (after Cut; a Down network stays down).
func (n *Net) Heal() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.cut = map[int32]bool{}
}

func (n *Net) sever(match func(*conn) bool, mark func()) {
	n.mu.Lock()
	mark()
	var victims []*conn
	for c := range n.conns {
		if match(c) {
			victims = append(victims, c)
		}
	}
	n.mu.Unlock()
	for _, c := range victims {
		c.Conn.Close() // wakes a blocked Read, which then reports ECONNRESET
	}
}

func (n *Net) unreachable(broker int32) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.down || n.cut[broker]
}

func (n *Net) forget(c *conn) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.conns, c)
}

// reset is what a read or write on a severed connection returns.
func reset(op string) error {
	return &net.OpError{Op: op, Net: "tcp", Err: os.NewSyscallError(op, syscall.ECONNRESET)}
}
