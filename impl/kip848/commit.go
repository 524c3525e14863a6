package kip848

import "github.com/groupcheck/groupcheck/impl"

// OffsetCommit validates a commit (OffsetCommit v9) whose Generation carries the member
// epoch: accepted only if the member exists and the epoch equals its current epoch exactly,
// else STALE_MEMBER_EPOCH; an unknown member gets UNKNOWN_MEMBER_ID; a negative epoch on a
// group without members is an admin commit and is accepted. Partition ownership is not
// checked. The group does not change. Reference: docs/protocol.md §3.1.
func (g Group) OffsetCommit(req impl.OffsetCommitRequest) (Group, []impl.Reply) {
	return g, []impl.Reply{{To: req.Conn, Response: impl.OffsetCommitResponse{Error: g.validateCommit(req)}}}
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
	case epoch != m.MemberEpoch:
		return impl.StaleMemberEpoch
	}
	return impl.None
}
