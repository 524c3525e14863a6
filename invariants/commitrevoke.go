package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// commitBeforeRevoke asks that a classic member revoking partitions while STABLE — in
// onJoinPrepare before it rejoins, or on close — commit them first: the step that calls
// onPartitionsRevoked also sends an OffsetCommit naming them, or a commit is already in
// flight. That is the auto-commit (enable.auto.commit, Java's default) which
// ConsumerCoordinator.onJoinPrepare and close run before the revocation (docs/protocol.md §2.3 step 1;
// maybeAutoCommitOffsetsAsync/Sync): the next owner resumes from the offsets the revoking
// member processed, instead of reprocessing them. Revocations outside STABLE (cooperative
// onJoinComplete, KIP-429's NEEDS_REJOIN, after a reset) are not the auto-commit's and are
// not judged. The KIP-848 consumer commits before revoking too (docs/protocol.md §3, reconciliation);
// it is not judged here.
var commitBeforeRevoke = Property{
	Name:      "commit-before-revoke",
	Kind:      explorer.Always,
	Statement: "a classic member that revokes partitions while STABLE (before rejoining, or on close) commits them in that step, or has a commit in flight",
	Source:    "docs/protocol.md §2.3 step 1 (ConsumerCoordinator.onJoinPrepare auto-commit), §1.7 (close)",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		if pre.Config().ConsumerProtocol {
			return "" // Applies leaves KIP-848 worlds out; a caller may still pass one
		}
		for _, e := range ev {
			cb, ok := e.(spec.CallbackEvent)
			if !ok || cb.Kind != consumer.Revoked || cb.Partitions.IsEmpty() {
				continue
			}
			c := pre.Slots[cb.Slot].Client
			if c.Status != consumer.Stable || !c.Active() || c.Requests[consumer.KindCommit].Active || committed(ev, cb.Slot, cb.Partitions) {
				continue
			}
			return fmt.Sprintf("%s revokes %s while STABLE without committing them", cb.Name, cb.Partitions)
		}
		return ""
	},
}

// committed reports whether slot i sends an OffsetCommit naming every partition of ps in ev.
func committed(ev []spec.Event, i int, ps impl.PartitionSet) bool {
	for _, e := range ev {
		if s, ok := e.(spec.SendEvent); ok && s.Slot == i {
			if r, ok := s.Request.(impl.OffsetCommitRequest); ok && ps.Minus(r.Partitions).IsEmpty() {
				return true
			}
		}
	}
	return false
}
