package kip848

import (
	"errors"
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// ClassicGroupMember is one member of a classic group being converted to a consumer group
// (online upgrade, docs/protocol.md §9.2), as ConsumerGroup.fromClassicGroup reads it: its
// JoinGroup protocols and the assignment the coordinator stored for it at the last SyncGroup.
type ClassicGroupMember struct {
	ID         impl.MemberID
	InstanceID impl.InstanceID
	Protocols  []impl.GroupProtocol
	Assignment impl.Assignment
}

// FromClassic is the consumer group an online upgrade creates from a non-empty classic group
// at generation gen with the selected protocol: group epoch and assignment epoch gen; every
// member a classic member STABLE at epoch gen (previous epoch gen too) holding its stored
// assignment, which is also its target; its subscription the selected protocol's; no timer
// but the session timer. An error, and no group, where Kafka's conversion throws: no
// selected protocol (protocolName().get() on a group that has not completed a join phase),
// a member not listing it, assignment user data a consumer group cannot keep (Kafka's
// UnsupportedVersionException, "userData from a custom assignor would be lost"), or two
// members holding one partition (addPartitionEpochs).
// Reference: ConsumerGroup.fromClassicGroup, GroupMetadataManager.convertToConsumerGroup
// (apache/kafka group-coordinator 4.4.0).
func FromClassic(cfg Config, cluster impl.Cluster, gen impl.Generation, protocol string, members []ClassicGroupMember) (Group, error) {
	if protocol == "" {
		return Group{}, errors.New("kip848: FromClassic: the classic group has no selected protocol")
	}
	g := New(cfg, cluster)
	e := impl.Epoch(gen)
	g.groupEpoch, g.assignmentEpoch = e, e
	var entries []MemberTarget
	for _, cm := range members {
		sub, ok := selected(cm.Protocols, protocol)
		switch {
		case !ok:
			return Group{}, fmt.Errorf("kip848: FromClassic: member %s does not list protocol %s", cm.ID, protocol)
		case cm.Assignment.Followup || cm.Assignment.Error != impl.None:
			return Group{}, fmt.Errorf("kip848: FromClassic: member %s: assignment user data would be lost", cm.ID)
		}
		if _, dup := g.Member(cm.ID); dup {
			return Group{}, fmt.Errorf("kip848: FromClassic: member %s twice", cm.ID)
		}
		m, _ := updateSubscription(Member{ID: cm.ID, InstanceID: cm.InstanceID}, sub.Topics)
		m.MemberEpoch, m.PreviousMemberEpoch, m.State = e, e, Stable
		m.AssignedPartitions = cm.Assignment.Partitions
		m.Classic = &ClassicMetadata{Protocols: cm.Protocols}
		g = g.withMember(m)
		entries = append(entries, MemberTarget{ID: cm.ID, Partitions: cm.Assignment.Partitions})
	}
	g.target = NewTarget(entries...)
	if _, err := g.partitionEpochs(); err != nil {
		return Group{}, fmt.Errorf("kip848: FromClassic: %w", err)
	}
	return g.checked("FromClassic"), nil
}

func selected(ps []impl.GroupProtocol, name string) (impl.Subscription, bool) {
	for _, p := range ps {
		if p.Name == name {
			return p.Metadata, true
		}
	}
	return impl.Subscription{}, false
}
