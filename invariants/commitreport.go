package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// commitReported asks that a client tell the application how each OffsetCommit it had in
// flight ended, as the coordinator answered it, in the step the answer arrives: Java
// completes the commit's future (OffsetCommitResponseHandler: the callback of commitAsync, the
// result of commitSync), librdkafka calls offset_commit_cb, franz-go's CommitOffsets callback
// gets the response. An application that is told nothing retries blindly or waits for ever,
// and one told "accepted" for a refusal believes offsets are safe that are not — the
// commit-fencing properties judge what the coordinator accepted, not what the client said.
// The answer is judged at delivery (the ReceiveEvent of a commit in flight); the report is
// the step's CommitResultEvent of the same slot.
var commitReported = Property{
	Name:      "commit-reported",
	Kind:      explorer.Always,
	Statement: "a client reports each OffsetCommit answer it receives for a commit in flight to the application in the same step, with the coordinator's verdict",
	Source:    "docs/protocol.md §1.8, §1.11, §3.1 (ConsumerCoordinator.OffsetCommitResponseHandler; librdkafka rd_kafka_cgrp_op_handle_OffsetCommit; kgo CommitOffsets)",
	Step: func(pre *spec.World, ev []spec.Event, _ *spec.World) string {
		for _, e := range ev {
			r, ok := e.(spec.ReceiveEvent)
			if !ok {
				continue
			}
			a, isCommit := r.Response.(impl.OffsetCommitResponse)
			if !isCommit || !commitInFlight(pre, r.Slot) {
				continue
			}
			if !reported(ev, r.Slot, a.Error) {
				return fmt.Sprintf("%s receives its commit's answer %s and does not report it to the application as such", r.Name, a.Error)
			}
		}
		return ""
	},
}

// commitInFlight says whether slot i's client had an OffsetCommit in flight.
func commitInFlight(w *spec.World, i int) bool {
	if w.Config().ConsumerProtocol {
		return w.Slots[i].Member.Commit.Active // the field, not CommitInFlight: a property reads state, not the role's helpers
	}
	return w.Slots[i].Client.Requests[consumer.KindCommit].Active
}

// reported says whether the step reports slot i's commit as the coordinator answered it.
func reported(ev []spec.Event, i int, code impl.ErrorCode) bool {
	for _, e := range ev {
		if c, ok := e.(spec.CommitResultEvent); ok && c.Slot == i && !c.TimedOut && !c.Local &&
			c.Accepted == (code == impl.None) && c.Error == code {
			return true
		}
	}
	return false
}
