package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/spec"
)

// KIP-848 fencing by the coordinator's timers: a revocation is bounded by the member's
// rebalance timer, and a world that budgets timers fences someone.

// kip848RevocationTimer: a revoking member can always be fenced. The coordinator arms the
// rebalance timer, tagged with the member's epoch, whenever a reconciliation leaves the member
// in UNREVOKED_PARTITIONS (entering it or re-entering it for a new revocation), cancels it
// otherwise, and arms it again for such members when it loads the group; a new target does not
// reset it (GroupMetadataManager.maybeReconcile and onLoaded). Without it a client that
// heartbeats but never acknowledges keeps the revoked partitions, and their next owners wait in
// UNRELEASED_PARTITIONS, for ever. A static member that left temporarily (epoch -2) keeps its
// state with its timers cancelled: its session timer decides, so it is exempt.
var kip848RevocationTimer = Property{
	Name:      "kip848-revocation-timer",
	Kind:      explorer.Always,
	Statement: "every member the coordinator holds in UNREVOKED_PARTITIONS at a positive epoch has its rebalance timer armed at that epoch",
	Source:    "docs/protocol.md §3.5 (rebalance timeout), §3.9 (not reset by target changes); GroupMetadataManager.maybeReconcile, onLoaded",
	Applies:   kip848Protocol,
	State:     func(w *spec.World) string { return unboundedRevocation(w.Group.Members()) },
}

// unboundedRevocation finds a member record revoking at a positive epoch without a rebalance
// timer armed at that epoch.
func unboundedRevocation(ms []kip848.Member) string {
	for _, m := range ms {
		want := kip848.RebalanceTimer{Armed: true, Epoch: m.MemberEpoch}
		if m.State == kip848.UnrevokedPartitions && m.MemberEpoch > 0 && m.RebalanceTimer != want {
			return fmt.Sprintf("%s revokes %s at epoch %d without a rebalance timer at that epoch (%s)",
				m.ID, m.PartitionsPendingRevocation, m.MemberEpoch, timerString(m.RebalanceTimer))
		}
	}
	return ""
}

func timerString(t kip848.RebalanceTimer) string {
	if !t.Armed {
		return "none armed"
	}
	return fmt.Sprintf("armed at epoch %d", t.Epoch)
}

// kip848FencedReachable is fenced-reachable for protocol consumer, the vacuity guard of the
// properties about fenced members (fenced-means-stop, the zombie window) when a live member's
// session or rebalance timer may fire: some member is told FENCED_MEMBER_EPOCH or
// UNKNOWN_MEMBER_ID. A coordinator whose timers never fence, or never remove the member they
// fence, passes them vacuously. A state predicate (the answer on its way to the member), so
// that it adds nothing to the state.
var kip848FencedReachable = Property{
	Name:      "kip848-fenced-reachable",
	Kind:      explorer.Sometimes,
	Statement: "with a session or rebalance timeout budgeted, some member is told FENCED_MEMBER_EPOCH or UNKNOWN_MEMBER_ID (the answer on its way)",
	Source:    "docs/protocol.md §3.5 (timers fence), §3.7 (the client's reaction); vacuity guard",
	Applies: func(c spec.Config) bool {
		return c.ConsumerProtocol && c.Budget.SessionTimeouts+c.Budget.RebalanceTimeouts > 0
	},
	State: func(w *spec.World) string {
		for _, s := range w.Slots {
			for _, r := range s.In {
				if h, ok := r.(impl.ConsumerGroupHeartbeatResponse); ok && (h.Error == impl.FencedMemberEpoch || h.Error == impl.UnknownMemberID) {
					return ""
				}
			}
		}
		return "no FENCED_MEMBER_EPOCH or UNKNOWN_MEMBER_ID answer in flight"
	},
}
