package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// kip848LeaveAccepted: a KIP-848 member's own leave — a ConsumerGroupHeartbeat at epoch −1,
// or −2 for a static member's temporary leave — sent under the member id (and instance id)
// the coordinator holds it by is accepted (docs/protocol.md §3.1, §3.6: the coordinator fences the
// member out, or keeps the static record at −2 with its assignment, and answers with the
// epoch it was sent), and a record left at −2 keeps nothing pending revocation: its
// partitions to revoke go to their next owner without waiting for the member's return. The
// client completes its leave whatever the answer says, so a refused leave leaves a record
// nobody will heartbeat for: its partitions wait for the session timer, as after a crash, for
// a member that did everything right. And a temporary leave is honoured: the instance's
// return — a join at epoch 0 with its instance id while the record waits at −2 — is accepted
// (§3.6: the new member replaces the record and keeps its assignment; UNRELEASED_INSTANCE_ID
// is only for an instance whose record is still active), where a refusal is FATAL to the
// returning process. leave-applied judges an accepted leave; this one, that it is accepted.
var kip848LeaveAccepted = Property{
	Name:      "kip848-leave-accepted",
	Kind:      explorer.Always,
	Statement: "a KIP-848 leave heartbeat (epoch −1, or −2) under the member id and instance id the coordinator holds the member by is answered without error, a record left at −2 has nothing pending revocation, and the instance's return to it (a join at epoch 0) is accepted",
	Source:    "docs/protocol.md §3.1 (member epoch −1, −2), §3.6 (a static member's temporary leave keeps its assignment)",
	Applies:   kip848Protocol,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		q, i, ok := deliveredHeartbeat(pre, ev, post)
		if !ok || pre.Loading || pre.Slots[i].Stale {
			return "" // the old broker or a loading coordinator answered it
		}
		what := "leave at epoch " + fmt.Sprint(q.MemberEpoch)
		switch q.MemberEpoch {
		case impl.EpochLeave, impl.EpochTemporaryLeave:
			if m, held := pre.Group.Member(q.MemberID); !held || m.InstanceID != q.InstanceID {
				return ""
			}
		case impl.EpochJoin:
			if m, held := pre.Group.StaticMember(q.InstanceID); q.InstanceID == "" || !held || m.MemberEpoch != impl.EpochTemporaryLeave {
				return ""
			}
			what = "return to instance " + string(q.InstanceID) + ", left at epoch -2,"
		default:
			return ""
		}
		for _, e := range ev {
			r, isReply := e.(spec.ReplyEvent)
			if !isReply {
				continue
			}
			if h, isHB := r.Response.(impl.ConsumerGroupHeartbeatResponse); isHB && h.Error != impl.None {
				return fmt.Sprintf("%s's %s is refused %s", r.Name, what, h.Error)
			}
		}
		if n, ok := post.Group.Member(q.MemberID); ok && q.MemberEpoch == impl.EpochTemporaryLeave && !n.PartitionsPendingRevocation.IsEmpty() {
			return fmt.Sprintf("%s left at epoch -2 but its record keeps %s pending revocation", q.MemberID, n.PartitionsPendingRevocation)
		}
		return ""
	},
}
