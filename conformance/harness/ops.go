package harness

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Start starts a consumer named name in the group with the run's protocol, running an
// application fault (NoFault for a correct one).
func (h *Harness) Start(name string, fault Fault) (*Node, error) {
	return h.start(name, fault, h.cfg.Protocol.Start, "")
}

// StartMixed starts a node with Protocol.Mixed: the protocol's cooperative assignor and an
// eager one (MixedUpgrade).
func (h *Harness) StartMixed(name string) (*Node, error) {
	if h.cfg.Protocol.Mixed == nil {
		return nil, fmt.Errorf("start %s: protocol %q has no mixed form", name, h.cfg.Protocol.Name)
	}
	return h.start(name, NoFault, h.cfg.Protocol.Mixed, " assignors=mixed")
}

func (h *Harness) start(name string, fault Fault, start func(*Node) (Client, error), note string) (*Node, error) {
	h.mu.Lock()
	if _, dup := h.nodes[name]; dup || name == Coordinator {
		h.mu.Unlock()
		return nil, fmt.Errorf("node name %q is taken", name)
	}
	n := &Node{Name: name, h: h, fault: fault, owned: map[string]map[int32]bool{}, group: h.group}
	h.nodes[name] = n
	for t := range h.parts {
		n.topics = append(n.topics, t)
	}
	if late := h.topics[LateTopic]; h.late && h.parts[late] == 0 {
		n.topics = append(n.topics, late)
	}
	h.mu.Unlock()
	sort.Strings(n.topics)
	n.tap = h.obs.Tap(name, h.cfg.Protocol.Proto)
	n.net = newNet(h.brokers, n.tap)
	if h.server != nil {
		h.server.register(name, n.net)
	}
	h.rec.Record(history.Event{Kind: history.Start, Node: name, Proto: h.cfg.Protocol.Proto,
		Note: "fault=" + fault.String() + note})
	if start == nil {
		return nil, fmt.Errorf("start %s: protocol %q has no driver", name, h.cfg.Protocol.Name)
	}
	cl, err := start(n)
	if err != nil {
		n.setState(closed)
		return nil, fmt.Errorf("start %s: %v", name, err)
	}
	n.mu.Lock()
	n.client = cl
	n.mu.Unlock()
	return n, nil
}

// Leave closes a node gracefully (Client.Leave). It fails if the leave does not finish within
// the rebalance timeout plus a session.
func (h *Harness) Leave(name string) error {
	n, err := h.node(name)
	if err != nil {
		return err
	}
	if s := n.status(); s != running && s != cut {
		return fmt.Errorf("leave %s: not running", name)
	}
	end := h.rec.Begin(history.Event{Kind: history.Close, Node: name, Proto: h.cfg.Protocol.Proto})
	limit := h.cfg.Timing.Rebalance + h.cfg.Timing.Session
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	lerr := n.cl().Leave(ctx)
	n.setState(closed)
	x := history.Event{}
	if lerr != nil {
		x.Err = ErrString(lerr)
	}
	end(x)
	if lerr != nil && ctx.Err() != nil {
		return fmt.Errorf("leave %s: not left after %v: %v", name, limit, lerr)
	}
	return nil
}

// LeaveAll closes every running node at once, as a deployment shutting down does.
func (h *Harness) LeaveAll() error {
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for _, n := range h.live() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := h.Leave(n.Name); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// Crash kills a node without leaving: its network goes down at once and it observes nothing
// more (the recorder drops its later events). The client is torn down in the background,
// since it may retry requests no broker can receive (docs/clients.md §5, "Crash semantics").
func (h *Harness) Crash(name string) error {
	n, err := h.node(name)
	if err != nil {
		return err
	}
	h.rec.Record(history.Event{Kind: history.Crash, Node: name, Proto: h.cfg.Protocol.Proto})
	n.setState(crashed)
	n.net.Down()
	n.gone = make(chan struct{})
	go func() {
		defer close(n.gone)
		n.cl().Kill()
	}()
	return nil
}

// Cut cuts a node off from the group coordinator's broker only: it keeps running, and keeps
// fetching the partitions led by the other brokers (docs/clients.md §5: the case that produces real
// double processing).
func (h *Harness) Cut(name string) error {
	n, err := h.node(name)
	if err != nil {
		return err
	}
	coord, err := h.coordinator()
	if err != nil {
		return fmt.Errorf("cut %s: %v", name, err)
	}
	h.rec.Record(history.Event{Kind: history.Cut, Node: name, Proto: h.cfg.Protocol.Proto,
		Note: fmt.Sprintf("from coordinator broker %d", coord)})
	n.mu.Lock()
	n.st, n.polledAt = cut, n.polled
	n.mu.Unlock()
	n.net.Cut(coord)
	return nil
}

// Heal ends a cut.
func (h *Harness) Heal(name string) error {
	n, err := h.node(name)
	if err != nil {
		return err
	}
	n.net.Heal()
	n.mu.Lock()
	n.st = running
	during := n.polled - n.polledAt
	n.mu.Unlock()
	h.rec.Record(history.Event{Kind: history.Heal, Node: name, Proto: h.cfg.Protocol.Proto,
		Note: fmt.Sprintf("polled %d records while cut", during)})
	return nil
}

// AddPartitions adds k partitions to topic (one of Topics, by its base name). Classic leaders see it on their next metadata
// refresh and rebalance; kfake bumps a KIP-848 group's epoch itself (notifyTopicChange).
func (h *Harness) AddPartitions(ctx context.Context, topic string, k int) error {
	topic = h.Topic(topic)
	h.mark(Coordinator, "add %d partitions to %s", k, topic)
	rs, err := h.adm.CreatePartitions(ctx, k, topic)
	if err == nil {
		err = rs.Error()
	}
	if err != nil {
		return fmt.Errorf("add partitions to %s: %v", topic, err)
	}
	h.mu.Lock()
	h.parts[topic] += int32(k)
	h.mu.Unlock()
	return nil
}

// Fence makes kfake answer the node's next heartbeat with a fencing error and waits until it
// has: UNKNOWN_MEMBER_ID on a classic Heartbeat, FENCED_MEMBER_EPOCH on a
// ConsumerGroupHeartbeat. The fault is checked before kfake's handler runs, so the broker's
// state is unchanged: only the member is told it is out (docs/clients.md §1, Fault).
func (h *Harness) Fence(ctx context.Context, name string) error {
	n, err := h.node(name)
	if err != nil {
		return err
	}
	if h.cluster == nil {
		return fmt.Errorf("fence %s: %w", name, ErrNeedsKfake)
	}
	member, _ := n.cl().Group()
	key, ferr := kmsg.Heartbeat, kerr.UnknownMemberID
	if h.cfg.Protocol.Proto == history.Consumer {
		key, ferr = kmsg.ConsumerGroupHeartbeat, kerr.FencedMemberEpoch
	}
	h.mark(name, "inject %s on %s of member %s", ferr.Message, key.Name(), member)
	h.mu.Lock()
	h.injected = true
	h.mu.Unlock()
	fh := h.cluster.Fault(kfake.Fault{Keys: []kmsg.Key{key}, Group: Group, Err: ferr, Count: 1,
		When: func(r kmsg.Request) bool {
			switch r := r.(type) {
			case *kmsg.HeartbeatRequest:
				return r.MemberID == member
			case *kmsg.ConsumerGroupHeartbeatRequest:
				return r.MemberID == member
			}
			return false
		}})
	wctx, cancel := context.WithTimeout(ctx, h.cfg.Timing.Session*4)
	defer cancel()
	if err := fh.Wait(wctx, 1); err != nil {
		fh.Remove()
		return fmt.Errorf("fence %s: no heartbeat from member %s: %v", name, member, err)
	}
	return nil
}

// ErrString names a failure: the Kafka error name where there is one (kerr), else the
// error's text.
func ErrString(err error) string {
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return ke.Message
	}
	return err.Error()
}
