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

// conn is one client connection to one broker. Writes carry requests and reads carry
// responses, each framed by a 4-byte size; the tap decodes the group requests it cares about
// and matches each response to its request by correlation ID (Kafka answers in order per
// connection, but the ID is what the protocol promises).
type conn struct {
	net.Conn
	n      *Net
	broker int32

	wmu  sync.Mutex
	wbuf []byte

	rmu  sync.Mutex
	rbuf []byte

	pmu     sync.Mutex
	pending map[int32]pending // correlation ID → the tapped request awaiting its response
	blind   bool              // the tap lost the framing; it no longer decodes this connection
}

// pending is a tapped request awaiting its response.
type pending struct {
	req kmsg.Request
	end func(kmsg.Response)
}

func (c *conn) Write(p []byte) (int, error) {
	if c.n.unreachable(c.broker) {
		c.Conn.Close()
		return 0, reset("write")
	}
	if c.n.tap != nil {
		c.wmu.Lock()
		c.wbuf = c.frames(append(c.wbuf, p...), c.request)
		c.wmu.Unlock()
	}
	return c.Conn.Write(p)
}

func (c *conn) Read(p []byte) (int, error) {
	if c.n.unreachable(c.broker) {
		c.Conn.Close()
		return 0, reset("read")
	}
	k, err := c.Conn.Read(p)
	if c.n.unreachable(c.broker) { // severed while blocked: the close woke us
		return 0, reset("read")
	}
	if k > 0 && c.n.tap != nil {
		c.rmu.Lock()
		c.rbuf = c.frames(append(c.rbuf, p[:k]...), c.response)
		c.rmu.Unlock()
	}
	return k, err
}

func (c *conn) Close() error {
	c.n.forget(c)
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
		c.n.tap.fail(fmt.Errorf("broker %d: %v", c.broker, err))
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
	if !tapped[key] {
		return nil
	}
	rest := f[8:]
	idLen := int16(binary.BigEndian.Uint16(rest))
	rest = rest[2:]
	if idLen > 0 {
		if int(idLen) > len(rest) {
			return fmt.Errorf("client ID of %d bytes in a %d-byte frame", idLen, len(f))
		}
		rest = rest[idLen:]
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
