package kip848client

import "github.com/groupcheck/groupcheck/impl"

// assignmentReceived stores a response's assignment as the new target (Java
// processAssignmentReceived): RECONCILING when it differs from what the member owns, or when
// it is the first assignment since joining (so onPartitionsAssigned runs even for an empty
// one); else STABLE for a member that was reconciling (an ACKNOWLEDGING member still owes its
// acknowledgement). Reference: docs/protocol.md §3.7.
func (s *stepper) assignmentReceived(target impl.PartitionSet) {
	s.m.Target = target
	switch {
	case !target.Equal(s.m.OwnedPartitions) || s.m.Status == Joining:
		s.to(Reconciling)
		s.maybeReconcile()
	case s.m.Status == Reconciling:
		s.to(Stable)
	}
}

// maybeReconcile starts a reconciliation towards the target unless one is under way (one at
// a time). Partitions to revoke are first committed (auto-commit); the callbacks wait for the
// commit's response. With nothing to revoke the reconciliation completes at once.
// Reference: docs/protocol.md §3.7.
func (s *stepper) maybeReconcile() {
	if s.m.Status != Reconciling || s.m.Rec.Active {
		return
	}
	s.m.Rec = Reconciliation{Active: true, Target: s.m.Target}
	if s.m.OwnedPartitions.Minus(s.m.Target).IsEmpty() {
		s.completeReconciliation()
		return
	}
	if s.m.Commit.Active {
		s.m.Rec.AwaitCommit = true
		return
	}
	s.sendCommit(true)
}

// completeReconciliation runs the callbacks — onPartitionsRevoked(owned − target), then
// onPartitionsAssigned(target − owned, even if empty) — sets the assignment and moves to
// ACKNOWLEDGING, whose heartbeat goes out at once. Reference: docs/protocol.md §3.7.
func (s *stepper) completeReconciliation() {
	target := s.m.Rec.Target
	revoked := s.m.OwnedPartitions.Minus(target)
	added := target.Minus(s.m.OwnedPartitions)
	s.callback(Revoked, revoked)
	s.callback(Assigned, added)
	s.m.OwnedPartitions = target
	s.to(Acknowledging)
	s.sendUrgent()
}
