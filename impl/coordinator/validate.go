package coordinator

import "github.com/groupcheck/groupcheck/impl"

// validateCurrentMember checks a request's identity: an instance id mapped to another member
// id is FENCED_INSTANCE_ID, an unknown instance id or member id UNKNOWN_MEMBER_ID.
// Reference: docs/protocol.md §1.4 (validateCurrentMember), §1.10.
func (g Group) validateCurrentMember(id impl.MemberID, inst impl.InstanceID) impl.ErrorCode {
	if inst != "" {
		cur, ok := g.StaticMember(inst)
		switch {
		case !ok:
			return impl.UnknownMemberID
		case cur != id:
			return impl.FencedInstanceID
		}
		return impl.None
	}
	if _, ok := g.index(id); !ok {
		return impl.UnknownMemberID
	}
	return impl.None
}

// Heartbeat answers a heartbeat. It never changes the group: liveness deadlines are not
// state here, session expiry is the SessionExpired input.
// Reference: docs/protocol.md §1.6.
func (g Group) Heartbeat(req impl.HeartbeatRequest) (Group, []impl.Reply) {
	return g, []impl.Reply{{To: req.Conn, Response: impl.HeartbeatResponse{Error: g.heartbeatError(req)}}}
}

func (g Group) heartbeatError(req impl.HeartbeatRequest) impl.ErrorCode {
	if g.state == Dead {
		return impl.CoordinatorNotAvailable
	}
	if code := g.validateCurrentMember(req.MemberID, req.InstanceID); code != impl.None {
		return code
	}
	if req.Generation != g.generation {
		return impl.IllegalGeneration
	}
	switch g.state {
	case Empty:
		return impl.UnknownMemberID
	case PreparingRebalance:
		return impl.RebalanceInProgress
	}
	return impl.None // CompletingRebalance (KAFKA-10134) and Stable
}

// OffsetCommit validates a commit: generation and identity only, never partition ownership
// (docs/protocol.md §1.8, §6). It never changes the group (offsets are not modelled).
// Reference: docs/protocol.md §1.8.
func (g Group) OffsetCommit(req impl.OffsetCommitRequest) (Group, []impl.Reply) {
	return g, []impl.Reply{{To: req.Conn, Response: impl.OffsetCommitResponse{Error: g.commitError(req)}}}
}

func (g Group) commitError(req impl.OffsetCommitRequest) impl.ErrorCode {
	switch {
	case g.state == Dead:
		return impl.CoordinatorNotAvailable
	case req.Generation < 0 && g.state == Empty:
		return impl.None // admin or manual-assignment committer
	case req.Generation >= 0 || req.MemberID != "" || req.InstanceID != "":
		if code := g.validateCurrentMember(req.MemberID, req.InstanceID); code != impl.None {
			return code
		}
		if req.Generation != g.generation {
			return impl.IllegalGeneration
		}
	default:
		return impl.UnknownMemberID // no identity, non-empty group
	}
	if g.state == CompletingRebalance {
		return impl.RebalanceInProgress
	}
	return impl.None
}
