package main

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// broker is the coordinator under test: an address, and an admin connection for what the
// schedules' members do not do themselves (topics, finding the coordinator, describing
// the group while the probe waits for a timer).
type broker struct {
	addr  string
	admin *wireConn
	stop  func()
}

// startKfake runs franz-go's in-process fake cluster, one broker, as conformance/harness
// does, with session timeouts allowed down to 100 ms so that the probe can wait them out.
func startKfake() (*broker, error) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.GroupMinSessionTimeout(100*time.Millisecond))
	if err != nil {
		return nil, fmt.Errorf("kfake: %v", err)
	}
	b, err := connectBroker(c.ListenAddrs()[0])
	if err != nil {
		c.Close()
		return nil, err
	}
	b.stop = func() { b.admin.close(); c.Close() }
	return b, nil
}

func connectBroker(addr string) (*broker, error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, fmt.Errorf("--bootstrap %q: want host:port: %v", addr, err)
	}
	a, err := dial(addr, "admin")
	if err != nil {
		return nil, err
	}
	b := &broker{addr: addr, admin: a}
	b.stop = a.close
	return b, nil
}

const adminWait = 10 * time.Second

// createTopics creates each topic (name → partitions) and returns the topics' ids, waiting
// until the broker's metadata shows every one with its partitions.
func (b *broker) createTopics(topics map[string]int32) (map[string][16]byte, error) {
	req := kmsg.NewPtrCreateTopicsRequest()
	req.Version, req.TimeoutMillis = 4, 10000
	for t, n := range topics {
		rt := kmsg.NewCreateTopicsRequestTopic()
		rt.Topic, rt.NumPartitions, rt.ReplicationFactor = t, n, 1
		req.Topics = append(req.Topics, rt)
	}
	r, err := b.admin.roundTrip(req, adminWait)
	if err != nil {
		return nil, fmt.Errorf("create topics: %w", err)
	}
	for _, t := range r.(*kmsg.CreateTopicsResponse).Topics {
		if e := impl.ErrorCode(t.ErrorCode); e != impl.None && t.ErrorCode != 36 { // 36: TOPIC_ALREADY_EXISTS
			return nil, fmt.Errorf("create topic %s: error %d %s", t.Topic, t.ErrorCode, deref(t.ErrorMessage))
		}
	}
	deadline := time.Now().Add(adminWait)
	for {
		ids, missing, err := b.topicIDs(topics)
		if err != nil || missing == "" {
			return ids, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("topic %s not in the broker's metadata within %v", missing, adminWait)
		}
		if err := b.pause(); err != nil {
			return nil, err
		}
	}
}

// pause paces two polls of the broker in a wait that checks its condition with a deadline.
func (b *broker) pause() error {
	time.Sleep(pollEvery)
	return nil
}

const pollEvery = 20 * time.Millisecond

func (b *broker) topicIDs(topics map[string]int32) (map[string][16]byte, string, error) {
	req := kmsg.NewPtrMetadataRequest()
	req.Version = 12
	for t := range topics {
		rt := kmsg.NewMetadataRequestTopic()
		rt.Topic = kmsg.StringPtr(t)
		req.Topics = append(req.Topics, rt)
	}
	r, err := b.admin.roundTrip(req, adminWait)
	if err != nil {
		return nil, "", fmt.Errorf("metadata: %w", err)
	}
	ids := map[string][16]byte{}
	for _, t := range r.(*kmsg.MetadataResponse).Topics {
		if t.ErrorCode == 0 && t.Topic != nil && int32(len(t.Partitions)) == topics[*t.Topic] && t.TopicID != [16]byte{} {
			ids[*t.Topic] = t.TopicID
		}
	}
	for t := range topics {
		if _, ok := ids[t]; !ok {
			return ids, t, nil
		}
	}
	return ids, "", nil
}

// coordinator is the address of the group's coordinator.
func (b *broker) coordinator(group string) (string, error) {
	deadline := time.Now().Add(adminWait)
	for {
		req := kmsg.NewPtrFindCoordinatorRequest()
		req.Version, req.CoordinatorKeys = 4, []string{group}
		r, err := b.admin.roundTrip(req, adminWait)
		if err != nil {
			return "", fmt.Errorf("find coordinator: %w", err)
		}
		cs := r.(*kmsg.FindCoordinatorResponse).Coordinators
		if len(cs) == 1 && cs[0].ErrorCode == 0 {
			return net.JoinHostPort(cs[0].Host, strconv.Itoa(int(cs[0].Port))), nil
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("find coordinator for %s: no coordinator within %v (%+v)", group, adminWait, cs)
		}
		if err := b.pause(); err != nil {
			return "", err
		}
	}
}

// groupView is what the broker says of a group: its state, epochs and member count.
type groupView struct {
	State           string
	Epoch, Assigned int32 // KIP-848: group and target assignment epochs; classic: 0
	Members         int
}

func (v groupView) String() string {
	if v.Epoch == 0 && v.Assigned == 0 {
		return fmt.Sprintf("%s, %d members", v.State, v.Members)
	}
	return fmt.Sprintf("%s, epoch %d, assignment epoch %d, %d members", v.State, v.Epoch, v.Assigned, v.Members)
}

// describe asks the broker for the group's view (DescribeGroups, or ConsumerGroupDescribe
// under KIP-848).
func (b *broker) describe(group string, kip848 bool) (groupView, error) {
	if kip848 {
		req := kmsg.NewPtrConsumerGroupDescribeRequest()
		req.Groups = []string{group}
		r, err := b.admin.roundTrip(req, adminWait)
		if err != nil {
			return groupView{}, fmt.Errorf("describe %s: %w", group, err)
		}
		gs := r.(*kmsg.ConsumerGroupDescribeResponse).Groups
		if len(gs) != 1 {
			return groupView{}, fmt.Errorf("describe %s: %d groups answered", group, len(gs))
		}
		g := gs[0]
		if g.ErrorCode == 69 { // GROUP_ID_NOT_FOUND: no member has joined yet
			return groupView{State: "empty"}, nil
		}
		if g.ErrorCode != 0 {
			return groupView{}, fmt.Errorf("describe %s: error %s", group, impl.ErrorCode(g.ErrorCode))
		}
		return groupView{State: strings.ToLower(g.State), Epoch: g.Epoch, Assigned: g.AssignmentEpoch, Members: len(g.Members)}, nil
	}
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Version, req.Groups = 5, []string{group}
	r, err := b.admin.roundTrip(req, adminWait)
	if err != nil {
		return groupView{}, fmt.Errorf("describe %s: %w", group, err)
	}
	gs := r.(*kmsg.DescribeGroupsResponse).Groups
	if len(gs) != 1 || gs[0].ErrorCode != 0 {
		return groupView{}, fmt.Errorf("describe %s: %+v", group, gs)
	}
	state := gs[0].State
	if state == "Dead" { // a group never joined, or emptied and removed: Empty to the reference
		state = "Empty"
	}
	return groupView{State: state, Members: len(gs[0].Members)}, nil
}

// groupConfigs are the KIP-848 group configs (GroupConfig) each schedule sets: the session
// timeout it needs, and target assignment computed on every heartbeat that needs one, as
// the reference computes it — Kafka 4.4 batches assignment updates
// (consumer.assignment.interval.ms, 1000 ms by default) and may compute them on a
// background thread (consumer.assignor.offload.enable). A broker that does not know a
// config (kfake, Kafka before 4.4) refuses it; that refusal is not an error.
func groupConfigs(sessionMs int32) [][2]string {
	return [][2]string{
		{"consumer.session.timeout.ms", strconv.Itoa(int(sessionMs))},
		{"consumer.assignment.interval.ms", "0"},
		{"consumer.assignor.offload.enable", "false"},
	}
}

// setGroupConfigs sets a group's configs one by one (IncrementalAlterConfigs on a GROUP
// resource) and returns those the broker refused. The session timeout must be accepted.
func (b *broker) setGroupConfigs(group string, configs [][2]string) ([]string, error) {
	var refused []string
	for i, kv := range configs {
		req := kmsg.NewPtrIncrementalAlterConfigsRequest()
		res := kmsg.NewIncrementalAlterConfigsRequestResource()
		res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeGroupConfig, group
		c := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
		c.Name, c.Value = kv[0], kmsg.StringPtr(kv[1])
		res.Configs = append(res.Configs, c)
		req.Resources = append(req.Resources, res)
		r, err := b.admin.roundTrip(req, adminWait)
		if err != nil {
			return nil, fmt.Errorf("set %s %s: %w", group, kv[0], err)
		}
		for _, rr := range r.(*kmsg.IncrementalAlterConfigsResponse).Resources {
			if rr.ErrorCode == 0 {
				continue
			}
			if i == 0 {
				return nil, fmt.Errorf("set %s %s=%s: error %d %s", group, kv[0], kv[1], rr.ErrorCode, deref(rr.ErrorMessage))
			}
			refused = append(refused, kv[0])
		}
	}
	return refused, nil
}
