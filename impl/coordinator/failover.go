package coordinator

import (
	"cmp"
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// A coordinator failover: the broker leading the group's __consumer_offsets partition loses
// it (Unload on the old broker), and the new leader replays the partition and loads the group
// from the last record the log holds (Load). Until it has, the new coordinator answers with
// LoadingReply; the old broker answers whatever still reaches it with NotCoordinatorReply.

// Record is the group's last GroupMetadata record in __consumer_offsets (GroupMetadataValue):
// the generation, the selected protocol, the leader, and each member with its subscription
// for the selected protocol and its assignment. Everything else the coordinator keeps in
// memory (parked requests, pending members, pendingSync, timers, isNew) is not in it.
// Reference: docs/protocol.md §1.3; GroupMetadataManager.groupMetadataValue and
// readGroupMessageValue (core/src/main/scala/kafka/coordinator/group).
type Record struct {
	Generation impl.Generation
	Protocol   string        // "" for an Empty group
	Leader     impl.MemberID // "" for an Empty group
	Members    []RecordMember
}

// RecordMember is one member of a Record (MemberMetadataValue).
type RecordMember struct {
	ID           impl.MemberID
	InstanceID   impl.InstanceID
	Subscription impl.Subscription // metadata(protocol): the selected protocol's only
	Assignment   impl.Assignment
}

// Log is the last record written for the group, and false if none was (or Config.Persist is
// off). Kafka writes one record per (membership, assignment) epoch that clients can see:
//   - the leader's SyncGroup completing the round (storeGroup before → Stable);
//   - a join phase that leaves nobody (→ Empty, the empty group record);
//   - a static member replaced in Stable without a rebalance (the new member id's mapping).
//
// A rebalance under way (PreparingRebalance, or CompletingRebalance with its new generation
// and leader) is never written: a failover then loads the generation before it.
// Reference: docs/protocol.md §1.3, §1.5, §1.10; GroupCoordinator.scala (storeGroup callers).
func (g Group) Log() (Record, bool) {
	if g.log == nil {
		return Record{}, false
	}
	return *g.log, true
}

// persist writes the group as it is now to the log (storeGroup): the record replaces the
// previous one. A no-op unless Config.Persist.
func (s *step) persist() {
	if !s.g.cfg.Persist {
		return
	}
	r := &Record{Generation: s.g.generation, Protocol: s.g.protocol, Leader: s.g.leader}
	for _, m := range s.g.members {
		r.Members = append(r.Members, RecordMember{
			ID: m.ID, InstanceID: m.InstanceID, Subscription: m.metadataFor(s.g.protocol), Assignment: m.Assignment,
		})
	}
	s.g.log = r
}

// Load is the group a new coordinator loads from the log: Stable at the record's generation
// with its members, leader, protocol and assignments, or Empty when the record has no
// members; a new group (Empty, generation 0) when no record exists. Each member's only
// protocol is the selected one with its recorded subscription; nothing is parked, nobody is
// pending or new, no sync timer runs, and every member's session timer starts afresh
// (GroupCoordinator.onGroupLoaded). The loaded group keeps the record as its log.
// Reference: docs/protocol.md §1.3; GroupMetadata.loadGroup (initialState = Empty if no members,
// else Stable) via GroupMetadataManager.readGroupMessageValue.
func Load(cfg Config, r Record, ok bool) Group {
	g := New(cfg)
	if !ok {
		return g
	}
	g.generation, g.protocol, g.leader = r.Generation, r.Protocol, r.Leader
	for _, m := range r.Members {
		g.members = append(g.members, Member{
			ID: m.ID, InstanceID: m.InstanceID, Assignment: m.Assignment,
			Protocols: []impl.GroupProtocol{{Name: r.Protocol, Metadata: m.Subscription}},
		})
	}
	slices.SortFunc(g.members, func(a, b Member) int { return cmp.Compare(a.ID, b.ID) })
	if len(g.members) > 0 {
		g.state = Stable
	}
	if cfg.Persist {
		rec := r
		rec.Members = slices.Clone(r.Members)
		g.log = &rec
	}
	return g
}

// LoadingReply is the answer of a coordinator still loading the group's partition
// (validateGroupStatus while isCoordinatorLoadInProgress): JoinGroup, LeaveGroup and
// OffsetCommit get COORDINATOR_LOAD_IN_PROGRESS; SyncGroup gets REBALANCE_IN_PROGRESS (old
// clients would not handle the loading error); a Heartbeat is answered NONE ("respond
// blindly"). Nothing changes. Reference: docs/protocol.md §1.4–§1.8.
func LoadingReply(req impl.Request) impl.Reply {
	return errorReply(req, impl.CoordinatorLoadInProgress)
}

// NotCoordinatorReply is the answer of a broker that no longer leads the group's partition:
// NOT_COORDINATOR for every request. Reference: docs/protocol.md §1.4 (group-level status errors).
func NotCoordinatorReply(req impl.Request) impl.Reply {
	return errorReply(req, impl.NotCoordinator)
}

// errorReply answers req with a group-level status error, as validateGroupStatus does per API.
func errorReply(req impl.Request, code impl.ErrorCode) impl.Reply {
	var r impl.Response
	switch q := req.(type) {
	case impl.JoinGroupRequest:
		r = joinError(q.MemberID, code)
	case impl.SyncGroupRequest:
		if code == impl.CoordinatorLoadInProgress {
			code = impl.RebalanceInProgress
		}
		r = impl.SyncGroupResponse{Error: code}
	case impl.HeartbeatRequest:
		if code == impl.CoordinatorLoadInProgress {
			code = impl.None
		}
		r = impl.HeartbeatResponse{Error: code}
	case impl.LeaveGroupRequest:
		r = impl.LeaveGroupResponse{Error: code}
	case impl.OffsetCommitRequest:
		r = impl.OffsetCommitResponse{Error: code}
	default:
		panic("coordinator: errorReply: unknown request type")
	}
	return impl.Reply{To: req.From(), Response: r}
}
