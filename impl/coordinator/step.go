package coordinator

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// step is one handler invocation under way: a private copy of the group that the handler
// may modify in place, and the replies produced so far, in the order Kafka would send them.
type step struct {
	g   Group
	out []impl.Reply
}

// begin copies the group's slices so that the step never writes memory the receiver shares.
// Member records are copied by value; their Protocols slices are immutable and shared.
func (g Group) begin() *step {
	g.members = slices.Clone(g.members)
	g.pending = slices.Clone(g.pending)
	return &step{g: g}
}

// finish ends a step: a join phase whose members have all rejoined completes, and under
// FaultJoinTimerZero a DelayedJoin fires at once (B1, KAFKA-8653: rebalance timeout 0).
func (s *step) finish() (Group, []impl.Reply) {
	s.maybeCompleteJoin()
	if s.g.cfg.Faults.Has(impl.FaultJoinTimerZero) && s.g.state == PreparingRebalance && !s.g.initialJoin {
		s.completeJoin()
	}
	return s.g, s.out
}

func (s *step) reply(to impl.Conn, r impl.Response) {
	s.out = append(s.out, impl.Reply{To: to, Response: r})
}

// member is the step's own record of id; nil if absent.
func (s *step) member(id impl.MemberID) *Member {
	if i, ok := s.g.index(id); ok {
		return &s.g.members[i]
	}
	return nil
}

// insert adds a record, keeping members sorted and instance ids unique.
func (s *step) insert(m Member) {
	i, found := s.g.index(m.ID)
	if found {
		panic(fmt.Sprintf("coordinator: add member %q: id already in use", m.ID))
	}
	if _, dup := s.g.StaticMember(m.InstanceID); dup {
		panic(fmt.Sprintf("coordinator: add member %q: instance %q already mapped", m.ID, m.InstanceID))
	}
	s.g.members = slices.Insert(s.g.members, i, m)
	s.dropPending(m.ID)
}

// extract deletes a record without touching leadership (used by renames).
func (s *step) extract(id impl.MemberID) Member {
	i, ok := s.g.index(id)
	if !ok {
		panic(fmt.Sprintf("coordinator: remove member %q: not a member", id))
	}
	m := s.g.members[i]
	s.g.members = slices.Delete(s.g.members, i, i+1)
	return m
}

// remove is GroupMetadata.remove: delete the member (or pending id) without answering
// anything; a removed leader is replaced by the first remaining member in id order (Kafka
// picks an arbitrary one).
func (s *step) remove(id impl.MemberID) {
	if id == impl.NoMemberID {
		return
	}
	if _, ok := s.g.index(id); ok {
		s.extract(id)
	}
	s.dropPending(id)
	if s.g.leader == id {
		s.g.leader = ""
		if len(s.g.members) > 0 {
			s.g.leader = s.g.members[0].ID
		}
	}
}

func (s *step) dropPending(id impl.MemberID) {
	if i, ok := slices.BinarySearch(s.g.pending, id); ok {
		s.g.pending = slices.Delete(s.g.pending, i, i+1)
	}
}

func (s *step) addPending(id impl.MemberID) {
	if i, ok := slices.BinarySearch(s.g.pending, id); !ok {
		s.g.pending = slices.Insert(s.g.pending, i, id)
	}
}

// inUse reports whether id names a member or a pending member.
func (s *step) inUse(id impl.MemberID) bool {
	_, ok := s.g.index(id)
	return ok || s.g.IsPending(id)
}

// maybePrepareRebalance starts a rebalance if the state allows one (canRebalance).
// Reference: docs/protocol.md §1.3.
func (s *step) maybePrepareRebalance() {
	if CanTransition(s.g.state, PreparingRebalance) {
		s.prepareRebalance()
	}
}

// prepareRebalance enters PreparingRebalance: from CompletingRebalance every parked SyncGroup
// gets REBALANCE_IN_PROGRESS and stored assignments are cleared; the sync timer is cancelled;
// a join timer is armed (InitialDelayedJoin from Empty). Reference: docs/protocol.md §1.3.
func (s *step) prepareRebalance() {
	from := s.g.state
	for i := range s.g.members {
		m := &s.g.members[i]
		if from == CompletingRebalance {
			m.Assignment = impl.Assignment{}
			if m.Sync.Parked {
				s.reply(m.Sync.Conn, impl.SyncGroupResponse{Error: impl.RebalanceInProgress})
				m.Sync = ParkedSync{}
			}
		}
		m.PendingSync = false
	}
	s.g.initialJoin = from == Empty
	s.transition(PreparingRebalance)
}

// maybeCompleteJoin completes the join phase early when every member has rejoined and no
// pending member is outstanding; InitialDelayedJoin never completes early. Under
// impl.FaultJoinWaitsForTimer no phase does. Reference: docs/protocol.md §1.3.
func (s *step) maybeCompleteJoin() {
	if s.g.cfg.Faults.Has(impl.FaultJoinWaitsForTimer) {
		return
	}
	if s.g.state == PreparingRebalance && !s.g.initialJoin && s.g.allJoined() {
		s.completeJoin()
	}
}
