package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// resetLosesPartitions: a classic client that sends a JoinGroup without a generation owns
// nothing. Without a generation is a first join or a rejoin after a reset (UNKNOWN_MEMBER_ID,
// ILLEGAL_GENERATION — which keeps the member id —, a poll timeout, a LeaveGroup); after a
// reset, onJoinPrepare finds generation −1 or no member id and calls onPartitionsLost on
// everything it owns before the JoinGroup goes out (docs/protocol.md §2.3 step 2; KIP-429 §1.e:
// fenced, lose everything). The test is on the generation number alone, not on "no member
// id", because the ILLEGAL_GENERATION reset keeps the id (KAFKA-13419): a client that tests
// both together (resets only when it has neither) rejoins still processing partitions the
// coordinator no longer ties to it, and claims them in its JoinGroup under a generation the
// coordinator never gave — the zombie window extended into the next round. The client's
// fields are read, not GroupGeneration.Reset, so the property shares no fault with the code.
var resetLosesPartitions = Property{
	Name:      "reset-loses-partitions",
	Kind:      explorer.Always,
	Statement: "a classic client sends a JoinGroup without a generation (a first join, or after a reset) only owning nothing: a reset member has reported its partitions lost first",
	Source:    "docs/protocol.md §2.3 step 2, §1.11 (UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION rows); KIP-429 §1.e; ConsumerCoordinator.onJoinPrepare",
	Applies:   classic,
	Step: func(_ *spec.World, ev []spec.Event, post *spec.World) string {
		for _, s := range joinsSent(ev) {
			c := post.Slots[s.Slot].Client
			if c.Gen.ID == impl.NoGeneration && !c.OwnedPartitions.IsEmpty() {
				return fmt.Sprintf("%s joins without a generation (%q) still owning %s", s.Name, c.Gen.MemberID, c.OwnedPartitions)
			}
		}
		return ""
	},
}
