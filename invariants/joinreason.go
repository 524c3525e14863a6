package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// joinReason is the client half of KIP-423 (docs/protocol.md §4): every JoinGroup says
// why the member rejoins, and the coordinator variant kip423 decides by it whether a member
// with identity rebalances the group. So the reason must be the member's own cause:
//   - RESTART exactly while the incarnation has not joined yet (a new or restarted consumer,
//     whose join a Stable group may answer without a rebalance);
//   - TOPIC_METADATA_CHANGE exactly when the strongest pending cause is the leader's metadata
//     change (KIP-429 §1.b; "only the leader sends it": a wrong one rebalances the whole group
//     for nothing, a missing one leaves a new partition unassigned);
//   - UPGRADE exactly for an assignor's follow-up (KIP-441's probing rebalance, KIP-429's
//     motivation: a follower's unchanged join would otherwise be answered with the current
//     generation and the follow-up never happen);
//   - none otherwise: a revocation's or a fenced member's rejoin is judged by the coordinator
//     as today.
//
// The pending cause is the client's recorded KIP-429 §1 trigger before the step (the strongest
// wins: a revoke-all or fencing trigger outranks both), raised to NEEDS_REJOIN when the step
// applies a SyncGroup answer that asks for it (the JoinGroup then goes out in the same step).
// Kafka's consumer sends no such enum: KIP-423 was never adopted and KIP-800's free-text
// reason is informational only, so a Kafka JoinGroup carries none.
var joinReason = Property{
	Name:      "join-reason",
	Kind:      explorer.Always,
	Statement: "a JoinGroup of the KIP variant's consumer carries the KIP-423 reason of its cause (RESTART before the incarnation's first join, TOPIC_METADATA_CHANGE for a leader's metadata rejoin, UPGRADE for a follow-up, none otherwise); Kafka's carries none",
	Source:    "KIP-423 (docs/protocol.md §4); docs/protocol.md §4, §2.4 step 5; KIP-429 §1.b; KIP-441; KIP-800 (informational text only)",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for _, s := range joinsSent(ev) {
			if pre.Slots[s.Slot].Incarnation != post.Slots[s.Slot].Incarnation {
				continue
			}
			j := s.Request.(impl.JoinGroupRequest)
			if want := expectedReason(*pre.Slots[s.Slot].Client, received[impl.SyncGroupResponse](ev, s.Slot)); j.Reason != want {
				return fmt.Sprintf("%s rejoins with reason %s, but its cause says %s", s.Name, j.Reason, want)
			}
		}
		return ""
	},
}

// expectedReason is the KIP-423 reason a JoinGroup of client c (before the step) must carry;
// synced says the step applied a SyncGroup answer, whose NEEDS_REJOIN is a trigger too.
func expectedReason(c consumer.Consumer, synced bool) impl.JoinReason {
	if c.Config.Variant != impl.KIP {
		return impl.ReasonUnspecified
	}
	if !c.HasJoined {
		return impl.ReasonRestart
	}
	t := c.Trigger
	if synced {
		t = max(t, consumer.TriggerNeedsRejoin)
	}
	switch t {
	case consumer.TriggerMetadataChange:
		return impl.ReasonTopicMetadataChange
	case consumer.TriggerFollowup:
		return impl.ReasonUpgrade
	}
	return impl.ReasonUnspecified
}
