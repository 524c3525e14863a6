package harness

import (
	"encoding/binary"
	"fmt"
	"net"
	"sync"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// maxFrame bounds one Kafka frame the tap will buffer; a larger size prefix means the stream
// is not what the tap thinks it is, and the tap stops reading that connection.
const maxFrame = 64 << 20

// conn is one client connection to one broker, seen from either end. Requests flow from
// client to broker and responses back, each framed by a 4-byte size; the tap decodes the
// group requests it cares about and matches each response to its request by correlation ID
// (Kafka answers in order per connection, but the ID is what the protocol promises).
//
// A client-side conn (Net.DialContext) wraps the client's socket: writes are requests, reads
// are responses. A server-side conn (Server) wraps the socket kfake accepted, for clients
// that cannot be given a dialer (librdkafka): reads are requests, writes are responses, and
// the conn belongs to no Net until its first request names the client (the client ID, which
// the driver sets to the node's name).
type conn struct {
	net.Conn
	n      *Net // nil: a server-side conn not bound yet, or of a client the harness does not run
	broker int32
	server *Server // set on server-side conns

	wmu  sync.Mutex
	wbuf []byte

	rmu   sync.Mutex
	rbuf  []byte
	bound bool // server side: the first request was read

	hold func() // Harness.Delay: a request just tapped is to be held; run before passing it on

	pmu     sync.Mutex
	pending map[int32]pending // correlation ID → the tapped request awaiting its response
	blind   bool              // the tap lost the framing; it no longer decodes this connection
}

// pending is a tapped request awaiting its response.
type pending struct {
	req kmsg.Request
	end func(kmsg.Response)
}

// cutOff reports whether the conn's process may no longer reach its broker.
func (c *conn) cutOff() bool { return c.n != nil && c.n.unreachable(c.broker) }

// tapping reports whether the conn's traffic goes to a tap.
func (c *conn) tapping() bool { return c.n != nil && c.n.tap != nil }

func (c *conn) Write(p []byte) (int, error) {
	if c.cutOff() {
		c.Conn.Close()
		return 0, reset("write")
	}
	if c.tapping() {
		fn := c.request
		if c.server != nil {
			fn = c.response // kfake writes responses, tapped before the client can read them
		}
		c.wmu.Lock()
		c.wbuf = c.frames(append(c.wbuf, p...), fn)
		hold := c.hold
		c.hold = nil
		c.wmu.Unlock()
		if hold != nil {
			hold()
			if c.cutOff() {
				c.Conn.Close()
				return 0, reset("write")
			}
		}
	}
	return c.Conn.Write(p)
}

func (c *conn) Read(p []byte) (int, error) {
	if c.cutOff() {
		c.Conn.Close()
		return 0, reset("read")
	}
	k, err := c.Conn.Read(p)
	if c.cutOff() { // severed while blocked: the close woke us
		return 0, reset("read")
	}
	if k > 0 && (c.tapping() || (c.server != nil && !c.bound)) {
		fn := c.response
		if c.server != nil {
			fn = c.request // kfake reads requests, tapped before it acts on them
		}
		c.rmu.Lock()
		c.rbuf = c.frames(append(c.rbuf, p[:k]...), fn)
		hold := c.hold
		c.hold = nil
		c.rmu.Unlock()
		if hold != nil {
			hold() // a server-side conn: the broker reads the request only after the hold
		}
		if c.cutOff() { // bound to a process that may not reach this broker
			c.Conn.Close()
			return 0, reset("read")
		}
	}
	return k, err
}

func (c *conn) Close() error {
	if c.n != nil {
		c.n.forget(c)
	}
	return c.Conn.Close()
}

// frames hands every complete frame in buf to fn and returns what is left over.
func (c *conn) frames(buf []byte, fn func([]byte) error) []byte {
	for len(buf) >= 4 {
		size := int32(binary.BigEndian.Uint32(buf))
		if size < 0 || size > maxFrame {
			c.lose(fmt.Errorf("frame size %d", size))
			return nil
		}
		if len(buf) < 4+int(size) {
			break
		}
		if err := fn(buf[4 : 4+size]); err != nil {
			c.lose(err)
			return nil
		}
		buf = buf[4+size:]
	}
	if len(buf) == 0 {
		return nil // let the consumed backing array go
	}
	return buf
}

// lose stops decoding a connection whose framing the tap no longer trusts, and says so in the
// history: a run with a blind tap is missing coordinator events.
func (c *conn) lose(err error) {
	c.pmu.Lock()
	already := c.blind
	c.blind = true
	c.pmu.Unlock()
	if !already {
		if c.tapping() {
			c.n.tap.fail(fmt.Errorf("broker %d: %v", c.broker, err))
		}
	}
}

// request decodes a request frame: key, version, correlation ID, client ID, then (flexible
// versions, KIP-482) tagged fields before the body.
func (c *conn) request(f []byte) error {
	if len(f) < 10 {
		return fmt.Errorf("request frame of %d bytes", len(f))
	}
	key := int16(binary.BigEndian.Uint16(f))
	version := int16(binary.BigEndian.Uint16(f[2:]))
	corr := int32(binary.BigEndian.Uint32(f[4:]))
	rest := f[8:]
	idLen := int16(binary.BigEndian.Uint16(rest))
	rest = rest[2:]
	if idLen > 0 {
		if int(idLen) > len(rest) {
			return fmt.Errorf("client ID of %d bytes in a %d-byte frame", idLen, len(f))
		}
		if c.server != nil && !c.bound {
			c.server.bind(c, string(rest[:idLen]))
		}
		rest = rest[idLen:]
	}
	if c.server != nil && !c.bound {
		c.server.bind(c, "")
	}
	if !tapped[key] || !c.tapping() {
		return nil
	}
	req := kmsg.RequestForKey(key)
	req.SetVersion(version)
	body, err := skipTags(rest, req.IsFlexible())
	if err != nil {
		return fmt.Errorf("%s v%d header: %v", kmsg.NameForKey(key), version, err)
	}
	if err := req.ReadFrom(body); err != nil {
		return fmt.Errorf("%s v%d: %v", kmsg.NameForKey(key), version, err)
	}
	end := c.n.tap.begin(req)
	if w := c.n.tap.held(req); w != nil {
		c.hold = w
	}
	c.pmu.Lock()
	defer c.pmu.Unlock()
	if !c.blind {
		c.pending[corr] = pending{req: req, end: end}
	}
	return nil
}

// response decodes a response frame: correlation ID, then tagged fields for flexible
// versions, then the body. Responses to requests the tap did not decode are skipped.
func (c *conn) response(f []byte) error {
	if len(f) < 4 {
		return fmt.Errorf("response frame of %d bytes", len(f))
	}
	corr := int32(binary.BigEndian.Uint32(f))
	c.pmu.Lock()
	p, ok := c.pending[corr]
	delete(c.pending, corr)
	c.pmu.Unlock()
	if !ok {
		return nil
	}
	resp := p.req.ResponseKind()
	resp.SetVersion(p.req.GetVersion())
	body, err := skipTags(f[4:], resp.IsFlexible())
	if err != nil {
		return fmt.Errorf("%s response header: %v", kmsg.NameForKey(resp.Key()), err)
	}
	if err := resp.ReadFrom(body); err != nil {
		return fmt.Errorf("%s v%d response: %v", kmsg.NameForKey(resp.Key()), resp.GetVersion(), err)
	}
	p.end(resp)
	return nil
}

// skipTags skips a KIP-482 tagged-field section (a count, then tag, size and bytes for each)
// when flexible is set, returning what follows it.
func skipTags(b []byte, flexible bool) ([]byte, error) {
	if !flexible {
		return b, nil
	}
	n, k := binary.Uvarint(b)
	if k <= 0 {
		return nil, fmt.Errorf("bad tag count")
	}
	b = b[k:]
	for i := uint64(0); i < n; i++ {
		if _, k = binary.Uvarint(b); k <= 0 {
			return nil, fmt.Errorf("bad tag %d", i)
		}
		b = b[k:]
		size, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < size {
			return nil, fmt.Errorf("bad size of tag %d", i)
		}
		b = b[k+int(size):]
	}
	return b, nil
}
