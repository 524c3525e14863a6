package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// joinReaction is rebalance-cause's converse: a classic coordinator's reaction to an accepted
// JoinGroup of a member it holds, in a group that is not already rebalancing, is the one
// docs/protocol.md §1.4 and §4 prescribe. In Stable the leader's JoinGroup and a follower's with
// changed protocols start a rebalance, a follower's unchanged one is answered with the current
// generation (GroupCoordinator.doCurrentMemberJoinGroup: `if (group.isLeader(memberId) ||
// !member.matches(protocols)) updateMemberAndRebalance else respond current`); in
// CompletingRebalance changed protocols rebalance and unchanged ones are answered. Under KIP-423
// (coordinator kip423, docs/protocol.md §4) TOPIC_METADATA_CHANGE and UPGRADE always rebalance, and a
// RESTART with unchanged protocols never does, the leader's included. Either way the
// coordinator keeps the protocols the member sent: the next vote and the leader's member list
// read them.
//
// A coordinator that skips a due rebalance leaves a follower's follow-up (KIP-441's probing
// rebalance, KIP-423's UPGRADE) or a leader's metadata change unanswered by a new assignment —
// the same partitions stay where they are, so no ownership property objects; one that adds a
// rebalance for a RESTART costs every member a round that KIP-423 exists to save. Failover
// worlds are left in: the loaded group is judged by the same rule.
var joinReaction = Property{
	Name:      "join-reaction",
	Kind:      explorer.Always,
	Statement: "an accepted JoinGroup of a known member of a Stable (CompletingRebalance) classic group starts a rebalance iff it is the leader's (Stable only) or its protocols changed — under KIP-423 iff its reason is TOPIC_METADATA_CHANGE or UPGRADE or, unless it is a RESTART, as Kafka — and the coordinator stores the protocols it sent",
	Source:    "docs/protocol.md §1.4 (GroupCoordinator.doCurrentMemberJoinGroup, member.matches), §4 (KIP-423 reasons; docs/protocol.md §4)",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		q, ok := handledJoin(pre, ev, post)
		if !ok || q.MemberID == impl.NoMemberID {
			return ""
		}
		m, known := pre.Coord.Member(q.MemberID)
		st := pre.Coord.State()
		if !known || st != coordinator.Stable && st != coordinator.CompletingRebalance || refused(ev, q.MemberID) {
			return ""
		}
		sent := distinctProtocols(q.Protocols)
		if n, ok := post.Coord.Member(q.MemberID); ok && !slices.EqualFunc(n.Protocols, sent, sameProtocol) {
			return fmt.Sprintf("%s's JoinGroup is accepted, but the coordinator keeps protocols %v instead of the %v it sent", q.MemberID, n.Protocols, sent)
		}
		same := slices.EqualFunc(m.Protocols, sent, sameProtocol)
		kip := pre.Config().Coordinator == impl.KIP
		forced := kip && (q.Reason == impl.ReasonTopicMetadataChange || q.Reason == impl.ReasonUpgrade)
		restart := kip && q.Reason == impl.ReasonRestart
		if restart && !same && st == coordinator.Stable {
			return "" // KIP-345's guard: it rebalances only if the vote changes, which is not judged here
		}
		due := forced || !restart && (!same || st == coordinator.Stable && q.MemberID == pre.Coord.Leader())
		if st == coordinator.CompletingRebalance {
			due = forced || !same
		}
		rebalanced := post.Coord.Generation() > pre.Coord.Generation() || post.Coord.State() == coordinator.PreparingRebalance
		switch {
		case due && !rebalanced:
			return fmt.Sprintf("%s's JoinGroup (reason %v, protocols changed %v, leader %v) to the %s group is answered without a rebalance", q.MemberID, q.Reason, !same, q.MemberID == pre.Coord.Leader(), st)
		case !due && rebalanced:
			return fmt.Sprintf("%s's JoinGroup (reason %v, protocols unchanged, leader %v) to the %s group starts a rebalance", q.MemberID, q.Reason, q.MemberID == pre.Coord.Leader(), st)
		}
		return ""
	},
}

// refused says whether the step answered member id's JoinGroup with an error.
func refused(ev []spec.Event, id impl.MemberID) bool {
	return slices.ContainsFunc(ev, func(e spec.Event) bool {
		r, ok := e.(spec.ReplyEvent)
		if !ok {
			return false
		}
		a, isJoin := r.Response.(impl.JoinGroupResponse)
		return isJoin && a.Error != impl.None && a.MemberID == id
	})
}

// distinctProtocols is a JoinGroup's protocol list with each assignor's first entry only, as
// the coordinator reads it (GroupMetadata keeps one metadata per protocol name).
func distinctProtocols(ps []impl.GroupProtocol) []impl.GroupProtocol {
	var out []impl.GroupProtocol
	for _, p := range ps {
		if !slices.ContainsFunc(out, func(o impl.GroupProtocol) bool { return o.Name == p.Name }) {
			out = append(out, p)
		}
	}
	return out
}
