package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// followupAsked: the assignment a leader sends carries a follow-up request exactly on the
// member its assignor asked (KIP-441's probing rebalance and Kafka Streams' immediate
// follow-up both name one consumer: AssignmentInfo.nextRebalanceMs is set in that consumer's
// own assignment, and KAFKA-9821 moved the request there so that it reaches that member even
// when it syncs late). A request put on another member — or on none, or on all — still passes
// every other property: a follow-up is an extra rebalance some member may run at any time, so
// the wrong member rejoining looks like a legitimate schedule, and the member the assignor
// withheld work from waits for a rebalance that never comes. The model's leader names the
// member in its assign action (spec.AssignEvent.Followup).
// Reference: KIP-441; KAFKA-9821; StreamsPartitionAssignor.addClientAssignments.
var followupAsked = Property{
	Name:      "followup-asked",
	Kind:      explorer.Always,
	Statement: "a leader's assignment asks for a follow-up rebalance on exactly the member its assignor chose, and on none when it chose none",
	Source:    "KIP-441; KAFKA-9821 (the request travels in the member's assignment); StreamsPartitionAssignor.addClientAssignments",
	Applies:   func(c spec.Config) bool { return classic(c) && c.Budget.Followups > 0 },
	Step: func(_ *spec.World, ev []spec.Event, _ *spec.World) string {
		for _, a := range assignments(ev) {
			for _, m := range a.Assignments {
				if m.Assignment.Followup != (m.MemberID == a.Followup) {
					asked := string(a.Followup)
					if asked == "" {
						asked = "no member"
					}
					return fmt.Sprintf("%s's gen %d assignment marks %s's follow-up %v, and the assignor asked %s", a.Name, a.Generation, m.MemberID, m.Assignment.Followup, asked)
				}
			}
		}
		return ""
	},
}
