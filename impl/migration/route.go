package migration

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/impl/kip848"
)

// Handle routes a classic request. A classic group handles it itself. A consumer group
// answers its classic members (kip848's Classic* handlers), except that a JoinGroup to an
// empty consumer group makes it a classic group (classicGroupJoin → classicGroupJoinToClassicGroup)
// and that a LeaveGroup or a JoinGroup may downgrade the group. An unknown request type is a
// broken contract and panics. Reference: GroupMetadataManager.classicGroupJoin,
// classicGroupSync, classicGroupHeartbeat, classicGroupLeave.
func (g Group) Handle(req impl.Request, fresh impl.MemberID) (Group, []impl.Reply) {
	if !g.isConsumer {
		c, out := g.classic.Handle(req, fresh)
		return g.withClassic(c), out
	}
	k := g.consumer
	switch r := req.(type) {
	case impl.JoinGroupRequest:
		if len(k.Members()) == 0 {
			c, out := coordinator.New(g.cfg.Classic).JoinGroup(r, fresh)
			return g.withClassic(c), out
		}
		next, out, d := k.ClassicJoinGroup(r, fresh)
		if d != nil {
			return g.downgrade(*d), out
		}
		return g.withConsumer(next), out
	case impl.SyncGroupRequest:
		next, out := k.ClassicSyncGroup(r)
		return g.withConsumer(next), out
	case impl.HeartbeatRequest:
		next, out := k.ClassicHeartbeat(r)
		return g.withConsumer(next), out
	case impl.LeaveGroupRequest:
		next, out, d := k.ClassicLeaveGroup(r)
		if d != nil {
			return g.downgrade(*d), out
		}
		return g.withConsumer(next), out
	case impl.OffsetCommitRequest:
		_, out := k.ClassicOffsetCommit(r)
		return g, out
	}
	panic(fmt.Sprintf("migration: Handle: unknown request type %T", req))
}

// Heartbeat routes a ConsumerGroupHeartbeat. An invalid request is refused before anything
// (kip848.ValidateHeartbeat). To a classic group only a join (epoch 0) is
// served, after Upgrade converts the group; any other epoch gets GROUP_ID_NOT_FOUND ("not a
// consumer group"), as does a join Upgrade refuses. A join the converted group then refuses
// leaves the group classic (Kafka appends the conversion's records only with the heartbeat's),
// its parked requests answered all the same.
// A leave (epoch -1) of a consumer group's member is a fence and may downgrade the group.
// Reference: GroupMetadataManager.consumerGroupHeartbeat, getOrMaybeCreateConsumerGroup,
// consumerGroupLeave.
func (g Group) Heartbeat(req impl.ConsumerGroupHeartbeatRequest, fresh impl.MemberID) (Group, []impl.Reply) {
	if !g.isConsumer {
		if code := kip848.ValidateHeartbeat(req); code != impl.None {
			return g, heartbeatError(req, code)
		}
		if req.MemberEpoch != impl.EpochJoin {
			return g, heartbeatError(req, impl.GroupIDNotFound)
		}
		c, k, parked, code := Upgrade(g.classic, g.cfg)
		if code != impl.None {
			return g.withClassic(c), append(parked, heartbeatError(req, code)...)
		}
		next, out := k.Heartbeat(req, fresh)
		if out[0].Response.Code() != impl.None {
			return g.withClassic(c), append(parked, out...)
		}
		return g.withConsumer(next), append(parked, out...)
	}
	next, out := g.consumer.Heartbeat(req, fresh)
	if r := out[0].Response.(impl.ConsumerGroupHeartbeatResponse); req.MemberEpoch == impl.EpochLeave && r.Error == impl.None {
		if d := g.consumer.FenceDowngrade(r.MemberID); d != nil {
			return g.downgrade(*d), out
		}
	}
	return g.withConsumer(next), out
}

func heartbeatError(req impl.ConsumerGroupHeartbeatRequest, code impl.ErrorCode) []impl.Reply {
	return []impl.Reply{{To: req.Conn, Response: impl.ConsumerGroupHeartbeatResponse{Error: code}}}
}

// SessionExpired is the member's session timer firing in either kind of group; in a consumer
// group it is a fence and may downgrade the group.
func (g Group) SessionExpired(id impl.MemberID) (Group, []impl.Reply) {
	if !g.isConsumer {
		c, out := g.classic.SessionExpired(id)
		return g.withClassic(c), out
	}
	return g.fenced(id, g.consumer.SessionExpired(id)), nil
}

// RebalanceTimeoutExpired is a consumer-protocol member's rebalance timer firing
// (kip848.Group.RebalanceTimeoutExpired), which may downgrade the group.
func (g Group) RebalanceTimeoutExpired(id impl.MemberID, epoch impl.Epoch) Group {
	if !g.isConsumer {
		return g
	}
	return g.fenced(id, g.consumer.RebalanceTimeoutExpired(id, epoch))
}

// ClassicJoinTimeoutExpired is a classic member's join timer firing in a consumer group,
// which may downgrade it.
func (g Group) ClassicJoinTimeoutExpired(id impl.MemberID) Group {
	if !g.isConsumer {
		return g
	}
	return g.fenced(id, g.consumer.ClassicJoinTimeoutExpired(id))
}

// ClassicSyncTimeoutExpired is a classic member's sync timer firing in a consumer group,
// which may downgrade it.
func (g Group) ClassicSyncTimeoutExpired(id impl.MemberID) Group {
	if !g.isConsumer {
		return g
	}
	return g.fenced(id, g.consumer.ClassicSyncTimeoutExpired(id))
}

// fenced is the consumer group after a transition that may have fenced id: next, unless it
// did fence id and FenceDowngrade calls for a downgrade of the group as it was before.
func (g Group) fenced(id impl.MemberID, next kip848.Group) Group {
	_, before := g.consumer.Member(id)
	_, after := next.Member(id)
	if before && !after {
		if d := g.consumer.FenceDowngrade(id); d != nil {
			return g.downgrade(*d)
		}
	}
	return g.withConsumer(next)
}

// OnClassic applies a transition that never converts the group (a classic timer, an unload)
// to a classic group; a consumer group is returned unchanged.
func (g Group) OnClassic(f func(coordinator.Group) (coordinator.Group, []impl.Reply)) (Group, []impl.Reply) {
	if g.isConsumer {
		return g, nil
	}
	c, out := f(g.classic)
	return g.withClassic(c), out
}

// OnConsumer applies a transition that never converts the group (metadata changes) to a
// consumer group; a classic group is returned unchanged.
func (g Group) OnConsumer(f func(kip848.Group) kip848.Group) Group {
	if !g.isConsumer {
		return g
	}
	return g.withConsumer(f(g.consumer))
}
