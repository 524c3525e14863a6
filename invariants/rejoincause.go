package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// rejoinCause asks that a classic client decide to rejoin (its rejoin flag turns on: the next
// poll sends a JoinGroup) only in a step that gives it a reason — Java's
// ConsumerCoordinator.rejoinNeededOrPending and AbstractCoordinator.requestRejoin are reached
// only from a response (an error or fencing answer, a SyncGroup's assignment to revoke from
// or with NEEDS_REJOIN), a request that timed out, a subscription or metadata change it
// notices, a reset of its own generation (a poll timeout), a failed assignor, or the
// application's enforceRebalance (docs/protocol.md §1.11, §2.4 step 5, §2.6). A spurious rejoin is a
// JoinGroup without cause: the coordinator answers a follower's unchanged join with the
// current generation, but a leader's, or any under KIP-423's reasons, rebalances the whole
// group (rebalance-cause judges the coordinator's side, this the client's).
//
// The follow-up rebalance an assignor asks for (impl.Assignment Followup: Kafka Streams'
// probing and follow-up rebalances, KIP-441) is the application's enforceRebalance, which
// Streams calls only once the member's own rebalance is done (StreamThread.runLoop,
// KAFKA-14382: no JoinGroup or SyncGroup under way, its assignment applied): so a follow-up
// that is carried out — due, and cleared in a step that applies no assignment — is carried
// out by an active member with no round under way (STABLE, or UNJOINED after a reset,
// when it only confirms the rejoin already pending), and makes it rejoin, in KIP-429's
// variant with the follow-up recorded as its join trigger (its JoinGroup says UPGRADE, the
// KIP-423 reason that makes the coordinator rebalance: a follower's join would otherwise be
// answered with the current generation and the follow-up would never happen).
var rejoinCause = Property{
	Name:      "rejoin-cause",
	Kind:      explorer.Always,
	Statement: "a classic client starts needing a rejoin only in a step that gives it a cause (a response, a timed-out request, a subscription or metadata change, its generation reset, a failed assignor, a due follow-up), and carries a follow-up out only with no round under way, rejoining for it",
	Source:    "docs/protocol.md §1.11, §2.4 step 5, §2.6; ConsumerCoordinator.rejoinNeededOrPending; AbstractCoordinator.requestRejoin; KIP-441, KIP-568; StreamThread.runLoop (KAFKA-14382)",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for i := range pre.Slots {
			if pre.Slots[i].Incarnation != post.Slots[i].Incarnation {
				continue
			}
			b, a := *pre.Slots[i].Client, *post.Slots[i].Client
			if b.FollowupDue && !a.FollowupDue && !received[impl.SyncGroupResponse](ev, i) {
				if why := followupMisplaced(b, a); why != "" {
					return fmt.Sprintf("%s carries its follow-up rebalance out %s", name(pre, i), why)
				}
				continue
			}
			if !b.RejoinNeeded && a.RejoinNeeded && !rejoinCaused(b, a, ev, i) {
				return fmt.Sprintf("%s (%s, %q gen %d) decides to rejoin without a cause", name(pre, i), b.Status, b.Gen.MemberID, b.Gen.ID)
			}
		}
		return ""
	},
}

// followupMisplaced says what is wrong with a follow-up carried out from b to a, or "".
func followupMisplaced(b, a consumer.Consumer) string {
	switch {
	case b.Closed || b.FatalError != impl.None:
		return "after it stopped"
	case b.Status == consumer.PreparingRebalance || b.Status == consumer.CompletingRebalance:
		return "while " + b.Status.String()
	case b.Requests[consumer.KindJoin].Active || b.Requests[consumer.KindSync].Active || b.AwaitingAssignment:
		return "while its own round is under way"
	case !a.RejoinNeeded:
		return "without rejoining"
	case b.Config.Variant == impl.KIP && a.Trigger == consumer.TriggerNone:
		return "without recording it as its join trigger (KIP-423 UPGRADE)"
	}
	return ""
}

// rejoinCaused says whether the step from b to a gives slot i's client a cause to rejoin.
func rejoinCaused(b, a consumer.Consumer, ev []spec.Event, i int) bool {
	if received[impl.Response](ev, i) || b.Gen != a.Gen || b.AwaitingAssignment && !a.AwaitingAssignment ||
		!slices.Equal(b.Topics, a.Topics) || !b.Metadata.Equal(a.Metadata) {
		return true
	}
	for k := range b.Requests {
		if b.Requests[k].Active && !a.Requests[k].Active {
			return true // timed out: its response was lost
		}
	}
	return false
}
