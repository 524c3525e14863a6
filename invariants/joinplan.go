package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// joinPlan is KIP-429 §1 at the moment it matters: what a member still owns when
// its JoinGroup goes out, which is what it claims in that JoinGroup and keeps consuming
// through the rebalance. KIP-429 makes the owned set a function of the strongest pending
// trigger (consumer.PlanJoinTrigger): a subscription change, REBALANCE_IN_PROGRESS or
// MEMBER_ID_REQUIRED revoke everything (§1.a, c, d), a fencing reset loses everything (§1.e),
// a metadata change keeps what still exists (§1.b), and NEEDS_REJOIN, an assignor's follow-up
// or no trigger keep everything (§1.f, KIP-441). That is the cooperative member's rule, its
// protocol being KIP-429's per-member rebalance.protocol (the config's `protocol=`, not its
// assignors: an upgrade sets it to cooperative before the assignors change); an eager member
// revokes everything before each new rebalance, and when NEEDS_REJOIN sends it back at once
// (§3.5, docs/protocol.md §2.3). A member that keeps too much claims partitions it was told to give
// up, and one that keeps too little revokes for nothing — the stop-the-world cost KIP-429
// exists to remove.
//
// So the trigger must be kept faithfully: it only strengthens until the JoinGroup that
// carries it out (the strongest pending one wins), and a cause the step delivers is recorded
// at once — REBALANCE_IN_PROGRESS on a heartbeat while STABLE or on a Java client's commit
// (§1.c), a changed subscription (§1.a).
//
// The trigger at the JoinGroup is the client's recorded one before the step, raised by what
// the step itself brings: a SyncGroup's NEEDS_REJOIN (the JoinGroup then goes out in the same step, owning the
// assignment it just applied) or MEMBER_ID_REQUIRED. A poll runs onJoinPrepare's revocation
// only once per rebalance (NeedsJoinPrepare) unless a trigger is pending; its reset and eager
// branches are that first run's.
var joinPlan = Property{
	Name:      "join-plan",
	Kind:      explorer.Always,
	Statement: "the KIP variant's consumer records each KIP-429 §1 trigger when its cause arrives and keeps the strongest until its JoinGroup, and sends that JoinGroup owning what §1 keeps for it under its configured rebalance protocol: a cooperative member everything (none, follow-up, NEEDS_REJOIN), what still exists (metadata change) or nothing (revoke-all triggers, a reset); an eager one nothing",
	Source:    "KIP-429 §1.a–f, §3.5 (docs/protocol.md §7); KIP-441; docs/protocol.md §2.3",
	Applies:   func(c spec.Config) bool { return !c.ConsumerProtocol && c.Consumer == impl.KIP },
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		if why := triggerKept(pre, ev, post); why != "" {
			return why
		}
		for _, s := range joinsSent(ev) {
			if pre.Slots[s.Slot].Incarnation != post.Slots[s.Slot].Incarnation {
				continue
			}
			i := s.Slot
			want, why := plannedOwned(*pre.Slots[i].Client, pre.Config().MemberProtocol(i), ev, i)
			if got := post.Slots[i].Client.OwnedPartitions; !got.Equal(want) {
				return fmt.Sprintf("%s rejoins owning %s, but %s keeps %s", s.Name, got, why, want)
			}
		}
		return ""
	},
}

// plannedOwned is what client c (before the step) should own when its JoinGroup of this step
// goes out, under protocol p, and the rule that says so.
func plannedOwned(c consumer.Consumer, p impl.RebalanceProtocol, ev []spec.Event, i int) (impl.PartitionSet, string) {
	owned, t, prepare := c.OwnedPartitions, c.Trigger, true
	for _, e := range ev {
		r, ok := e.(spec.ReceiveEvent)
		if !ok || r.Slot != i {
			continue
		}
		switch a := r.Response.(type) {
		case impl.SyncGroupResponse:
			owned, t, prepare = a.Assignment.Partitions, max(t, consumer.TriggerNeedsRejoin), false
		case impl.JoinGroupResponse:
			t, prepare = max(t, consumer.TriggerMemberIDRequired), false
		}
	}
	full := prepare && c.NeedsJoinPrepare
	switch {
	case full && c.Gen.Reset():
		return impl.PartitionSet{}, "a reset (§1.e)"
	case p == impl.Eager && (full || !prepare):
		return impl.PartitionSet{}, "an eager member"
	}
	return consumer.PlanJoinTrigger(t, owned, c.Metadata).Keep, "its trigger " + t.String()
}

// triggerKept says which KIP-429 client weakens its pending trigger, or leaves a cause the step
// delivered unrecorded, without sending its JoinGroup, or "".
func triggerKept(pre *spec.World, ev []spec.Event, post *spec.World) string {
	for i := range pre.Slots {
		if pre.Slots[i].Incarnation != post.Slots[i].Incarnation || sent[impl.JoinGroupRequest](ev, i) {
			continue
		}
		b, a := *pre.Slots[i].Client, *post.Slots[i].Client
		if a.Trigger < b.Trigger {
			return fmt.Sprintf("%s's pending trigger %s weakens to %s before its JoinGroup", name(pre, i), b.Trigger, a.Trigger)
		}
		if cause, what := deliveredCause(pre, b, a, ev, i); a.Trigger < cause {
			return fmt.Sprintf("%s %s and records %s, not %s", name(pre, i), what, a.Trigger, cause)
		}
	}
	return ""
}

// deliveredCause is the strongest KIP-429 §1 trigger the step delivers to active client b
// (a after the step) and what it was, or TriggerNone.
func deliveredCause(pre *spec.World, b, a consumer.Consumer, ev []spec.Event, i int) (consumer.JoinTrigger, string) {
	if !b.Active() {
		return consumer.TriggerNone, ""
	}
	if b.Subscribed() && !slices.Equal(b.Topics, a.Topics) {
		return consumer.TriggerSubscriptionChange, "changes its subscription"
	}
	for _, e := range ev {
		r, ok := e.(spec.ReceiveEvent)
		if !ok || r.Slot != i || r.Response.Code() != impl.RebalanceInProgress {
			continue
		}
		switch r.Response.(type) {
		case impl.HeartbeatResponse:
			if b.Status == consumer.Stable {
				return consumer.TriggerRebalanceInProgress, "is told REBALANCE_IN_PROGRESS on its heartbeat while STABLE"
			}
		case impl.OffsetCommitResponse:
			if pre.Config().CommitPolicy == consumer.CommitJava {
				return consumer.TriggerRebalanceInProgress, "is told REBALANCE_IN_PROGRESS on its commit"
			}
		}
	}
	return consumer.TriggerNone, ""
}
