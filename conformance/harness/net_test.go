package harness

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
	"testing"
	"time"
)

// echoBrokers listens on n loopback ports and echoes whatever each connection sends.
func echoBrokers(t *testing.T, n int) []string {
	t.Helper()
	var addrs []string
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		addrs = append(addrs, ln.Addr().String())
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go func() { io.Copy(c, c); c.Close() }()
			}
		}()
	}
	return addrs
}

func roundTrip(c net.Conn) error {
	if _, err := c.Write([]byte("ping")); err != nil {
		return err
	}
	buf := make([]byte, 4)
	_, err := io.ReadFull(c, buf)
	return err
}

// A cut refuses dials to the cut broker and resets its open connections, while the other
// brokers stay reachable; a heal lifts it; Down takes everything (docs/clients.md §5, "Kill
// mechanics": refused dials and ECONNRESET look like a real network partition).
func TestNetCutHealDown(t *testing.T) {
	addrs := echoBrokers(t, 2)
	n := NewNet(addrs, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	dial := func(i int) net.Conn {
		t.Helper()
		c, err := n.DialContext(ctx, "tcp", addrs[i])
		if err != nil {
			t.Fatalf("dial broker %d: %v", i, err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	c0, c1 := dial(0), dial(1)
	for _, c := range []net.Conn{c0, c1} {
		if err := roundTrip(c); err != nil {
			t.Fatalf("before the cut: %v", err)
		}
	}

	blocked := make(chan error, 1)
	go func() { _, err := c0.Read(make([]byte, 1)); blocked <- err }() // parked, as a client's reader is
	n.Cut(0)                                                           // whether the read parked before or after, it must see the reset
	if err := <-blocked; !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("blocked read on the cut broker: %v, want ECONNRESET", err)
	}
	if err := roundTrip(c0); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("write to the cut broker: %v, want ECONNRESET", err)
	}
	if _, err := n.DialContext(ctx, "tcp", addrs[0]); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial to the cut broker: %v, want ECONNREFUSED", err)
	}
	if err := roundTrip(c1); err != nil {
		t.Errorf("the other broker after the cut: %v", err)
	}

	n.Heal()
	if err := roundTrip(dial(0)); err != nil {
		t.Errorf("after the heal: %v", err)
	}

	n.Down()
	if err := roundTrip(c1); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("after Down: %v, want ECONNRESET", err)
	}
	for i := range addrs {
		if _, err := n.DialContext(ctx, "tcp", addrs[i]); !errors.Is(err, syscall.ECONNREFUSED) {
			t.Errorf("dial broker %d after Down: %v, want ECONNREFUSED", i, err)
		}
	}
	n.Heal() // a crashed process stays crashed
	if _, err := n.DialContext(ctx, "tcp", addrs[1]); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial after Down and Heal: %v, want ECONNREFUSED", err)
	}
}
