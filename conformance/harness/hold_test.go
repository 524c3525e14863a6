package harness

import (
	"context"
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// past returns once some member is answered with a newer generation, and at its deadline
// otherwise.
func TestObserverPast(t *testing.T) {
	o := NewObserver(history.NewRecorder())
	o.advance(3)
	if o.past(3, time.After(50*time.Millisecond)) {
		t.Error("past(3) with generation 3 the highest: want false at the deadline")
	}
	go o.advance(4)
	if !o.past(3, time.After(5*time.Second)) {
		t.Error("past(3) after generation 4 was answered: want true")
	}
}

// A held request does not reach the broker until its hold returns, and the requests behind it
// on the same connection wait too; other requests pass at once.
func TestHeldCommitWaitsOnItsConnection(t *testing.T) {
	addrs := echoBrokers(t, 1)
	rec := history.NewRecorder()
	obs := NewObserver(rec)
	tap := obs.Tap("b", history.Classic)
	release := make(chan struct{})
	tap.hold = func(req kmsg.Request) func() {
		if _, ok := req.(*kmsg.OffsetCommitRequest); !ok {
			return nil
		}
		return func() { <-release }
	}
	n := NewNet(addrs, tap)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := n.DialContext(ctx, "tcp", addrs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	hb := kmsg.NewPtrHeartbeatRequest()
	hb.SetVersion(4)
	if _, err := c.Write(frame(hb, 1, "b")); err != nil {
		t.Fatalf("heartbeat: %v", err)
	}
	oc := kmsg.NewPtrOffsetCommitRequest()
	oc.SetVersion(8)
	wrote := make(chan error, 1)
	go func() {
		_, err := c.Write(frame(oc, 2, "b"))
		wrote <- err
	}()
	select {
	case err := <-wrote:
		t.Fatalf("the held OffsetCommit was written before its release (err %v)", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	select {
	case err := <-wrote:
		if err != nil {
			t.Fatalf("OffsetCommit after release: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the OffsetCommit was not written after its release")
	}
}
