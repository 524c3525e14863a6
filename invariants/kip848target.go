package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/spec"
)

// kip848TargetStable: a KIP-848 target assignment is computed once per assignment epoch
// (docs/protocol.md §3.3 step 4: only when the group epoch is above the assignment epoch, and the new
// target takes the group epoch). Within an epoch it only loses the entry of a member that is
// removed and carries a static member's entry to its replacement (§3.6); no member's target
// changes otherwise. Members reconcile towards the target of the epoch they are told
// (CurrentAssignmentBuilder compares the member's epoch with the target epoch), so a target
// that changes under one epoch sends members towards different assignments with nothing to
// tell them apart — a partition promised to two owners in turn, each reconciled at the same
// epoch.
var kip848TargetStable = Property{
	Name:      "kip848-target-stable",
	Kind:      explorer.Always,
	Statement: "while the KIP-848 assignment epoch stays, no member's target changes, except that a removed member's entry goes and a replaced static member's passes to its replacement",
	Source:    "docs/protocol.md §3.3 step 4 (groupEpoch > assignmentEpoch), §3.6 (static replacement keeps the target)",
	Applies:   kip848Protocol,
	Step: func(pre *spec.World, _ []spec.Event, post *spec.World) string {
		a, b := pre.Group, post.Group
		if a.AssignmentEpoch() != b.AssignmentEpoch() {
			return ""
		}
		for _, e := range b.Target() {
			was, ok := previousTarget(a, b, e.ID)
			if !ok {
				return fmt.Sprintf("%s gets a target entry %s at assignment epoch %d, which it did not have and replaces nobody's", e.ID, e.Partitions, b.AssignmentEpoch())
			}
			if !was.Equal(e.Partitions) {
				return fmt.Sprintf("%s's target changes from %s to %s within assignment epoch %d", e.ID, was, e.Partitions, b.AssignmentEpoch())
			}
		}
		return ""
	},
}

// previousTarget is the target entry member id of group b had in group a: its own, or that of
// the record of the same instance it replaced.
func previousTarget(a, b kip848.Group, id impl.MemberID) (impl.PartitionSet, bool) {
	for _, e := range a.Target() {
		if e.ID == id {
			return e.Partitions, true
		}
	}
	m, ok := b.Member(id)
	if !ok || m.InstanceID == "" {
		return impl.PartitionSet{}, false
	}
	for _, e := range a.Target() {
		if o, was := a.Member(e.ID); was && o.InstanceID == m.InstanceID {
			return e.Partitions, true
		}
	}
	return impl.PartitionSet{}, false
}
