package kip848client

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// HeartbeatTick is the heartbeat interval timer: it sends a heartbeat when the member is in
// the group and none is in flight. JOINING, ACKNOWLEDGING and LEAVING do not wait for it:
// their heartbeat goes out at once whenever none is in flight. Reference: docs/protocol.md §3.7.
func (m Member) HeartbeatTick() (Member, []Effect) {
	s := &stepper{m: m}
	if m.WantsHeartbeat() {
		s.sendHeartbeat()
	}
	return s.done("HeartbeatTick")
}

// sendUrgent sends the heartbeat a state wants at once (the join, the acknowledgement or the
// leave) if none is in flight. Reference: docs/protocol.md §3.7 (Java shouldHeartbeatNow).
func (s *stepper) sendUrgent() {
	if s.m.Status.urgent() && !s.m.Heartbeat.Active {
		s.sendHeartbeat()
	}
}

// sendHeartbeat sends one heartbeat and applies onHeartbeatRequestGenerated: ACKNOWLEDGING
// becomes STABLE (or RECONCILING when a newer target arrived meanwhile) and LEAVING becomes
// UNSUBSCRIBED (or STALE). Reference: docs/protocol.md §3.7.
func (s *stepper) sendHeartbeat() {
	if s.m.Status == Leaving {
		s.sendLeave()
		return
	}
	req := s.m.heartbeatRequest()
	s.m.Sent = SentFields{Valid: true, Topics: s.m.Topics, Owned: s.m.OwnedPartitions}
	s.m.Heartbeat = PendingHeartbeat{Active: true, Epoch: req.MemberEpoch}
	s.emit(Send{Request: req})
	if s.m.Status == Acknowledging {
		if s.m.Target.Equal(s.m.OwnedPartitions) {
			s.to(Stable)
		} else {
			s.to(Reconciling)
			s.maybeReconcile()
		}
	}
}

// heartbeatRequest builds the next heartbeat: member id, epoch and instance id always; the
// subscription and owned partitions when joining, after a failure (cache invalid) or when
// they changed since last sent. Reference: docs/protocol.md §3.1, §3.7; KAFKA-16190.
func (m Member) heartbeatRequest() impl.ConsumerGroupHeartbeatRequest {
	req := impl.ConsumerGroupHeartbeatRequest{
		Conn:        m.Config.Conn,
		MemberID:    m.ID,
		MemberEpoch: m.MemberEpoch,
		InstanceID:  m.Config.InstanceID,
	}
	full := m.Status == Joining || !m.Sent.Valid
	if full || !slices.Equal(m.Sent.Topics, m.Topics) {
		req.SubscribedTopicNames = slices.Clone(m.Topics)
		if req.SubscribedTopicNames == nil {
			req.SubscribedTopicNames = []string{}
		}
	}
	if full || !m.Sent.Owned.Equal(m.OwnedPartitions) {
		owned := m.OwnedPartitions
		req.OwnedPartitions = &owned
	}
	return req
}

// sendLeave sends the leave heartbeat (epoch -1, or -2 for a static member) and completes
// the leave: UNSUBSCRIBED, or STALE with onPartitionsLost after a poll timeout. A member that
// never got an id has nothing to leave and sends nothing. Reference: docs/protocol.md §3.6, §3.7.
func (s *stepper) sendLeave() {
	epoch := s.m.Config.leaveEpoch()
	s.m.MemberEpoch = epoch
	s.m.Sent = SentFields{}
	if s.m.ID != impl.NoMemberID {
		s.emit(Send{Request: impl.ConsumerGroupHeartbeatRequest{
			Conn:        s.m.Config.Conn,
			MemberID:    s.m.ID,
			MemberEpoch: epoch,
			InstanceID:  s.m.Config.InstanceID,
		}})
		s.m.Heartbeat = PendingHeartbeat{Active: true, Epoch: epoch}
	}
	s.completeLeave()
}

// completeLeave ends a leave: STALE (partitions lost) after a poll timeout, else UNSUBSCRIBED.
func (s *stepper) completeLeave() {
	if s.m.PollExpired {
		s.to(Stale)
		s.lose()
		return
	}
	s.to(Unsubscribed)
}

// OnHeartbeatResponse handles the response to the in-flight heartbeat. Success: adopt the
// member id and epoch, and a new target if an assignment is present (→ RECONCILING, or
// STABLE when already reconciled). FENCED_MEMBER_EPOCH / UNKNOWN_MEMBER_ID: fenced, rejoin.
// COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS: retry. Any
// other error: FATAL. Responses to the leave heartbeat, or arriving after the member left,
// are ignored. Reference: docs/protocol.md §3.7.
//
// Under impl.FaultInFlightStuckOnError an error response leaves the in-flight marker set,
// so the member never heartbeats again (docs/bugs.md B21).
//
// It panics when no heartbeat is in flight.
func (m Member) OnHeartbeatResponse(resp impl.ConsumerGroupHeartbeatResponse) (Member, []Effect) {
	if !m.Heartbeat.Active {
		panic("kip848client.OnHeartbeatResponse: no heartbeat in flight")
	}
	s := &stepper{m: m}
	sentEpoch := m.Heartbeat.Epoch
	if resp.Error == impl.None || !m.Config.Faults.Has(impl.FaultInFlightStuckOnError) {
		s.m.Heartbeat = PendingHeartbeat{}
	}
	if resp.Error != impl.None {
		s.m.Sent = SentFields{}
	}
	switch {
	case sentEpoch < 0 || !m.Status.inGroup():
		// The leave's response, or a late one: the member is no longer in the group.
	case resp.Error == impl.None:
		s.onSuccess(resp)
	default:
		s.onError(resp.Error)
	}
	s.sendUrgent()
	return s.done("OnHeartbeatResponse")
}

// onSuccess is Java's onHeartbeatSuccess. Reference: docs/protocol.md §3.7.
func (s *stepper) onSuccess(resp impl.ConsumerGroupHeartbeatResponse) {
	if s.m.Status == Leaving {
		return // already leaving: the response's content no longer matters
	}
	if resp.MemberID != impl.NoMemberID {
		s.m.ID = resp.MemberID
	}
	s.m.MemberEpoch = resp.MemberEpoch
	if resp.Assignment != nil {
		s.assignmentReceived(*resp.Assignment)
	}
}

// onError classifies an error response. Reference: docs/protocol.md §3.7.
func (s *stepper) onError(code impl.ErrorCode) {
	switch {
	case code == impl.FencedMemberEpoch || code == impl.UnknownMemberID:
		s.fence(code)
	case Retriable(code):
		// Retried at the next tick, or at once by a JOINING/ACKNOWLEDGING/LEAVING member.
	default:
		s.fail(code)
	}
}

// Retriable reports whether a heartbeat error is retried as is: the coordinator moved, is
// unknown or is loading. Reference: docs/protocol.md §3.1, §3.7.
func Retriable(code impl.ErrorCode) bool {
	switch code {
	case impl.CoordinatorNotAvailable, impl.NotCoordinator, impl.CoordinatorLoadInProgress:
		return true
	}
	return false
}

// fence handles FENCED_MEMBER_EPOCH / UNKNOWN_MEMBER_ID: FENCED, epoch 0, onPartitionsLost
// of everything owned, then JOINING with the same member id. A leaving member completes its
// leave without sending it. Reference: docs/protocol.md §3.7.
//
// Under impl.FaultKeepsEpochWhenFenced a FENCED_MEMBER_EPOCH leaves the epoch as it was, so
// the join heartbeat carries the fenced epoch.
func (s *stepper) fence(code impl.ErrorCode) {
	if s.m.Status == Leaving {
		s.m.MemberEpoch = impl.EpochJoin
		s.completeLeave()
		return
	}
	s.to(Fenced)
	epoch := impl.EpochJoin
	if s.m.Config.Faults.Has(impl.FaultKeepsEpochWhenFenced) && code == impl.FencedMemberEpoch {
		epoch = s.m.MemberEpoch
	}
	s.m.MemberEpoch = epoch
	s.lose()
	s.joinAt(epoch)
}

// fail stops the member: FATAL, partitions lost, the error reported. Reference: docs/protocol.md §3.7.
func (s *stepper) fail(code impl.ErrorCode) {
	s.to(Fatal)
	s.m.FatalError = code
	s.lose()
	s.emit(FatalError{Error: code})
}

// join enters JOINING: epoch 0, no target, a full request next, sent at once if possible.
// Reference: docs/protocol.md §3.7 (transitionToJoining; KAFKA-16190).
func (s *stepper) join() { s.joinAt(impl.EpochJoin) }

// joinAt is join with the epoch the join heartbeat carries: always 0 but under
// impl.FaultKeepsEpochWhenFenced.
func (s *stepper) joinAt(epoch impl.Epoch) {
	s.to(Joining)
	s.m.MemberEpoch = epoch
	s.m.Target = impl.PartitionSet{}
	s.m.Sent = SentFields{}
	s.m.PollExpired = false
	s.sendUrgent()
}

// RequestTimedOut says the in-flight request of kind k will never be answered (its response
// was lost). A heartbeat failure resets the sent-fields cache so the next heartbeat is full;
// a join, acknowledgement or leave is re-sent at once. A lost revocation commit counts as a
// failed commit: the reconciliation goes on. Reference: docs/protocol.md §3.7.
//
// The caller delivers it only for a request actually outstanding in its network. It panics
// when no request of kind k is in flight.
func (m Member) RequestTimedOut(k RequestKind) (Member, []Effect) {
	s := &stepper{m: m}
	switch k {
	case KindHeartbeat:
		if !m.Heartbeat.Active {
			panic("kip848client.RequestTimedOut: no heartbeat in flight")
		}
		s.m.Heartbeat = PendingHeartbeat{}
		s.m.Sent = SentFields{}
		s.sendUrgent()
	case KindCommit:
		if !m.Commit.Active {
			panic("kip848client.RequestTimedOut: no commit in flight")
		}
		s.commitEnded(CommitResult{TimedOut: true})
	default:
		panic("kip848client.RequestTimedOut: invalid request kind " + k.String())
	}
	return s.done("RequestTimedOut")
}

// MarksCoordinatorUnknown reports whether an answer makes the client mark its coordinator
// unknown and look it up again (CoordinatorRequestManager.markCoordinatorUnknown, called by the
// heartbeat and commit request managers): NOT_COORDINATOR and COORDINATOR_NOT_AVAILABLE.
// COORDINATOR_LOAD_IN_PROGRESS is retried against the same coordinator. The member keeps its
// id and epoch either way (Retriable). Reference: docs/protocol.md §3.1, §3.7.
func MarksCoordinatorUnknown(code impl.ErrorCode) bool {
	return code == impl.NotCoordinator || code == impl.CoordinatorNotAvailable
}
