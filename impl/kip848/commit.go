package kip848

import "github.com/groupcheck/groupcheck/impl"

// OffsetCommit validates a commit (OffsetCommit v9) whose Generation carries the member
// epoch: accepted if the member exists and the epoch equals its current epoch, else
// STALE_MEMBER_EPOCH; an unknown member gets UNKNOWN_MEMBER_ID; a negative epoch on a group
// without members is an admin commit and is accepted. Under CommitAssignmentEpochs (KIP-1251,
// Kafka 4.3 on, the default) an older epoch is accepted too when every committed partition is
// one the member holds and was assigned at or before that epoch, and refused whole (one
// STALE_MEMBER_EPOCH) otherwise (ConsumerGroup.validateOffsetCommit,
// createAssignmentEpochValidator; OffsetMetadataManager.commitOffset lets the first refused
// partition fail the request); under CommitExactEpoch (Kafka 4.0 to 4.2) it is refused.
// Ownership is not checked otherwise. The group does not change. Reference: docs/protocol.md
// §3.1.
func (g Group) OffsetCommit(req impl.OffsetCommitRequest) (Group, []impl.Reply) {
	return g, []impl.Reply{{To: req.Conn, Response: impl.OffsetCommitResponse{Error: g.validateCommit(req)}}}
}

// OffsetCommitUnder is OffsetCommit as a coordinator with Config.CommitRule set to rule
// would answer it, for a checker that does not know which Kafka it judges. The group must run
// with CommitAssignmentEpochs: the rule is the only thing that reads AssignedAt, and
// AssignedAt is kept only under it, so such a group answers every other request as either
// coordinator would, and every commit as the one asked for.
func (g Group) OffsetCommitUnder(req impl.OffsetCommitRequest, rule CommitRule) (Group, []impl.Reply) {
	h := g
	h.cfg.CommitRule = rule
	_, replies := h.OffsetCommit(req)
	return g, replies
}

func (g Group) validateCommit(req impl.OffsetCommitRequest) impl.ErrorCode {
	epoch := impl.Epoch(req.Generation)
	if epoch < 0 && len(g.members) == 0 {
		return impl.None
	}
	m, ok := g.Member(req.MemberID)
	switch {
	case !ok:
		return impl.UnknownMemberID
	case epoch == m.MemberEpoch:
		return impl.None
	case epoch > m.MemberEpoch || g.cfg.CommitRule != CommitAssignmentEpochs:
		return impl.StaleMemberEpoch
	}
	for _, tp := range req.Partitions.Slice() {
		if at, held := m.AssignmentEpoch(tp); !held || epoch < at {
			return impl.StaleMemberEpoch
		}
	}
	return impl.None
}
