package main

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The probe's wire versions: each supported by Kafka 4.0 through 4.4 and by kfake.
const (
	syncVersion      = 5
	heartbeatVersion = 4
	leaveVersion     = 5
	commitVersion    = 8 // classic: generation; 9 under KIP-848 (member epoch)
	commit848Version = 9
	cghVersion       = 0 // the coordinator names a joining member (no KIP-1082)
)

// names maps the reference's names to the broker's: topics (each world's topics get a
// name of their own on the broker, with an id once created) and member ids. Member ids are
// matched by position of first appearance: the first broker id seen where the reference
// names a member id it has not mapped yet becomes that id's counterpart. The reference
// reuses an id once nothing refers to it (spec: name#n with the smallest free n), so a
// fresh id in a response replaces the old mapping.
type names struct {
	kip848   bool // the world runs protocol consumer: commits carry member epochs
	prefix   string
	topicIDs map[string][16]byte // broker topic name → id
	toBroker map[impl.MemberID]string
	toRef    map[string]impl.MemberID
	// epochShift is what the broker adds to every positive KIP-848 epoch: 1 from
	// KAFKA-20268 on (a new group starts at epoch 1 with an empty target at epoch 1, so the
	// first computed assignment is epoch 2), 0 before. Learned from the first answer that
	// carries a positive member epoch; shiftKnown says whether it has been.
	epochShift int32
	shiftKnown bool
	// partitions counts each reference topic's partitions; perm, told and relabels are the
	// partition labels of KIP-848 worlds (partitions.go).
	partitions map[string]int32
	perm       map[string][]int32
	told       map[string]bool
	relabels   int
}

// epoch is a reference KIP-848 epoch as the broker numbers it.
func (n *names) epoch(e impl.Epoch) int32 {
	if e > 0 {
		return int32(e) + n.epochShift
	}
	return int32(e)
}

// learnShift learns the broker's epoch numbering from its first positive member epoch.
func (n *names) learnShift(ref impl.Epoch, broker int32) {
	if !n.shiftKnown && ref > 0 && broker > 0 {
		n.epochShift, n.shiftKnown = broker-int32(ref), true
		if n.epochShift != 0 && n.epochShift != 1 {
			n.epochShift = 0 // not a numbering the probe knows: compare as is
		}
	}
}

func newNames(prefix string, kip848 bool) *names {
	return &names{kip848: kip848, prefix: prefix, partitions: map[string]int32{}, perm: map[string][]int32{}, told: map[string]bool{}, topicIDs: map[string][16]byte{}, toBroker: map[impl.MemberID]string{}, toRef: map[string]impl.MemberID{}}
}

func (n *names) topic(t string) string { return n.prefix + t }

func (n *names) refTopic(t string) string {
	if len(t) > len(n.prefix) && t[:len(n.prefix)] == n.prefix {
		return t[len(n.prefix):]
	}
	return "?" + t
}

func (n *names) topicByID(id [16]byte) string {
	for t, i := range n.topicIDs {
		if i == id {
			return n.refTopic(t)
		}
	}
	return fmt.Sprintf("?%x", id[:4])
}

func (n *names) member(id impl.MemberID) string {
	if id == impl.NoMemberID {
		return ""
	}
	if b, ok := n.toBroker[id]; ok {
		return b
	}
	return "unmapped-" + string(id) // a reference id never seen from the broker
}

// learn maps ref to broker, forgetting what either was mapped to.
func (n *names) learn(ref impl.MemberID, broker string) {
	delete(n.toRef, n.toBroker[ref])
	delete(n.toBroker, n.toRef[broker])
	n.toBroker[ref], n.toRef[broker] = broker, ref
}

// match reports whether the broker's id is the reference's: mapped to it, or both unseen
// (then they are mapped to each other from now on).
func (n *names) match(ref impl.MemberID, broker string) bool {
	if ref == impl.NoMemberID || broker == "" {
		return ref == impl.NoMemberID && broker == ""
	}
	if b, ok := n.toBroker[ref]; ok {
		return b == broker
	}
	if _, ok := n.toRef[broker]; ok {
		return false
	}
	n.learn(ref, broker)
	return true
}

// ref names a broker member id in the reference's terms, for reports.
func (n *names) ref(broker string) string {
	if broker == "" {
		return "-"
	}
	if r, ok := n.toRef[broker]; ok {
		return string(r)
	}
	return "?" + broker
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// timing is what a schedule's requests say of time: session and rebalance timeouts, per
// member name, chosen so that the broker's timers fire where the schedule waits for them
// and nowhere else.
type timing struct {
	session   map[string]int32 // by member name; default longMs
	rebalance int32            // classic: every member's (the join and sync timers take the largest)
	// memberRebalance is a KIP-848 member's rebalance timeout, by name; default longMs.
	memberRebalance map[string]int32
}

const (
	longMs        = 30000
	shortSession  = 1500
	shortRebalace = 1000
)

func (t timing) sessionOf(name string) int32 {
	if ms, ok := t.session[name]; ok {
		return ms
	}
	return longMs
}

// request is the broker request for a reference request of the member called name.
func (n *names) request(group, name string, r impl.Request, t timing) (kmsg.Request, error) {
	switch r := r.(type) {
	case impl.JoinGroupRequest:
		q := kmsg.NewPtrJoinGroupRequest()
		q.Version, q.Group, q.MemberID, q.InstanceID = r.Version, group, n.member(r.MemberID), strPtr(string(r.InstanceID))
		q.SessionTimeoutMillis, q.RebalanceTimeoutMillis, q.ProtocolType = t.sessionOf(name), t.rebalance, "consumer"
		for _, p := range r.Protocols {
			q.Protocols = append(q.Protocols, kmsg.JoinGroupRequestProtocol{Name: p.Name, Metadata: n.subscription(p.Metadata)})
		}
		return q, nil
	case impl.SyncGroupRequest:
		q := kmsg.NewPtrSyncGroupRequest()
		q.Version, q.Group, q.Generation, q.MemberID = syncVersion, group, int32(r.Generation), n.member(r.MemberID)
		q.InstanceID, q.ProtocolType, q.Protocol = strPtr(string(r.InstanceID)), kmsg.StringPtr("consumer"), kmsg.StringPtr(r.ProtocolName)
		for _, a := range r.Assignments {
			q.GroupAssignment = append(q.GroupAssignment, kmsg.SyncGroupRequestGroupAssignment{MemberID: n.member(a.MemberID), MemberAssignment: n.assignment(a.Assignment)})
		}
		return q, nil
	case impl.HeartbeatRequest:
		q := kmsg.NewPtrHeartbeatRequest()
		q.Version, q.Group, q.Generation, q.MemberID, q.InstanceID = heartbeatVersion, group, int32(r.Generation), n.member(r.MemberID), strPtr(string(r.InstanceID))
		return q, nil
	case impl.LeaveGroupRequest:
		q := kmsg.NewPtrLeaveGroupRequest()
		q.Version, q.Group = leaveVersion, group
		for _, m := range r.Members {
			q.Members = append(q.Members, kmsg.LeaveGroupRequestMember{MemberID: n.member(m.MemberID), InstanceID: strPtr(string(m.InstanceID))})
		}
		return q, nil
	case impl.OffsetCommitRequest:
		return n.commit(group, r, n.kip848), nil
	case impl.ConsumerGroupHeartbeatRequest:
		return n.heartbeat848(group, name, r, t)
	}
	return nil, fmt.Errorf("no wire form for %T", r)
}

// commit is the OffsetCommit for a reference commit: offset 0 on every partition (the
// reference has no offsets; the coordinator validates only who commits, with what
// generation or epoch).
func (n *names) commit(group string, r impl.OffsetCommitRequest, kip848 bool) kmsg.Request {
	n.note(r.Partitions)
	q := kmsg.NewPtrOffsetCommitRequest()
	q.Version, q.Group, q.Generation, q.MemberID, q.InstanceID = commitVersion, group, int32(r.Generation), n.member(r.MemberID), strPtr(string(r.InstanceID))
	if kip848 {
		q.Version, q.Generation = commit848Version, n.epoch(impl.Epoch(r.Generation))
	}
	for _, t := range r.Partitions.Topics() {
		qt := kmsg.OffsetCommitRequestTopic{Topic: n.topic(t)}
		for _, tp := range r.Partitions.OfTopics([]string{t}).Slice() {
			p := kmsg.NewOffsetCommitRequestTopicPartition()
			p.Partition, p.Offset = n.brokerPartition(t, tp.Partition), 0
			qt.Partitions = append(qt.Partitions, p)
		}
		q.Topics = append(q.Topics, qt)
	}
	return q
}

func (n *names) heartbeat848(group, name string, r impl.ConsumerGroupHeartbeatRequest, t timing) (kmsg.Request, error) {
	q := kmsg.NewPtrConsumerGroupHeartbeatRequest()
	q.Version, q.Group, q.MemberID, q.MemberEpoch = cghVersion, group, n.member(r.MemberID), n.epoch(r.MemberEpoch)
	q.InstanceID, q.ServerAssignor, q.RebalanceTimeoutMillis = strPtr(string(r.InstanceID)), strPtr(r.ServerAssignor), -1
	if r.MemberEpoch == impl.EpochJoin {
		q.RebalanceTimeoutMillis = longMs
		if ms, ok := t.memberRebalance[name]; ok {
			q.RebalanceTimeoutMillis = ms
		}
	}
	if r.SubscribedTopicNames != nil {
		q.SubscribedTopicNames = []string{}
		for _, tn := range r.SubscribedTopicNames {
			q.SubscribedTopicNames = append(q.SubscribedTopicNames, n.topic(tn))
		}
	}
	if r.OwnedPartitions != nil {
		n.note(*r.OwnedPartitions)
		q.Topics = []kmsg.ConsumerGroupHeartbeatRequestTopic{}
		for _, tn := range r.OwnedPartitions.Topics() {
			id, ok := n.topicIDs[n.topic(tn)]
			if !ok {
				return nil, fmt.Errorf("topic %s has no id on the broker", n.topic(tn))
			}
			qt := kmsg.ConsumerGroupHeartbeatRequestTopic{TopicID: id}
			for _, tp := range r.OwnedPartitions.OfTopics([]string{tn}).Slice() {
				qt.Partitions = append(qt.Partitions, n.brokerPartition(tn, tp.Partition))
			}
			q.Topics = append(q.Topics, qt)
		}
	}
	return q, nil
}

// subscription is the consumer protocol's subscription bytes; user data is the sticky
// assignors' (StickyMemberMetadata), always present so that it decodes back unchanged.
func (n *names) subscription(s impl.Subscription) []byte {
	m := kmsg.NewConsumerMemberMetadata()
	m.Version, m.Generation = int16(s.Version), int32(s.Generation)
	for _, t := range s.Topics {
		m.Topics = append(m.Topics, n.topic(t))
	}
	for _, t := range s.OwnedPartitions.Topics() {
		m.OwnedPartitions = append(m.OwnedPartitions, kmsg.ConsumerMemberMetadataOwnedPartition{Topic: n.topic(t), Partitions: n.brokerPartitions(s.OwnedPartitions, t)})
	}
	u := kmsg.NewStickyMemberMetadata()
	u.Generation = int32(s.UserData.Generation)
	for _, t := range s.UserData.Previous.Topics() {
		u.CurrentAssignment = append(u.CurrentAssignment, kmsg.StickyMemberMetadataCurrentAssignment{Topic: n.topic(t), Partitions: partitionsOf(s.UserData.Previous, t)})
	}
	m.UserData = u.AppendTo(nil)
	return m.AppendTo(nil)
}

func (n *names) readSubscription(b []byte) (impl.Subscription, error) {
	var m kmsg.ConsumerMemberMetadata
	if err := m.ReadFrom(b); err != nil {
		return impl.Subscription{}, fmt.Errorf("subscription: %w", err)
	}
	s := impl.Subscription{Version: int8(m.Version), Generation: impl.Generation(m.Generation)}
	for _, t := range m.Topics {
		s.Topics = append(s.Topics, n.refTopic(t))
	}
	slices.Sort(s.Topics)
	var tps []impl.TopicPartition
	for _, o := range m.OwnedPartitions {
		for _, p := range o.Partitions {
			tps = append(tps, impl.TP(n.refTopic(o.Topic), n.refPartition(n.refTopic(o.Topic), p)))
		}
	}
	s.OwnedPartitions = impl.NewPartitionSet(tps...)
	var u kmsg.StickyMemberMetadata
	if err := u.ReadFrom(m.UserData); err != nil {
		return impl.Subscription{}, fmt.Errorf("subscription user data: %w", err)
	}
	tps = nil
	for _, c := range u.CurrentAssignment {
		for _, p := range c.Partitions {
			tps = append(tps, impl.TP(n.refTopic(c.Topic), p))
		}
	}
	s.UserData = impl.UserData{Previous: impl.NewPartitionSet(tps...), Generation: impl.Generation(u.Generation)}
	return s, nil
}

func (n *names) assignment(a impl.Assignment) []byte {
	m := kmsg.NewConsumerMemberAssignment()
	m.Version = 0
	for _, t := range a.Partitions.Topics() {
		m.Topics = append(m.Topics, kmsg.ConsumerMemberAssignmentTopic{Topic: n.topic(t), Partitions: n.brokerPartitions(a.Partitions, t)})
	}
	return m.AppendTo(nil)
}

func (n *names) readAssignment(b []byte) (impl.Assignment, error) {
	if len(b) == 0 {
		return impl.Assignment{}, nil
	}
	var m kmsg.ConsumerMemberAssignment
	if err := m.ReadFrom(b); err != nil {
		return impl.Assignment{}, fmt.Errorf("assignment: %w", err)
	}
	var tps []impl.TopicPartition
	for _, t := range m.Topics {
		for _, p := range t.Partitions {
			tps = append(tps, impl.TP(n.refTopic(t.Topic), n.refPartition(n.refTopic(t.Topic), p)))
		}
	}
	return impl.Assignment{Partitions: impl.NewPartitionSet(tps...)}, nil
}

// brokerPartitions are s's partitions of topic as the broker numbers them (the same numbers
// unless a KIP-848 assignment relabelled them, partitions.go).
func (n *names) brokerPartitions(s impl.PartitionSet, topic string) []int32 {
	ps := partitionsOf(s, topic)
	for i, p := range ps {
		ps[i] = n.brokerPartition(topic, p)
	}
	return ps
}

func partitionsOf(s impl.PartitionSet, topic string) []int32 {
	var ps []int32
	for _, tp := range s.OfTopics([]string{topic}).Slice() {
		ps = append(ps, tp.Partition)
	}
	return ps
}
