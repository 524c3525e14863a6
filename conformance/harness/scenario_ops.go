package harness

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// CreateTopic creates LateTopic, to which every node of the scenario subscribed from its
// start, and waits until the metadata serves it. A classic leader sees it on its next
// metadata refresh and rebalances (its subscription now matches a topic); a KIP-848
// coordinator recomputes the target assignment when the subscribed topic appears
// (GroupMetadataManager.onNewMetadataImage; kfake: notifyTopicChange).
func (h *Harness) CreateTopic(ctx context.Context) error {
	name := h.Topic(LateTopic)
	h.mark(Coordinator, "create topic %s with %d partitions", name, LatePartitions)
	r, err := h.adm.CreateTopic(ctx, LatePartitions, 1, nil, name)
	if err == nil {
		err = r.Err
	}
	if err != nil {
		return fmt.Errorf("create topic %s: %v", name, err)
	}
	// The coordinator can hand the new topic to KIP-848 members (by ID) before the metadata
	// serves it: the tap must know the ID from the creation on.
	if r.ID != ([16]byte{}) {
		h.obs.SetTopic(r.ID, name)
	}
	if err := h.awaitTopics(ctx, []string{name}); err != nil {
		return err
	}
	h.mu.Lock()
	h.parts[name] = LatePartitions
	h.mu.Unlock()
	return nil
}

// CrashMidJoin arms a crash of node name at the next answer that hands it a new round of
// work, before it can act on it: a classic JoinGroup response (the crash falls between its
// JoinGroup and its SyncGroup, so the coordinator holds a member that will never sync) or a
// KIP-848 heartbeat response carrying an assignment or a new epoch (the crash falls between
// the new target and its acknowledgement; Kafka bumps an unchanged member's epoch with
// assignment null, GroupMetadataManager.consumerGroupHeartbeat). The tap fires it as it decodes the response, before the client
// reads it. A later Settle fails if it never fired.
func (h *Harness) CrashMidJoin(name string) error {
	n, err := h.node(name)
	if err != nil {
		return err
	}
	var fired atomic.Bool
	h.mark(name, "crash armed at the next join answer")
	n.tap.mu.Lock()
	n.tap.trip = func(req, x history.Event) bool {
		hit := x.OK() && (req.Op == history.JoinGroup || req.Op == history.ConsumerGroupHeartbeat &&
			req.Gen > 0 && (x.Note != "assignment=null" || x.Gen > req.Gen))
		if hit && fired.CompareAndSwap(false, true) {
			h.Crash(name)
		}
		return hit
	}
	n.tap.mu.Unlock()
	h.mu.Lock()
	if h.armed == nil {
		h.armed = map[string]func() bool{}
	}
	h.armed[name+" crash-mid-join"] = fired.Load
	h.mu.Unlock()
	return nil
}

// unfired names an armed CrashMidJoin that has not fired, after a settle.
func (h *Harness) unfired() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for name, fired := range h.armed {
		if !fired() {
			return fmt.Errorf("%s never fired: no matching request or answer", name)
		}
		delete(h.armed, name)
	}
	return nil
}

// DelayCommit arms a hold on node name's next OffsetCommit: the request is tapped as sent, then
// held in the node's network (a client-side conn before it reaches the socket, a proxy or
// server-side conn before the broker reads it) until some member has been answered with a
// newer generation or epoch than the commit carries — the group rebalanced while it was in
// flight — or for at most a rebalance timeout plus a session. Everything behind it on the
// same connection waits too, as behind a stalled TCP stream. The broker must then refuse the
// stale commit (ILLEGAL_GENERATION, STALE_MEMBER_EPOCH, ...) or accept it only where the
// committer still owns the partitions (commit-from-owner). A later Settle fails if no commit
// was held.
func (h *Harness) DelayCommit(name string) error {
	n, err := h.node(name)
	if err != nil {
		return err
	}
	var caught atomic.Bool
	limit := h.cfg.Timing.Rebalance + h.cfg.Timing.Session
	h.mark(name, "next OffsetCommit to be held across a rebalance (at most %v)", limit)
	n.tap.mu.Lock()
	n.tap.hold = func(req kmsg.Request) func() {
		oc, ok := req.(*kmsg.OffsetCommitRequest)
		if !ok || !caught.CompareAndSwap(false, true) {
			return nil
		}
		n.tap.hold = nil // under n.tap.mu, held's caller
		gen := oc.Generation
		return func() {
			t0 := time.Now()
			moved := h.obs.past(gen, time.After(limit))
			n.Mark("OffsetCommit at generation %d held %v; group moved on: %v", gen, time.Since(t0).Round(time.Millisecond), moved)
		}
	}
	n.tap.mu.Unlock()
	h.mu.Lock()
	if h.armed == nil {
		h.armed = map[string]func() bool{}
	}
	h.armed[name+" delay-commit"] = caught.Load
	h.mu.Unlock()
	return nil
}
