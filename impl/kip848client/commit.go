package kip848client

import "github.com/groupcheck/groupcheck/impl"

// CommitTick is an application (or auto-commit interval) commit of the owned partitions,
// carrying the member epoch (OffsetCommit v9: Generation = member epoch). It sends nothing
// when a commit is in flight, nothing is owned, or the member holds no assignment.
// Reference: docs/protocol.md §3.1.
func (m Member) CommitTick() (Member, []Effect) {
	s := &stepper{m: m}
	if !m.Commit.Active && !m.OwnedPartitions.IsEmpty() && m.MemberEpoch > 0 && m.Status.holdsAssignment() {
		s.sendCommit(false)
	}
	return s.done("CommitTick")
}

// sendCommit sends an OffsetCommit of the owned partitions with the current member epoch.
func (s *stepper) sendCommit(revocation bool) {
	req := impl.OffsetCommitRequest{
		Conn:       s.m.Config.Conn,
		MemberID:   s.m.ID,
		InstanceID: s.m.Config.InstanceID,
		Generation: impl.Generation(s.m.MemberEpoch),
		Partitions: s.m.OwnedPartitions,
	}
	s.m.Commit = PendingCommit{Active: true, Revocation: revocation, Epoch: s.m.MemberEpoch, Partitions: s.m.OwnedPartitions}
	s.emit(Send{Request: req})
}

// OnOffsetCommitResponse handles the response to the in-flight OffsetCommit and reports it
// as a CommitResult. The auto-commit before a revocation refused with STALE_MEMBER_EPOCH is
// retried with the latest epoch when the member has learnt a newer epoch since sending it;
// otherwise — and for any other outcome — the reconciliation goes on with the callbacks
// (Java logs the failed commit and continues the revocation). Reference: docs/protocol.md §3.1, §3.7.
//
// It panics when no commit is in flight.
func (m Member) OnOffsetCommitResponse(resp impl.OffsetCommitResponse) (Member, []Effect) {
	if !m.Commit.Active {
		panic("kip848client.OnOffsetCommitResponse: no commit in flight")
	}
	s := &stepper{m: m}
	s.commitEnded(CommitResult{Accepted: resp.Error == impl.None, Error: resp.Error})
	return s.done("OnOffsetCommitResponse")
}

// commitEnded reports the in-flight commit's outcome and lets a waiting reconciliation go on.
func (s *stepper) commitEnded(r CommitResult) {
	c := s.m.Commit
	s.m.Commit = PendingCommit{}
	r.Revocation, r.Epoch, r.Partitions = c.Revocation, c.Epoch, c.Partitions
	if !s.m.Rec.Active {
		s.emit(r) // no reconciliation waits (or it was aborted, KAFKA-16375)
		return
	}
	switch {
	case s.m.Rec.AwaitCommit:
		s.emit(r)
		s.m.Rec.AwaitCommit = false
		s.sendCommit(true)
	case c.Revocation && r.Error == impl.StaleMemberEpoch && s.m.MemberEpoch > 0 && s.m.MemberEpoch != c.Epoch:
		r.Retried = true
		s.emit(r)
		s.sendCommit(true)
	default:
		s.emit(r)
		s.completeReconciliation()
	}
}
