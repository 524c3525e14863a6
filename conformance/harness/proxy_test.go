package harness

import (
	"encoding/binary"
	"io"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// frame writes a request as a client would: size, key, version, correlation ID, client ID,
// header tags (flexible versions), body.
func frame(req kmsg.Request, corr int32, client string) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(req.Key()))
	b = binary.BigEndian.AppendUint16(b, uint16(req.GetVersion()))
	b = binary.BigEndian.AppendUint32(b, uint32(corr))
	b = binary.BigEndian.AppendUint16(b, uint16(len(client)))
	b = append(b, client...)
	if req.IsFlexible() {
		b = append(b, 0)
	}
	b = req.AppendTo(b)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...)
}

func readFrame(t *testing.T, c net.Conn) []byte {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	var size [4]byte
	if _, err := io.ReadFull(c, size[:]); err != nil {
		t.Fatal(err)
	}
	f := make([]byte, binary.BigEndian.Uint32(size[:]))
	if _, err := io.ReadFull(c, f); err != nil {
		t.Fatal(err)
	}
	return f
}

// A broker behind the proxy answers Metadata and FindCoordinator with its own address; the
// client must read the proxy's instead, or it would dial past the proxy (untapped, uncut).
func TestProxyPointsBrokerAddressesAtItself(t *testing.T) {
	up, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	host, ps, _ := net.SplitHostPort(up.Addr().String())
	port, _ := strconv.Atoi(ps)
	go func() { // the broker: answers each request with its own address
		c, err := up.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		for range 2 {
			f := readFrame(t, c)
			key, version := int16(binary.BigEndian.Uint16(f)), int16(binary.BigEndian.Uint16(f[2:]))
			resp := kmsg.ResponseForKey(key)
			resp.SetVersion(version)
			switch r := resp.(type) {
			case *kmsg.MetadataResponse:
				r.Brokers = []kmsg.MetadataResponseBroker{{NodeID: 7, Host: host, Port: int32(port)}}
			case *kmsg.FindCoordinatorResponse:
				r.Coordinators = []kmsg.FindCoordinatorResponseCoordinator{{Key: "g", NodeID: 7, Host: host, Port: int32(port)}}
			}
			out := append([]byte(nil), f[4:8]...) // correlation ID
			if resp.IsFlexible() {
				out = append(out, 0)
			}
			out = resp.AppendTo(out)
			c.Write(append(binary.BigEndian.AppendUint32(nil, uint32(len(out))), out...))
		}
	}()
	p := NewProxy(NewServer())
	defer p.Close()
	addr, err := p.Listen(up.Addr().String(), 7)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	meta := kmsg.NewPtrMetadataRequest()
	meta.SetVersion(12)
	fc := kmsg.NewPtrFindCoordinatorRequest()
	fc.SetVersion(4)
	fc.CoordinatorKeys = []string{"g"}
	for i, req := range []kmsg.Request{meta, fc} {
		c.Write(frame(req, int32(i+1), "a"))
		f := readFrame(t, c)
		if corr := int32(binary.BigEndian.Uint32(f)); corr != int32(i+1) {
			t.Fatalf("correlation ID %d, want %d", corr, i+1)
		}
		resp := req.ResponseKind()
		resp.SetVersion(req.GetVersion())
		body, err := skipTags(f[4:], resp.IsFlexible())
		if err != nil {
			t.Fatal(err)
		}
		if err := resp.ReadFrom(body); err != nil {
			t.Fatalf("%s response as rewritten: %v", kmsg.NameForKey(req.Key()), err)
		}
		var h string
		var pt int32
		switch r := resp.(type) {
		case *kmsg.MetadataResponse:
			h, pt = r.Brokers[0].Host, r.Brokers[0].Port
		case *kmsg.FindCoordinatorResponse:
			h, pt = r.Coordinators[0].Host, r.Coordinators[0].Port
		}
		if got := net.JoinHostPort(h, strconv.Itoa(int(pt))); got != addr {
			t.Errorf("%s names %s, want the proxy's %s", kmsg.NameForKey(req.Key()), got, addr)
		}
	}
}
