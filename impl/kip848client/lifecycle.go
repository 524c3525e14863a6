package kip848client

import "github.com/groupcheck/groupcheck/impl"

// Subscribe sets the subscription. An unsubscribed member joins (epoch 0, all fields, sent at
// once); a member in the group sends the new topics with its next heartbeat; a leaving or
// STALE member keeps them for its next Poll. An empty list unsubscribes. A closed or FATAL
// member ignores it. Reference: docs/protocol.md §3.7.
func (m Member) Subscribe(topics []string) (Member, []Effect) {
	topics = sortedTopics(topics)
	if len(topics) == 0 {
		return m.Unsubscribe()
	}
	s := &stepper{m: m}
	if !m.Closed && m.Status != Fatal {
		s.m.Topics = topics
		if m.Status == Unsubscribed {
			s.join()
		}
	}
	return s.done("Subscribe")
}

// Unsubscribe leaves the group: PREPARE_LEAVING runs onPartitionsRevoked for everything
// owned (onPartitionsLost if the member has no epoch), then LEAVING sends epoch -1 (-2 for a
// static member) at once, or when the heartbeat in flight is answered. Reference: docs/protocol.md §3.7.
func (m Member) Unsubscribe() (Member, []Effect) {
	s := &stepper{m: m}
	s.m.Topics = nil
	s.leave()
	return s.done("Unsubscribe")
}

// Close is a graceful close: Unsubscribe, and the incarnation never rejoins.
// Reference: docs/protocol.md §3.7.
func (m Member) Close() (Member, []Effect) {
	s := &stepper{m: m}
	s.m.Topics = nil
	s.m.Closed = true
	s.leave()
	return s.done("Close")
}

// leave is Java's leaveGroup for a member in the group; other states have nothing to leave.
func (s *stepper) leave() {
	if !s.m.Status.holdsAssignment() && s.m.Status != Joining {
		return
	}
	s.to(PrepareLeaving)
	kind := Revoked
	if s.m.MemberEpoch <= 0 {
		kind = Lost
	}
	s.callback(kind, s.m.OwnedPartitions)
	s.m.OwnedPartitions = impl.PartitionSet{}
	s.m.Target = impl.PartitionSet{}
	s.to(Leaving)
	s.sendUrgent()
}

// PollTimeout is max.poll.interval.ms expiring: the member leaves (PREPARE_LEAVING, LEAVING
// without callbacks), and once the leave heartbeat is sent it goes STALE and calls
// onPartitionsLost. Reference: docs/protocol.md §3.7.
func (m Member) PollTimeout() (Member, []Effect) {
	s := &stepper{m: m}
	if m.Status.holdsAssignment() || m.Status == Joining {
		s.m.PollExpired = true
		s.to(PrepareLeaving)
		s.to(Leaving)
		s.sendUrgent()
	}
	return s.done("PollTimeout")
}

// Poll is the application's poll: a STALE member, or an UNSUBSCRIBED one that was given a
// subscription while leaving, rejoins with epoch 0. Reference: docs/protocol.md §3.7.
func (m Member) Poll() (Member, []Effect) {
	s := &stepper{m: m}
	if !m.Closed && len(m.Topics) > 0 && (m.Status == Stale || m.Status == Unsubscribed) {
		s.join()
	}
	return s.done("Poll")
}
