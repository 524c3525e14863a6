package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// TestJoinPlan: the KIP variant's cooperative member (rebalance.protocol over the range assignor)
// rejoins after a partition is added still owning t-0 (KIP-429 §1.b), and join-plan holds on
// the way; the same JoinGroup sent owning nothing (an eager member's revocation) is named,
// and so is an eager member's JoinGroup sent still owning what it had, a pending trigger
// dropped before the JoinGroup and a heartbeat's REBALANCE_IN_PROGRESS left unrecorded.
func TestJoinPlan(t *testing.T) {
	const text = `protocol eager
consumer kip
coordinator kafka
assignor range
topic t 1
member a topics=t protocol=cooperative
budget partition-additions=1
`
	pre, ev, post, _ := shortestStep(t, config(t, text), joinPlan, func(pre *spec.World, ev []spec.Event, _ *spec.World) bool {
		return rejoinSent(pre, ev) && !pre.Slots[0].Client.OwnedPartitions.IsEmpty()
	})
	revoked := ownSlots(post)
	revoked.Slots[0].Client.OwnedPartitions = impl.PartitionSet{}
	if got := joinPlan.Step(&pre, ev, &revoked); !strings.Contains(got, "a rejoins owning (), but its trigger metadata-change keeps (t-0)") {
		t.Errorf("cooperative member revoking on a metadata rejoin: %q", got)
	}
	pre, ev, post, _ = shortestStep(t, config(t, text), joinPlan, func(pre *spec.World, ev []spec.Event, post *spec.World) bool {
		return post.Slots[0].Client.Trigger == consumer.TriggerMetadataChange && !sent[impl.JoinGroupRequest](ev, 0)
	})
	weak := ownSlots(post)
	weak.Slots[0].Client.Trigger = consumer.TriggerNone
	if got := joinPlan.Step(&post, nil, &weak); !strings.Contains(got, "a's pending trigger metadata-change weakens to none before its JoinGroup") {
		t.Errorf("trigger dropped: %q", got)
	}
	stable := ownSlots(pre)
	stable.Slots[0].Client.Status, stable.Slots[0].Client.Trigger = consumer.Stable, consumer.TriggerNone
	told := []spec.Event{spec.ReceiveEvent{Slot: 0, Name: "a", Response: impl.HeartbeatResponse{Error: impl.RebalanceInProgress}}}
	if got := joinPlan.Step(&stable, told, &stable); !strings.Contains(got, "a is told REBALANCE_IN_PROGRESS on its heartbeat while STABLE and records none, not rebalance-in-progress") {
		t.Errorf("REBALANCE_IN_PROGRESS not recorded: %q", got)
	}
	eager := config(t, strings.Replace(text, "protocol=cooperative", "protocol=eager", 1))
	pre, ev, post, _ = shortestStep(t, eager, joinPlan, func(pre *spec.World, ev []spec.Event, _ *spec.World) bool {
		return rejoinSent(pre, ev)
	})
	kept := ownSlots(post)
	kept.Slots[0].Client.OwnedPartitions = pre.Slots[0].Client.OwnedPartitions
	if got := joinPlan.Step(&pre, ev, &kept); !strings.Contains(got, "a rejoins owning (t-0), but an eager member keeps ()") {
		t.Errorf("eager member keeping its partitions: %q", got)
	}
}
