package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// awayAnswer is what a request gets when it does not reach a serving coordinator (docs/protocol.md
// §1.4–§1.8, group-level status errors, checked before anything else): a broker that no
// longer leads the group's partition answers NOT_COORDINATOR, whatever the request; the new
// coordinator, while it loads the group, answers COORDINATOR_LOAD_IN_PROGRESS — except a
// classic SyncGroup, answered REBALANCE_IN_PROGRESS (old clients do not know the loading
// error: GroupCoordinator.handleSyncGroup), and a classic Heartbeat, answered NONE ("respond
// blindly"). The answer is the request's own response type. The client's reaction hangs on
// the code: NOT_COORDINATOR makes it mark the coordinator unknown and look it up again (§1.11),
// the loading error and REBALANCE_IN_PROGRESS make it retry or rejoin at the same broker. A
// broker that answers the wrong one sends a client on to a coordinator that is not there, or
// keeps it at one that will never serve it; an answer of another type (or none) leaves the
// client's request in flight for ever. A step property judging the step that hands a request
// to an old broker or a loading coordinator; both protocols.
var awayAnswer = Property{
	Name:      "coordinator-away-answer",
	Kind:      explorer.Always,
	Statement: "a request reaching an old broker is answered NOT_COORDINATOR, one reaching a loading coordinator COORDINATOR_LOAD_IN_PROGRESS (classic SyncGroup: REBALANCE_IN_PROGRESS; classic Heartbeat: NONE), in the request's own response type",
	Source:    "docs/protocol.md §1.4–§1.8 (group-level status errors: GroupCoordinator.validateGroupStatus, handleSyncGroup, handleHeartbeat), §1.11, §3.1 (errors)",
	Applies:   func(c spec.Config) bool { return c.Budget.Failovers > 0 },
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		i, ok := deliveredSlot(pre, ev, post)
		if !ok || !pre.Slots[i].Stale && !pre.Loading {
			return ""
		}
		return awayAnswerWrong(pre.Slots[i].Stale, pre.Slots[i].Out[0], ev)
	},
}

// deliveredSlot is the slot whose request the step handed to a coordinator: the one queue that
// lost its head, in a step where no client acted (no response received, no request sent) and
// no incarnation began (a restart drops what was on its way to an old broker).
func deliveredSlot(pre *spec.World, ev []spec.Event, post *spec.World) (int, bool) {
	for _, e := range ev {
		switch e.(type) {
		case spec.ReceiveEvent, spec.SendEvent, spec.FailoverEvent:
			return 0, false
		}
	}
	i, ok := spec.Delivered(pre, post, ev)
	return i, ok && post.Slots[i].Incarnation == pre.Slots[i].Incarnation
}

// awayAnswerWrong says what is wrong with the step's answers ev to req, which reached an old
// broker (stale) or a loading coordinator, or "".
func awayAnswerWrong(stale bool, req impl.Request, ev []spec.Event) string {
	want, where := impl.NotCoordinator, "an old broker"
	if !stale {
		want, where = impl.CoordinatorLoadInProgress, "a loading coordinator"
		switch req.(type) {
		case impl.SyncGroupRequest:
			want = impl.RebalanceInProgress
		case impl.HeartbeatRequest:
			want = impl.None
		}
	}
	var answers []spec.ReplyEvent
	for _, e := range ev {
		if r, ok := e.(spec.ReplyEvent); ok {
			answers = append(answers, r)
		}
	}
	if len(answers) != 1 {
		return fmt.Sprintf("a %s reaching %s gets %d answers", kindName(req), where, len(answers))
	}
	r := answers[0]
	if r.Response == nil || kindName(r.Response) != kindName(req) {
		return fmt.Sprintf("%s's %s reaching %s is answered with %s", r.Name, kindName(req), where, kindName(r.Response))
	}
	if got := r.Response.Code(); got != want {
		return fmt.Sprintf("%s's %s reaching %s is answered %s, not %s", r.Name, kindName(req), where, got, want)
	}
	return ""
}
