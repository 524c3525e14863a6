package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// kip848EpochChecked: the coordinator accepts a ConsumerGroupHeartbeat of a member it holds
// only at the member's current epoch, or at its previous epoch when the owned partitions the
// request reports are a subset of what it is assigned (the answer that bumped its epoch was
// lost); anything else is FENCED_MEMBER_EPOCH (docs/protocol.md §3.3 step 3,
// throwIfConsumerGroupMemberEpochIsInvalid). A coordinator that accepts a heartbeat further
// behind lets a member that missed two epoch moves carry on with partitions the target may
// have given away; nothing else sees it while the member's owned set happens to be a subset.
// A step property: the delivered request is the head its sender's queue loses.
var kip848EpochChecked = Property{
	Name:      "kip848-epoch-checked",
	Kind:      explorer.Always,
	Statement: "a ConsumerGroupHeartbeat of a known member at a positive epoch is accepted only at its current epoch, or at its previous one with owned partitions a subset of its assignment",
	Source:    "docs/protocol.md §3.3 step 3 (GroupMetadataManager.throwIfConsumerGroupMemberEpochIsInvalid)",
	Applies:   kip848Protocol,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		q, _, ok := deliveredHeartbeat(pre, ev, post)
		if !ok || q.MemberEpoch <= 0 {
			return ""
		}
		m, known := pre.Group.Member(q.MemberID)
		if !known {
			return ""
		}
		for _, e := range ev {
			r, isReply := e.(spec.ReplyEvent)
			if !isReply {
				continue
			}
			if h, isHB := r.Response.(impl.ConsumerGroupHeartbeatResponse); !isHB || h.Error != impl.None {
				continue
			}
			switch {
			case q.MemberEpoch == m.MemberEpoch:
			case q.MemberEpoch == m.PreviousMemberEpoch && q.OwnedPartitions != nil && q.OwnedPartitions.SubsetOf(m.AssignedPartitions):
			default:
				return fmt.Sprintf("%s's heartbeat at epoch %d is accepted while the coordinator holds it at epoch %d (previous %d)",
					q.MemberID, q.MemberEpoch, m.MemberEpoch, m.PreviousMemberEpoch)
			}
		}
		return ""
	},
}

// deliveredHeartbeat is the ConsumerGroupHeartbeat the step delivered to a coordinator
// (spec.Delivered), and its slot.
func deliveredHeartbeat(pre *spec.World, ev []spec.Event, post *spec.World) (impl.ConsumerGroupHeartbeatRequest, int, bool) {
	i, ok := spec.Delivered(pre, post, ev)
	if !ok {
		return impl.ConsumerGroupHeartbeatRequest{}, 0, false
	}
	q, ok := pre.Slots[i].Out[0].(impl.ConsumerGroupHeartbeatRequest)
	return q, i, ok
}
