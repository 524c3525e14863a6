package coordinator

import "github.com/groupcheck/groupcheck/impl"

// Timers are inputs, not clocks: each timeout is a method the caller invokes when the timer
// could have fired, and an Enabled… predicate says when that can change anything. A timeout
// that is not enabled is a no-op returning the group unchanged and no replies.

// CanSessionExpire reports whether the member's session timer can remove it: it is a member
// of a live group and has not "satisfied its heartbeat" — a member with a parked JoinGroup or
// SyncGroup counts as alive, except a new member (KAFKA-7610's join timeout).
// Reference: docs/protocol.md §1.9.
func (g Group) CanSessionExpire(id impl.MemberID) bool {
	i, ok := g.index(id)
	if !ok || g.state == Dead {
		return false
	}
	m := g.members[i]
	return m.IsNew || !m.Join.Parked && !m.Sync.Parked
}

// ExpirableMembers lists the members for which CanSessionExpire holds, in id order.
func (g Group) ExpirableMembers() []impl.MemberID {
	var out []impl.MemberID
	for _, m := range g.members {
		if g.CanSessionExpire(m.ID) {
			out = append(out, m.ID)
		}
	}
	return out
}

// SessionExpired is the member's session timer firing: the member is removed as by
// LeaveGroup (its parked JoinGroup gets UNKNOWN_MEMBER_ID). No-op unless CanSessionExpire.
// Reference: docs/protocol.md §1.9.
func (g Group) SessionExpired(id impl.MemberID) (Group, []impl.Reply) {
	if !g.CanSessionExpire(id) {
		return g, nil
	}
	s := g.begin()
	s.removeMember(id)
	return s.finish()
}

// EnabledPendingMemberExpiry reports whether id is a pending member id of a live group.
func (g Group) EnabledPendingMemberExpiry(id impl.MemberID) bool {
	return g.state != Dead && g.IsPending(id)
}

// PendingMemberExpired is the session timer of a pending member id (KIP-394) firing before
// it re-sent JoinGroup: the id is dropped, which may complete the join phase.
// Reference: docs/protocol.md §1.9.
func (g Group) PendingMemberExpired(id impl.MemberID) (Group, []impl.Reply) {
	if !g.EnabledPendingMemberExpiry(id) {
		return g, nil
	}
	s := g.begin()
	s.removePendingMember(id)
	return s.finish()
}

// JoinTimerArmed reports whether a join timer runs (the group is PreparingRebalance).
func (g Group) JoinTimerArmed() bool { return g.state == PreparingRebalance }

// EnabledJoinPhaseTimeout reports whether JoinPhaseTimeout changes the group: a join timer
// runs, and firing it would complete the phase, evict a dynamic member, or turn the initial
// delay into a DelayedJoin. It is false only when every member is an absent static member
// after the initial delay, where firing just re-arms the timer.
func (g Group) EnabledJoinPhaseTimeout() bool {
	if !g.JoinTimerArmed() {
		return false
	}
	if g.initialJoin || len(g.members) == 0 {
		return true
	}
	for _, m := range g.members {
		if m.Join.Parked || !m.IsStatic() {
			return true
		}
	}
	return false
}

// JoinPhaseTimeout is the join timer (DelayedJoin or InitialDelayedJoin) firing: the join
// phase completes with the members that rejoined (onCompleteJoin, docs/protocol.md §1.3 steps 1–5).
// No-op unless EnabledJoinPhaseTimeout. Reference: docs/protocol.md §1.3, §1.9.
func (g Group) JoinPhaseTimeout() (Group, []impl.Reply) {
	if !g.EnabledJoinPhaseTimeout() {
		return g, nil
	}
	s := g.begin()
	s.completeJoin()
	return s.finish()
}

// SyncTimerArmed reports whether a sync timer runs: the group is CompletingRebalance or
// Stable and some member of the generation has not sent SyncGroup. Never under
// FaultNoSyncTimer (B3, KAFKA-12890: the timer does not exist).
func (g Group) SyncTimerArmed() bool {
	if g.cfg.Faults.Has(impl.FaultNoSyncTimer) {
		return false
	}
	if g.state != CompletingRebalance && g.state != Stable {
		return false
	}
	for _, m := range g.members {
		if m.PendingSync {
			return true
		}
	}
	return false
}

// EnabledSyncPhaseTimeout reports whether SyncPhaseTimeout can fire (same as SyncTimerArmed).
func (g Group) EnabledSyncPhaseTimeout() bool { return g.SyncTimerArmed() }

// SyncPhaseTimeout is the sync timer firing: every member that has not sent SyncGroup in
// this generation is removed (nothing is answered), then the group rebalances (KAFKA-12890).
// No-op unless EnabledSyncPhaseTimeout. Reference: docs/protocol.md §1.3 step 5, §1.9.
func (g Group) SyncPhaseTimeout() (Group, []impl.Reply) {
	if !g.EnabledSyncPhaseTimeout() {
		return g, nil
	}
	s := g.begin()
	for _, m := range g.members {
		if m.PendingSync {
			s.remove(m.ID)
		}
	}
	s.prepareRebalance()
	return s.finish()
}

// Unload moves the group to Dead (coordinator partition emigrated): in PreparingRebalance
// every parked JoinGroup, in CompletingRebalance/Stable every parked SyncGroup gets
// NOT_COORDINATOR; the sync timer is cancelled. Dead is terminal for this value: every later
// request is refused with COORDINATOR_NOT_AVAILABLE. Reference: docs/protocol.md §1.3 "any → Dead".
func (g Group) Unload() (Group, []impl.Reply) {
	s := g.begin()
	prev := s.g.state
	s.transition(Dead)
	s.g.initialJoin = false
	for i := range s.g.members {
		m := &s.g.members[i]
		if prev == PreparingRebalance && m.Join.Parked {
			s.reply(m.Join.Conn, joinError(m.ID, impl.NotCoordinator))
			m.Join = ParkedJoin{}
		}
		if (prev == CompletingRebalance || prev == Stable) && m.Sync.Parked {
			s.reply(m.Sync.Conn, impl.SyncGroupResponse{Error: impl.NotCoordinator})
			m.Sync = ParkedSync{}
		}
		m.PendingSync = false
	}
	return s.g, s.out
}
