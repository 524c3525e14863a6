package harness

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// ErrNeedsKfake is a step's error on a broker at an address when only kfake can do it: Fence
// has kfake answer a heartbeat with an error its state does not explain.
var ErrNeedsKfake = errors.New("needs kfake's fault injection, which a broker at an address does not have")

// NeedsKfake reports whether a scenario has a step only kfake can do.
func (sc Scenario) NeedsKfake() bool {
	for _, s := range sc.Steps {
		if s.Op == OpFence {
			return true
		}
	}
	return false
}

// external sets the harness up against the broker at Config.Bootstrap (Apache Kafka's own,
// or any other). The broker outlives the run, so the run's group and topics get a name of
// their own, and are deleted at Close. Clients with a dialer dial the brokers the metadata
// lists through their Net, which taps and cuts as it does on kfake; clients that open their
// own sockets (Protocol.ServerTap) bootstrap from a loopback Proxy, which taps and cuts on
// the way through and points the metadata at itself. On a KIP-848 run a watcher reads the
// group's members from the broker (ConsumerGroupDescribe) for the fencing no tap can see.
func (h *Harness) external(ctx context.Context) error {
	seeds := strings.Split(h.cfg.Bootstrap, ",")
	for _, s := range seeds {
		if _, port, err := net.SplitHostPort(s); err != nil || port == "" {
			return fmt.Errorf("bootstrap %q: want host:port[,host:port...]: %v", h.cfg.Bootstrap, err)
		}
	}
	prefix := "gc-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	h.group = prefix + "-g"
	for t := range h.topics {
		h.topics[t] = prefix + "-" + t
	}
	if err := h.adminClient(); err != nil {
		return err
	}
	mctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	meta, err := kmsg.NewPtrMetadataRequest().RequestWith(mctx, h.admin)
	if err != nil {
		return fmt.Errorf("broker at %s: metadata: %v", h.cfg.Bootstrap, err)
	}
	if len(meta.Brokers) == 0 {
		return fmt.Errorf("broker at %s: metadata lists no broker", h.cfg.Bootstrap)
	}
	h.brokers = map[string]int32{}
	for _, b := range meta.Brokers {
		h.brokers[net.JoinHostPort(b.Host, strconv.Itoa(int(b.Port)))] = b.NodeID
	}
	h.addrs = seeds
	if h.cfg.Protocol.ServerTap {
		h.server = NewServer()
		h.proxy = NewProxy(h.server)
		h.addrs = nil
		for _, s := range seeds {
			id, ok := h.brokers[s]
			if !ok {
				id = -1
			}
			addr, err := h.proxy.Listen(s, id)
			if err != nil {
				return err
			}
			h.addrs = append(h.addrs, addr)
		}
	}
	if h.cfg.Protocol.Proto == history.Consumer {
		if err := h.groupTiming(ctx); err != nil {
			return err
		}
		h.watch = newWatcher(h)
		go h.watch.run()
	}
	return nil
}

// coordinator returns the node ID of the group's coordinator.
func (h *Harness) coordinator() (int32, error) {
	if h.cluster != nil {
		return h.cluster.CoordinatorFor(h.group), nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cs := h.adm.FindGroupCoordinators(ctx, h.group)
	c, ok := cs[h.group]
	if !ok {
		return 0, fmt.Errorf("find coordinator of %s: no answer", h.group)
	}
	if c.Err != nil {
		return 0, fmt.Errorf("find coordinator of %s: %v", h.group, c.Err)
	}
	return c.NodeID, nil
}

// forget deletes the run's topics and group from a broker at an address. Best effort: a
// crashed member keeps the group non-empty until its session expires, and a group left
// behind is only a name.
func (h *Harness) forget() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h.mu.Lock()
	var topics []string
	for t := range h.parts {
		topics = append(topics, t)
	}
	h.mu.Unlock()
	if _, err := h.adm.DeleteTopics(ctx, topics...); err != nil {
		h.cfg.Logf("delete topics %v: %v", topics, err)
	}
	h.adm.DeleteGroups(ctx, h.group)
}

// groupTiming gives the run's KIP-848 group the run's session and heartbeat: there the
// coordinator, not the client, decides them, and a broker at an address was not started with
// this run's Timing (kfake is). Group configs are KIP-848's (consumer.session.timeout.ms,
// consumer.heartbeat.interval.ms; Kafka's GroupConfig), set before any member joins.
func (h *Harness) groupTiming(ctx context.Context) error {
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	res := kmsg.NewIncrementalAlterConfigsRequestResource()
	res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeGroupConfig, h.group
	for k, d := range map[string]time.Duration{
		"consumer.session.timeout.ms":    h.cfg.Timing.Session,
		"consumer.heartbeat.interval.ms": h.cfg.Timing.Heartbeat,
	} {
		c := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
		c.Name, c.Value = k, kmsg.StringPtr(strconv.Itoa(int(d.Milliseconds())))
		res.Configs = append(res.Configs, c)
	}
	req.Resources = append(req.Resources, res)
	actx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp, err := req.RequestWith(actx, h.admin)
	if err != nil {
		return fmt.Errorf("group %s configs: %v", h.group, err)
	}
	for _, r := range resp.Resources {
		if err := kerr.ErrorForCode(r.ErrorCode); err != nil {
			return fmt.Errorf("group %s configs: %v (%s)", h.group, err, deref(r.ErrorMessage))
		}
	}
	return nil
}
