package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

const eagerAlone = `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t
`

// TestClientStates: a poll timeout while the member's JoinGroup is in flight leaves it
// UNJOINED without an id, and its JoinGroup answer later moves it to COMPLETING_REBALANCE only
// from PREPARING_REBALANCE (client-states holds on the way). A member left PREPARING_REBALANCE
// by the poll timeout (KIP-394's member id kept, or the timeout ignored), and one that takes the
// JoinGroup answer while UNJOINED (after a reset), are named.
func TestClientStates(t *testing.T) {
	c := config(t, eagerAlone+"budget poll-timeouts=1\n")
	pre, ev, post, _ := shortestStep(t, c, clientStates, func(pre *spec.World, _ []spec.Event, post *spec.World) bool {
		return pre.Left.PollTimeouts > post.Left.PollTimeouts && pre.Slots[0].Client.Status == consumer.PreparingRebalance &&
			pre.Slots[0].Client.Gen.MemberID != impl.NoMemberID
	})
	kept := ownSlots(post)
	kept.Slots[0].Client.Status, kept.Slots[0].Client.Gen = pre.Slots[0].Client.Status, pre.Slots[0].Client.Gen
	if got := clientStates.Step(&pre, ev, &kept); !strings.Contains(got, "exceeds max.poll.interval.ms and is left PREPARING_REBALANCE") {
		t.Errorf("poll timeout ignored: %q", got)
	}
	kept.Slots[0].Client.Status = consumer.Unjoined
	if got := clientStates.Step(&pre, ev, &kept); !strings.Contains(got, "goes from PREPARING_REBALANCE to UNJOINED keeping generation") &&
		!strings.Contains(got, "is left UNJOINED as") {
		t.Errorf("poll timeout keeps the member id: %q", got)
	}

	pre, ev, post, _ = shortestStep(t, c, clientStates, func(_ *spec.World, ev []spec.Event, post *spec.World) bool {
		return received[impl.JoinGroupResponse](ev, 0) && post.Slots[0].Client.Status == consumer.CompletingRebalance
	})
	late := ownSlots(pre)
	late.Slots[0].Client.Status = consumer.Unjoined
	if got := clientStates.Step(&late, ev, &post); !strings.Contains(got, "goes from UNJOINED to COMPLETING_REBALANCE without a JoinGroup answer taken while PREPARING_REBALANCE") {
		t.Errorf("late JoinGroup answer taken: %q", got)
	}
	noJoin := slices.DeleteFunc(slices.Clone(ev), func(e spec.Event) bool { _, ok := e.(spec.ReceiveEvent); return ok })
	if got := clientStates.Step(&pre, noJoin, &post); !strings.Contains(got, "without a JoinGroup answer") {
		t.Errorf("COMPLETING_REBALANCE without an answer: %q", got)
	}
}
