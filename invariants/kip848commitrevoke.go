package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// kip848CommitBeforeRevoke is commit-before-revoke for the KIP-848 consumer: a reconciliation
// that takes partitions away first commits them, and calls onPartitionsRevoked only once
// that commit has ended (answered, refused, or its answer lost). Java's
// ConsumerMembershipManager.revokePartitions marks the partitions pending revocation (no more
// fetching), sends the auto-commit of all consumed offsets (CommitRequestManager
// maybeAutoCommitSyncBeforeRevocation) and runs the callback when that commit completes,
// "proceed with the revocation anyway" if it failed (docs/protocol.md §3.7: commit → revoked →
// assigned). The commit must be the revocation's own, sent once the assignment that revokes
// arrived: a commit already in flight carries the offsets of an earlier moment, and a
// revocation that rides on its answer hands the next owner a position behind what this
// member processed, which the next owner then processes again. The client's in-flight
// commit marker says which commit is the revocation's (impl/kip848client PendingCommit); the
// revocations of a leave (unsubscribe, close) are not the reconciliation's and are not
// judged.
var kip848CommitBeforeRevoke = Property{
	Name:      "kip848-commit-before-revoke",
	Kind:      explorer.Always,
	Statement: "a KIP-848 reconciliation calls onPartitionsRevoked only in the step that ends the member's revocation commit of those partitions, sent after the assignment that revokes them",
	Source:    "docs/protocol.md §3.7 (reconciliation: commit → onPartitionsRevoked → onPartitionsAssigned); ConsumerMembershipManager.revokePartitions, CommitRequestManager.maybeAutoCommitSyncBeforeRevocation",
	Applies:   kip848Protocol,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for _, e := range ev {
			cb, ok := e.(spec.CallbackEvent)
			if !ok || cb.Kind != consumer.Revoked || cb.Partitions.IsEmpty() ||
				leaving(post.Slots[cb.Slot].Member, post.Slots[cb.Slot].Process) {
				continue
			}
			c := pre.Slots[cb.Slot].Member.Commit
			switch {
			case !c.Active || !c.Revocation || !cb.Partitions.Minus(c.Partitions).IsEmpty():
				return fmt.Sprintf("%s revokes %s without a revocation commit of them in flight (in flight: %t, revocation: %t, %s)", cb.Name, cb.Partitions, c.Active, c.Revocation, c.Partitions)
			case !commitEnds(ev, cb.Slot):
				return fmt.Sprintf("%s revokes %s before its revocation commit ended", cb.Name, cb.Partitions)
			}
		}
		return ""
	},
}

// commitEnds says whether ev reports the end of slot i's commit in flight.
func commitEnds(ev []spec.Event, i int) bool {
	for _, e := range ev {
		if c, ok := e.(spec.CommitResultEvent); ok && c.Slot == i {
			return true
		}
	}
	return false
}
