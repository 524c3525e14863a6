package harness

import (
	"encoding/binary"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Proxy stands between clients that open their own sockets (librdkafka) and a broker the
// harness does not run. Each broker gets a loopback listener; every connection accepted there
// is a server-side conn of Server (bound to its process by client ID, tapped and cut exactly
// as on kfake's listeners) piped to the broker. Metadata and FindCoordinator responses are
// rewritten on the way back so that they name the proxy's listeners, not the brokers: the
// client never dials past the proxy.
type Proxy struct {
	server *Server

	mu     sync.Mutex
	up     map[string]string // broker address → the proxy's listen address for it
	lns    []net.Listener
	socks  map[net.Conn]bool // open sockets, both ends, to close at Close
	closed bool
}

// NewProxy returns a proxy whose connections s binds and taps.
func NewProxy(s *Server) *Proxy {
	return &Proxy{server: s, up: map[string]string{}, socks: map[net.Conn]bool{}}
}

// Listen returns the proxy's address for the broker at upstream (node ID broker, -1 if not
// known), listening on a new loopback port the first time.
func (p *Proxy) Listen(upstream string, broker int32) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if a, ok := p.up[upstream]; ok {
		return a, nil
	}
	if p.closed {
		return "", fmt.Errorf("proxy for %s: closed", upstream)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("proxy for %s: %v", upstream, err)
	}
	addr := ln.Addr().String()
	p.up[upstream] = addr
	p.lns = append(p.lns, ln)
	p.server.setAddrs(map[string]int32{addr: broker})
	go p.accept(ln, upstream)
	return addr, nil
}

// Close stops listening and closes every connection.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.closed = true
	lns, socks := p.lns, p.socks
	p.lns, p.socks = nil, map[net.Conn]bool{}
	p.mu.Unlock()
	for _, ln := range lns {
		ln.Close()
	}
	for s := range socks {
		s.Close()
	}
}

func (p *Proxy) track(s net.Conn, open bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if open && p.closed {
		return false
	}
	if open {
		p.socks[s] = true
	} else {
		delete(p.socks, s)
	}
	return true
}

func (p *Proxy) accept(ln net.Listener, upstream string) {
	for {
		raw, err := ln.Accept()
		if err != nil {
			return
		}
		go p.pipe(&conn{Conn: raw, server: p.server, broker: -1, pending: map[int32]pending{}}, upstream)
	}
}

// pipe carries one client connection to the broker and back. Requests go through as read
// (the conn taps them); responses go back a frame at a time, so that Metadata and
// FindCoordinator answers can be rewritten whole.
func (p *Proxy) pipe(c *conn, upstream string) {
	up, err := net.DialTimeout("tcp", upstream, 5*time.Second)
	if err != nil {
		c.Conn.Close()
		return
	}
	if !p.track(c.Conn, true) || !p.track(up, true) {
		c.Conn.Close()
		up.Close()
		return
	}
	defer p.track(c.Conn, false)
	defer p.track(up, false)
	var mu sync.Mutex
	asked := map[int32][2]int16{} // correlation ID → key and version, of requests to rewrite
	go func() {
		defer up.Close()
		defer c.Close()
		var buf []byte
		b := make([]byte, 32<<10)
		for {
			k, err := c.Read(b)
			if k > 0 {
				var ferr error
				buf, ferr = splitFrames(append(buf, b[:k]...), func(f []byte) {
					if len(f) < 8 {
						return
					}
					key := int16(binary.BigEndian.Uint16(f))
					if key == int16(kmsg.Metadata) || key == int16(kmsg.FindCoordinator) {
						mu.Lock()
						asked[int32(binary.BigEndian.Uint32(f[4:]))] = [2]int16{key, int16(binary.BigEndian.Uint16(f[2:]))}
						mu.Unlock()
					}
				})
				if ferr != nil {
					return // not Kafka's framing: the stream cannot be followed
				}
				if _, werr := up.Write(b[:k]); werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	defer c.Close()
	defer up.Close()
	var buf []byte
	b := make([]byte, 32<<10)
	for {
		k, err := up.Read(b)
		if k > 0 {
			var werr, ferr error
			buf, ferr = splitFrames(append(buf, b[:k]...), func(f []byte) {
				if werr != nil {
					return
				}
				mu.Lock()
				kv, ok := asked[int32(binary.BigEndian.Uint32(f))]
				delete(asked, int32(binary.BigEndian.Uint32(f)))
				mu.Unlock()
				if ok {
					if f, werr = p.rewrite(kv[0], kv[1], f); werr != nil {
						werr = fmt.Errorf("proxy for %s: %v", upstream, werr)
						return
					}
				}
				_, werr = c.Write(binary.BigEndian.AppendUint32(nil, uint32(len(f))))
				if werr == nil {
					_, werr = c.Write(f)
				}
			})
			if werr != nil || ferr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// splitFrames hands fn every complete size-prefixed frame of buf (without its size) and
// returns what is left over; a frame size out of bounds is an error.
func splitFrames(buf []byte, fn func([]byte)) ([]byte, error) {
	for len(buf) >= 4 {
		size := int32(binary.BigEndian.Uint32(buf))
		if size < 0 || size > maxFrame {
			return nil, fmt.Errorf("frame size %d", size)
		}
		if len(buf) < 4+int(size) {
			break
		}
		fn(buf[4 : 4+size])
		buf = buf[4+size:]
	}
	if len(buf) == 0 {
		return nil, nil
	}
	return append([]byte(nil), buf...), nil
}

// rewrite re-encodes a Metadata or FindCoordinator response frame (correlation ID first) with
// every broker address replaced by the proxy's listener for it.
func (p *Proxy) rewrite(key, version int16, f []byte) ([]byte, error) {
	resp := kmsg.ResponseForKey(key)
	resp.SetVersion(version)
	body, err := skipTags(f[4:], resp.IsFlexible())
	if err != nil {
		return nil, fmt.Errorf("%s v%d response header: %v", kmsg.NameForKey(key), version, err)
	}
	if err := resp.ReadFrom(body); err != nil {
		return nil, fmt.Errorf("%s v%d response: %v", kmsg.NameForKey(key), version, err)
	}
	redirect := func(host *string, port *int32, id int32) error {
		a, err := p.Listen(net.JoinHostPort(*host, strconv.Itoa(int(*port))), id)
		if err != nil {
			return err
		}
		h, ps, _ := net.SplitHostPort(a)
		n, _ := strconv.Atoi(ps)
		*host, *port = h, int32(n)
		return nil
	}
	switch r := resp.(type) {
	case *kmsg.MetadataResponse:
		for i := range r.Brokers {
			if err := redirect(&r.Brokers[i].Host, &r.Brokers[i].Port, r.Brokers[i].NodeID); err != nil {
				return nil, err
			}
		}
	case *kmsg.FindCoordinatorResponse:
		if r.ErrorCode == 0 && r.Host != "" {
			if err := redirect(&r.Host, &r.Port, r.NodeID); err != nil {
				return nil, err
			}
		}
		for i := range r.Coordinators {
			c := &r.Coordinators[i]
			if c.ErrorCode == 0 && c.Host != "" {
				if err := redirect(&c.Host, &c.Port, c.NodeID); err != nil {
					return nil, err
				}
			}
		}
	}
	out := append([]byte(nil), f[:4]...)
	if resp.IsFlexible() {
		out = append(out, 0) // no header tags
	}
	return resp.AppendTo(out), nil
}
