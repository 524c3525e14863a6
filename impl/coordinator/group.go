package coordinator

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// Config is the coordinator's fixed configuration. It travels inside every Group value but
// never changes, and it is not part of the canonical encoding.
type Config struct {
	// Variant selects shipped Kafka (Kafka) or KIP-423 JoinReason semantics (KIP, docs/protocol.md §4).
	Variant impl.Variant
	// Faults switches on deliberate defects: FaultJoinTimerZero (B1), FaultNoSyncTimer (B3).
	Faults impl.Faults
	// MaxSize is group.max.size; 0 means unlimited. Reference: docs/protocol.md §1.4.
	MaxSize int
	// Persist keeps the group's last record in the log (Log), for a coordinator failover to
	// load (Load). Off, nothing is kept, so a world without failovers has no more states.
	Persist bool
}

// ParkedJoin is a JoinGroup waiting for the join phase to complete: the connection to answer
// and what the request said. The zero value means no JoinGroup is parked.
type ParkedJoin struct {
	Parked  bool
	Conn    impl.Conn
	Version int16
	Reason  impl.JoinReason
}

// ParkedSync is a SyncGroup waiting for the leader's assignment. The zero value means none.
type ParkedSync struct {
	Parked bool
	Conn   impl.Conn
}

// Member is the coordinator's record of one member (MemberMetadata; docs/protocol.md §1.2). Values
// returned by Group are copies; Protocols shares its backing array with the group and must
// not be modified.
type Member struct {
	ID         impl.MemberID
	InstanceID impl.InstanceID // empty for dynamic members
	// Protocols are the member's assignors in preference order, each with its subscription.
	Protocols []impl.GroupProtocol
	Join      ParkedJoin
	Sync      ParkedSync
	// PendingSync: the member was in the last completed join phase and has not sent
	// SyncGroup since (pendingSyncMembers, KAFKA-12890).
	PendingSync bool
	// Assignment is the one stored by the leader's SyncGroup (empty after a failed round).
	Assignment impl.Assignment
	// IsNew: added since the last join completion; it can session-expire while parked
	// (KAFKA-7610's new-member join timeout).
	IsNew bool
}

// IsStatic reports whether the member has a group.instance.id (KIP-345).
func (m Member) IsStatic() bool { return m.InstanceID != "" }

// Group is one classic consumer group as its coordinator sees it: a pure value. Every
// handler returns the successor value and the replies to send; the receiver is never
// modified and successors share no mutable memory with it.
//
// The static mapping instance → member id is not stored: it is derived from the members.
type Group struct {
	cfg        Config
	state      State
	generation impl.Generation
	protocol   string        // selected assignor; "" when none (Empty)
	leader     impl.MemberID // "" iff there are no members
	members    []Member      // sorted by ID
	pending    []impl.MemberID
	// initialJoin: the running join timer is InitialDelayedJoin (the rebalance started from
	// Empty), which never completes early, only when its timer fires (docs/protocol.md §1.3).
	initialJoin bool
	// log is the last GroupMetadata record written for the group (nil: none, or Persist off).
	// It is immutable and shared between successors.
	log *Record
}

// New is an Empty group at generation 0.
func New(cfg Config) Group { return Group{cfg: cfg} }

// Config is the group's configuration.
func (g Group) Config() Config { return g.cfg }

// State is the group state.
func (g Group) State() State { return g.state }

// Generation is the current generation id.
func (g Group) Generation() impl.Generation { return g.generation }

// ProtocolName is the selected assignor of the current generation, "" when none.
func (g Group) ProtocolName() string { return g.protocol }

// Leader is the leader's member id, "" when the group has no members.
func (g Group) Leader() impl.MemberID { return g.leader }

// InitialJoin reports whether the join phase under way started from Empty: it then completes
// only by JoinPhaseTimeout (group.initial.rebalance.delay.ms), never early.
func (g Group) InitialJoin() bool { return g.initialJoin }

// Members lists the member ids in order.
func (g Group) Members() []impl.MemberID {
	ids := make([]impl.MemberID, len(g.members))
	for i, m := range g.members {
		ids[i] = m.ID
	}
	return ids
}

// AllMembers returns a copy of every member record, in id order.
func (g Group) AllMembers() []Member { return slices.Clone(g.members) }

// Member returns a copy of the member's record.
func (g Group) Member(id impl.MemberID) (Member, bool) {
	if i, ok := g.index(id); ok {
		return g.members[i], true
	}
	return Member{}, false
}

// Pending lists the member ids handed out with MEMBER_ID_REQUIRED that have not joined yet
// (KIP-394), in order.
func (g Group) Pending() []impl.MemberID { return slices.Clone(g.pending) }

// IsPending reports whether id is a pending member id.
func (g Group) IsPending(id impl.MemberID) bool {
	_, ok := slices.BinarySearch(g.pending, id)
	return ok
}

// StaticMember is the member id currently holding the instance id (staticMembers).
func (g Group) StaticMember(inst impl.InstanceID) (impl.MemberID, bool) {
	if inst == "" {
		return "", false
	}
	for _, m := range g.members {
		if m.InstanceID == inst {
			return m.ID, true
		}
	}
	return "", false
}

// Parked is one parked request: a member's JoinGroup or SyncGroup and the connection that
// will receive its answer.
type Parked struct {
	Member impl.MemberID
	Sync   bool // false: JoinGroup
	Conn   impl.Conn
}

// Parked lists every parked request, by member id, JoinGroup before SyncGroup.
func (g Group) Parked() []Parked {
	var out []Parked
	for _, m := range g.members {
		if m.Join.Parked {
			out = append(out, Parked{Member: m.ID, Conn: m.Join.Conn})
		}
		if m.Sync.Parked {
			out = append(out, Parked{Member: m.ID, Sync: true, Conn: m.Sync.Conn})
		}
	}
	return out
}

// index finds a member by id.
func (g Group) index(id impl.MemberID) (int, bool) {
	return slices.BinarySearchFunc(g.members, id, func(m Member, id impl.MemberID) int {
		switch {
		case m.ID < id:
			return -1
		case m.ID > id:
			return 1
		}
		return 0
	})
}

// numAwaitingJoin counts members with a parked JoinGroup (numMembersAwaitingJoin).
func (g Group) numAwaitingJoin() int {
	n := 0
	for _, m := range g.members {
		if m.Join.Parked {
			n++
		}
	}
	return n
}

// allJoined is hasAllMembersJoined: every member parked a JoinGroup and no pending ids remain.
func (g Group) allJoined() bool {
	return g.numAwaitingJoin() == len(g.members) && len(g.pending) == 0
}
