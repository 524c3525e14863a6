package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// rediscoverWhenTold judges how a client finds a moved coordinator. After a failover its
// connection still goes to the old broker, which answers NOT_COORDINATOR; the answers it
// gave before the move still arrive. The client marks the coordinator unknown — disconnects,
// failing what else is in flight there, and looks it up again — exactly on NOT_COORDINATOR
// and COORDINATOR_NOT_AVAILABLE (Java: AbstractCoordinator's JoinGroup, SyncGroup and
// Heartbeat response handlers and ConsumerCoordinator's OffsetCommit handler call
// markCoordinatorUnknown on those; the KIP-848 consumer's request managers call
// CoordinatorRequestManager.markCoordinatorUnknown on the same two), and on nothing else:
// an accepted answer, or COORDINATOR_LOAD_IN_PROGRESS (retried against the same broker), is
// no news of a move, and a client that drops its connection on one cuts off its own requests
// in flight to a broker that still serves it. So a running client gives a stale connection up
// in a step only when that step delivers one of the two answers, and does so whenever it
// does.
var rediscoverWhenTold = Property{
	Name:      "rediscover-when-told",
	Kind:      explorer.Always,
	Statement: "a running client on a stale coordinator connection looks the coordinator up again in exactly the steps that deliver it NOT_COORDINATOR or COORDINATOR_NOT_AVAILABLE",
	Source:    "docs/protocol.md §1.11 (COORDINATOR_NOT_AVAILABLE / NOT_COORDINATOR: mark coordinator unknown, retry), §3.7; AbstractCoordinator.markCoordinatorUnknown; CoordinatorRequestManager.markCoordinatorUnknown",
	Applies:   func(c spec.Config) bool { return c.Budget.Failovers > 0 },
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for i := range pre.Slots {
			b, a := pre.Slots[i], post.Slots[i]
			if !b.Stale || b.Incarnation != a.Incarnation || a.Process != spec.Running {
				continue
			}
			told, code := toldMoved(ev, i)
			switch {
			case a.Stale && told:
				return fmt.Sprintf("%s is told %s on its stale connection and keeps it", name(pre, i), code)
			case !a.Stale && !told:
				return fmt.Sprintf("%s gives its connection to the coordinator up on %s, which says nothing of a move", name(pre, i), code)
			}
		}
		return ""
	},
}

// toldMoved says whether the step delivers slot i an answer that says the coordinator moved,
// and the code of the answer it delivers (NONE when none).
func toldMoved(ev []spec.Event, i int) (bool, impl.ErrorCode) {
	code := impl.None
	for _, e := range ev {
		if r, ok := e.(spec.ReceiveEvent); ok && r.Slot == i {
			code = r.Response.Code()
			if code == impl.NotCoordinator || code == impl.CoordinatorNotAvailable {
				return true, code
			}
		}
	}
	return false, code
}
