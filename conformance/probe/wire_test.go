package main

import (
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestRoundTripSkipsLateAnswer: an answer that arrives after its round trip timed out is
// not taken for the next request's.
func TestRoundTripSkipsLateAnswer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan error, 1)
	go func() { served <- answerLate(ln) }()
	c, err := dial(ln.Addr().String(), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	find := func() kmsg.Request {
		r := kmsg.NewPtrFindCoordinatorRequest()
		r.Version, r.CoordinatorKey = 2, "g"
		return r
	}
	if _, err := c.roundTrip(find(), 50*time.Millisecond); err == nil {
		t.Fatal("the first round trip was answered; the server holds its answer")
	}
	resp, err := c.roundTrip(find(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if id := resp.(*kmsg.FindCoordinatorResponse).NodeID; id != 2 {
		t.Fatalf("second round trip got node %d, the first request's answer; want 2", id)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}

// answerLate accepts one connection, reads two FindCoordinator v2 requests, then answers
// both in order, naming node 1 and node 2.
func answerLate(ln net.Listener) error {
	c, err := ln.Accept()
	if err != nil {
		return err
	}
	defer c.Close()
	var corrs []int32
	for range 2 {
		var size [4]byte
		if _, err := io.ReadFull(c, size[:]); err != nil {
			return err
		}
		body := make([]byte, binary.BigEndian.Uint32(size[:]))
		if _, err := io.ReadFull(c, body); err != nil {
			return err
		}
		corrs = append(corrs, int32(binary.BigEndian.Uint32(body[4:8])))
	}
	for i, corr := range corrs {
		r := kmsg.NewPtrFindCoordinatorResponse()
		r.Version, r.NodeID, r.Host, r.Port = 2, int32(i+1), "h", 1
		b := binary.BigEndian.AppendUint32(nil, uint32(corr))
		b = r.AppendTo(b)
		if _, err := c.Write(append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...)); err != nil {
			return err
		}
	}
	return nil
}
