package harness

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/groupcheck/groupcheck/oracle/history"
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
// KIP-848 heartbeat response carrying an assignment (the crash falls between the new target
// and its acknowledgement). The tap fires it as it decodes the response, before the client
// reads it. A later Settle fails if it never fired.
func (h *Harness) CrashMidJoin(name string) error {
	n, err := h.node(name)
	if err != nil {
		return err
	}
	var fired atomic.Bool
	h.mark(name, "crash armed at the next join answer")
	n.tap.mu.Lock()
	n.tap.trip = func(op string, x history.Event) bool {
		hit := x.OK() && (op == history.JoinGroup ||
			op == history.ConsumerGroupHeartbeat && x.Note != "assignment=null")
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
	h.armed[name] = fired.Load
	h.mu.Unlock()
	return nil
}

// unfired names an armed CrashMidJoin that has not fired, after a settle.
func (h *Harness) unfired() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for name, fired := range h.armed {
		if !fired() {
			return fmt.Errorf("crash-mid-join %s never fired: no join answer reached it", name)
		}
		delete(h.armed, name)
	}
	return nil
}
