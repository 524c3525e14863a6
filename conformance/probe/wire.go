package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// wireConn is one member's TCP connection to the broker, speaking raw Kafka protocol: kmsg
// frames requests, and a reader goroutine hands back each response in arrival order. A
// broker answers one connection's requests in order (Kafka's SocketServer mutes a
// connection until its request is answered), so the oldest unanswered request is the one
// a response belongs to; the correlation id is checked against it all the same.
type wireConn struct {
	name string
	c    net.Conn
	f    *kmsg.RequestFormatter

	mu      sync.Mutex
	next    int32
	pending []sent        // requests without a response yet, oldest first
	got     chan received // responses decoded, in arrival order
	err     error         // the reader's end: EOF or a bad frame
}

type sent struct {
	corr int32
	req  kmsg.Request
}

// received is one response, decoded as the response kind of the request it answers.
type received struct {
	req  kmsg.Request
	resp kmsg.Response
	err  error
}

func dial(addr, name string) (*wireConn, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, fmt.Errorf("connect %s for %s: %w", addr, name, err)
	}
	w := &wireConn{name: name, c: c, f: kmsg.NewRequestFormatter(kmsg.FormatterClientID("probe-" + name)),
		got: make(chan received, 64)}
	go w.read()
	return w, nil
}

// send writes one request; its response comes later through got.
func (w *wireConn) send(req kmsg.Request) error {
	w.mu.Lock()
	w.next++
	corr := w.next
	w.pending = append(w.pending, sent{corr, req})
	w.mu.Unlock()
	_ = w.c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := w.c.Write(w.f.AppendRequest(nil, req, corr)); err != nil {
		return fmt.Errorf("%s: write %s: %w", w.name, kmsg.NameForKey(req.Key()), err)
	}
	return nil
}

// roundTrip sends a request and waits for its response (for requests no schedule parks).
// Answers to earlier requests are skipped: a round trip that timed out leaves its answer
// to arrive late, before this one's.
func (w *wireConn) roundTrip(req kmsg.Request, d time.Duration) (kmsg.Response, error) {
	if err := w.send(req); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(d)
	for {
		r, err := w.await(time.Until(deadline))
		if err != nil {
			return nil, err
		}
		if r.req == req {
			return r.resp, r.err
		}
	}
}

// await is the next response on the connection, or an error at the deadline.
func (w *wireConn) await(d time.Duration) (received, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case r, ok := <-w.got:
		if !ok {
			return received{}, fmt.Errorf("%s: connection closed: %v", w.name, w.err)
		}
		return r, nil
	case <-t.C:
		return received{}, fmt.Errorf("%s: no response within %v", w.name, d)
	}
}

// outstanding is how many requests still wait for their response.
func (w *wireConn) outstanding() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending)
}

func (w *wireConn) close() { _ = w.c.Close() }

func (w *wireConn) read() {
	defer close(w.got)
	br := bufio.NewReader(w.c)
	for {
		var size [4]byte
		if _, err := io.ReadFull(br, size[:]); err != nil {
			w.err = err
			return
		}
		n := binary.BigEndian.Uint32(size[:])
		if n < 4 || n > 64<<20 {
			w.err = fmt.Errorf("response frame of %d bytes", n)
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(br, body); err != nil {
			w.err = err
			return
		}
		corr := int32(binary.BigEndian.Uint32(body))
		w.mu.Lock()
		if len(w.pending) == 0 {
			w.mu.Unlock()
			w.err = fmt.Errorf("response with correlation id %d to no request", corr)
			return
		}
		s := w.pending[0]
		w.pending = w.pending[1:]
		w.mu.Unlock()
		if s.corr != corr {
			w.err = fmt.Errorf("response correlation id %d, want %d (%s)", corr, s.corr, kmsg.NameForKey(s.req.Key()))
			return
		}
		w.got <- decode(s.req, body[4:])
	}
}

// decode reads a response body (after the correlation id) as the request's response kind.
func decode(req kmsg.Request, b []byte) received {
	resp := req.ResponseKind()
	resp.SetVersion(req.GetVersion())
	if resp.IsFlexible() && req.Key() != 18 { // ApiVersions answers with header v0
		var err error
		if b, err = skipTags(b); err != nil {
			return received{req: req, err: fmt.Errorf("%s response header: %w", kmsg.NameForKey(req.Key()), err)}
		}
	}
	if err := resp.ReadFrom(b); err != nil {
		return received{req: req, err: fmt.Errorf("decode %s v%d response: %w", kmsg.NameForKey(req.Key()), req.GetVersion(), err)}
	}
	return received{req: req, resp: resp}
}

// skipTags skips a flexible response header's tagged fields.
func skipTags(b []byte) ([]byte, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 {
		return nil, fmt.Errorf("bad tag count")
	}
	b = b[k:]
	for range n {
		if _, k = binary.Uvarint(b); k <= 0 {
			return nil, fmt.Errorf("bad tag")
		}
		b = b[k:]
		size, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < size {
			return nil, fmt.Errorf("bad tag size")
		}
		b = b[k+int(size):]
	}
	return b, nil
}
