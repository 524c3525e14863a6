package coordinator

import (
	"errors"
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// ConvertedMember is one member of a consumer group that is converted back to a classic group
// (online downgrade, docs/protocol.md §9.4): its JoinGroup protocols as the consumer group
// kept them, and the partitions it will hold, which are its target assignment in the
// consumer group.
type ConvertedMember struct {
	ID         impl.MemberID
	InstanceID impl.InstanceID
	Protocols  []impl.GroupProtocol
	Assignment impl.PartitionSet
}

// FromConsumerGroup is the classic group an online downgrade creates: Stable at the consumer
// group's epoch as generation, with every member and its assignment, the protocol voted as
// at a join completion, and as leader the first member added (Kafka adds them in the consumer
// group's hash-map order; the reference takes the first in id order). With rebalance the
// group then prepares a rebalance, as a downgrade after a member left does; without it (a
// static member replaced by a classic one, the target up to date) it stays Stable. The group
// is written to the log when Config.Persist is on. An error, with nothing converted, when
// there are no members, an instance id repeats, or the members share no protocol (Kafka's
// ClassicGroup.add throws IllegalStateException there).
// Reference: ClassicGroup.fromConsumerGroup, ClassicGroup.add and
// GroupMetadataManager.convertToClassicGroup (apache/kafka group-coordinator 4.4.0).
func FromConsumerGroup(cfg Config, gen impl.Generation, members []ConvertedMember, rebalance bool) (Group, error) {
	if len(members) == 0 {
		return Group{}, errors.New("coordinator: FromConsumerGroup: no members")
	}
	s := New(cfg).begin()
	for _, cm := range members {
		if _, dup := s.g.index(cm.ID); dup {
			return Group{}, fmt.Errorf("coordinator: FromConsumerGroup: member %q twice", cm.ID)
		}
		if _, dup := s.g.StaticMember(cm.InstanceID); dup {
			return Group{}, fmt.Errorf("coordinator: FromConsumerGroup: instance %q twice", cm.InstanceID)
		}
		s.insert(Member{ID: cm.ID, InstanceID: cm.InstanceID, Protocols: normalizeProtocols(cm.Protocols),
			Assignment: impl.Assignment{Partitions: cm.Assignment}})
	}
	if !s.g.supportsProtocols(s.g.members[0].Protocols) {
		return Group{}, errors.New("coordinator: FromConsumerGroup: the members share no protocol")
	}
	s.g.generation, s.g.state, s.g.leader = gen, Stable, s.g.members[0].ID
	s.g.protocol = s.g.selectProtocol()
	s.persist()
	if rebalance {
		s.prepareRebalance()
	}
	g, _ := s.finish()
	return g, nil
}

// AnswerParked answers every parked JoinGroup (with the member's id) and SyncGroup with code
// and unparks them, leaving the group otherwise as it is: what an online upgrade does to the
// classic group first, before it converts it — and keeps even when the conversion or the
// heartbeat that asked for it then fails. A member whose JoinGroup was answered so no longer
// counts as rejoined: at the join phase's completion a dynamic one is removed unless it joins
// again. Reference: ClassicGroup.completeAllJoinFutures and completeAllSyncFutures, called by
// GroupMetadataManager.convertToConsumerGroup (apache/kafka group-coordinator 4.4.0).
func (g Group) AnswerParked(code impl.ErrorCode) (Group, []impl.Reply) {
	s := g.begin()
	for i := range s.g.members {
		m := &s.g.members[i]
		if m.Join.Parked {
			s.reply(m.Join.Conn, joinError(m.ID, code))
			m.Join = ParkedJoin{}
		}
		if m.Sync.Parked {
			s.reply(m.Sync.Conn, impl.SyncGroupResponse{Error: code})
			m.Sync = ParkedSync{}
		}
	}
	return s.g, s.out
}
