package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// fatalReported asks that a client which stops for good on a fatal error tell the
// application, with that error, in the step it stops: Java's KIP-848 consumer turns the
// heartbeat's fatal error into an ErrorEvent that the next poll throws
// (AbstractHeartbeatRequestManager.onErrorResponse → handleFatalFailure, then
// AbstractMembershipManager.transitionToFatal), the classic one throws it from poll
// (AbstractCoordinator's JoinGroup/SyncGroup/Heartbeat handlers raise FENCED_INSTANCE_ID,
// GROUP_MAX_SIZE_REACHED, INCONSISTENT_GROUP_PROTOCOL; docs/protocol.md §1.11). A client that stops
// silently is a consumer that polls nothing for ever while the application believes it is
// in the group: no-fatal and kip848-no-fatal judge whether the stop was due, not whether
// anyone was told. The report is the step's FatalEvent of the same slot.
var fatalReported = Property{
	Name:      "fatal-reported",
	Kind:      explorer.Always,
	Statement: "a client that stops on a fatal error reports that error to the application in the same step",
	Source:    "docs/protocol.md §1.11 (errors Java throws from poll), §3.7 (→ FATAL); AbstractHeartbeatRequestManager.onErrorResponse, AbstractMembershipManager.transitionToFatal",
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for i, s := range post.Slots {
			if s.Incarnation != pre.Slots[i].Incarnation || fatalOf(pre, i) != impl.None {
				continue
			}
			if e := fatalOf(post, i); e != impl.None && !fatalEvent(ev, i, e) {
				return fmt.Sprintf("%s stops with fatal %s and does not tell the application", name(post, i), e)
			}
		}
		return ""
	},
}

// fatalOf is the error that stopped slot i's client, None if none (the field, not the role's
// helper).
func fatalOf(w *spec.World, i int) impl.ErrorCode {
	if w.Config().ConsumerProtocol {
		return w.Slots[i].Member.FatalError
	}
	return w.Slots[i].Client.FatalError
}

// fatalEvent says whether ev reports fatal error e of slot i.
func fatalEvent(ev []spec.Event, i int, e impl.ErrorCode) bool {
	for _, x := range ev {
		if f, ok := x.(spec.FatalEvent); ok && f.Slot == i && f.Error == e {
			return true
		}
	}
	return false
}
