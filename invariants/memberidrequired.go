package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// memberIDRequired is KIP-394's coordinator half (docs/protocol.md §1.4 "Unknown member"): a
// JoinGroup without member id from a dynamic member at version 4 or later is not admitted.
// The coordinator reserves a new id as a pending member and answers MEMBER_ID_REQUIRED with it
// (or refuses the join outright: group-max-size, an inconsistent protocol, a dead group); the
// member is added only when it comes back with the id. Older versions and static members
// (KIP-345: the instance id already identifies them) are admitted at once, and are never told
// MEMBER_ID_REQUIRED, which a pre-v4 client does not know. KIP-394 exists because admitting
// every id-less join let a client that timed out and retried leave a member behind per retry
// (each one a rebalance and a 5-minute KAFKA-7610 wait); a coordinator that admits a v4+
// id-less join brings those back, and one that asks a v3 client for an id fails its join.
// member-id-adopted is the client half. The answer's id must be new: an id already held
// would be two processes' member.
var memberIDRequired = Property{
	Name:      "member-id-required",
	Kind:      explorer.Always,
	Statement: "a dynamic member's JoinGroup v4+ without member id adds no member and is answered MEMBER_ID_REQUIRED with a new pending id (or refused); a pre-v4 or static one is never answered MEMBER_ID_REQUIRED",
	Source:    "KIP-394; docs/protocol.md §1.4 \"Unknown member\" (GroupCoordinator.doNewMemberJoinGroup: requireKnownMemberId = version >= 4 && groupInstanceId.isEmpty)",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		q, ok := handledJoin(pre, ev, post)
		if !ok || q.MemberID != impl.NoMemberID {
			return ""
		}
		return idRequiredWrong(pre, q, ev, post)
	},
}

// idRequiredWrong says how the step from pre to post that handled id-less JoinGroup q broke
// KIP-394's two-step join, or "".
func idRequiredWrong(pre *spec.World, q impl.JoinGroupRequest, ev []spec.Event, post *spec.World) string {
	required := q.Version >= 4 && q.InstanceID == ""
	if required {
		for _, id := range post.Coord.Members() {
			if !slices.Contains(pre.Coord.Members(), id) {
				return fmt.Sprintf("a dynamic JoinGroup v%d without member id is admitted as %s (KIP-394: MEMBER_ID_REQUIRED first)", q.Version, id)
			}
		}
	}
	for _, e := range ev {
		r, isReply := e.(spec.ReplyEvent)
		a, isJoin := r.Response.(impl.JoinGroupResponse)
		if !isReply || !isJoin {
			continue
		}
		switch {
		case required && a.Error == impl.None:
			return fmt.Sprintf("%s's dynamic JoinGroup v%d without member id is answered at once (generation %d)", r.Name, q.Version, a.Generation)
		case a.Error != impl.MemberIDRequired:
		case !required:
			return fmt.Sprintf("%s's JoinGroup v%d (instance %q) is answered MEMBER_ID_REQUIRED: only a dynamic v4+ join is", r.Name, q.Version, q.InstanceID)
		case !post.Coord.IsPending(a.MemberID):
			return fmt.Sprintf("%s is answered MEMBER_ID_REQUIRED with %q, which the coordinator does not hold pending", r.Name, a.MemberID)
		case slices.Contains(pre.Coord.Members(), a.MemberID) || pre.Coord.IsPending(a.MemberID):
			return fmt.Sprintf("%s is answered MEMBER_ID_REQUIRED with %s, an id the coordinator already held", r.Name, a.MemberID)
		}
	}
	return ""
}
