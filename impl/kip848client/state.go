package kip848client

// State is the client's MemberState (Java consumer/internals/MemberState; docs/protocol.md §3.7).
type State int8

// The client states, in the order of docs/protocol.md §3.7.
const (
	// Unsubscribed: not in the group (initial, or after a leave).
	Unsubscribed State = iota
	// Joining: heartbeats carry epoch 0 and every field.
	Joining
	// Reconciling: the target assignment differs from what the application owns; one
	// reconciliation (commit → revoked → assigned) is under way.
	Reconciling
	// Acknowledging: reconciled; the next heartbeat, sent at once, carries the new owned set.
	Acknowledging
	// Stable: owned partitions equal the last target received.
	Stable
	// Fenced: the coordinator fenced the member; partitions are lost, then it rejoins.
	Fenced
	// PrepareLeaving: leaving; the revocation callbacks run before the leave heartbeat.
	PrepareLeaving
	// Leaving: the next heartbeat carries epoch -1 (or -2 for a static member).
	Leaving
	// Stale: left because max.poll.interval.ms expired; rejoins at the application's next poll.
	Stale
	// Fatal: a non-retriable error stopped the member.
	Fatal
	numStates
)

var stateNames = [numStates]string{
	"UNSUBSCRIBED", "JOINING", "RECONCILING", "ACKNOWLEDGING", "STABLE",
	"FENCED", "PREPARE_LEAVING", "LEAVING", "STALE", "FATAL",
}

func (s State) String() string {
	if s >= 0 && s < numStates {
		return stateNames[s]
	}
	return "INVALID_STATE"
}

// predecessors is MemberState's previousValidStates table. Reference: docs/protocol.md §3.7.
var predecessors = [numStates][]State{
	Unsubscribed:   {PrepareLeaving, Leaving, Fenced},
	Joining:        {Fenced, Unsubscribed, Stale},
	Reconciling:    {Stable, Joining, Acknowledging, Reconciling},
	Acknowledging:  {Reconciling},
	Stable:         {Joining, Acknowledging, Reconciling},
	Fenced:         {Joining, Stable, Reconciling, Acknowledging, PrepareLeaving, Leaving},
	PrepareLeaving: {Joining, Stable, Reconciling, Acknowledging, Unsubscribed},
	Leaving:        {PrepareLeaving},
	Stale:          {Leaving},
	Fatal:          {Joining, Stable, Reconciling, Acknowledging, PrepareLeaving, Leaving, Unsubscribed},
}

// CanTransition reports whether to lists from among its allowed predecessors.
// Reference: docs/protocol.md §3.7.
func CanTransition(from, to State) bool {
	if to < 0 || to >= numStates {
		return false
	}
	for _, p := range predecessors[to] {
		if p == from {
			return true
		}
	}
	return false
}

// AllStates lists the states in declaration order.
func AllStates() []State {
	out := make([]State, numStates)
	for i := range out {
		out[i] = State(i)
	}
	return out
}

// inGroup reports whether the member takes part in the heartbeat exchange: it sends
// heartbeats and interprets their responses.
func (s State) inGroup() bool {
	switch s {
	case Joining, Reconciling, Acknowledging, Stable, Leaving:
		return true
	}
	return false
}

// urgent reports whether a heartbeat is due at once rather than at the next interval
// (Java shouldHeartbeatNow): the join, the acknowledgement and the leave.
func (s State) urgent() bool { return s == Joining || s == Acknowledging || s == Leaving }

// Urgent reports whether a member in state s sends its heartbeat at once instead of waiting
// for the heartbeat interval: JOINING, ACKNOWLEDGING, LEAVING (Java shouldHeartbeatNow).
// Reference: docs/protocol.md §3.7.
func (s State) Urgent() bool { return s.urgent() }

// holdsAssignment reports whether the member may own partitions and commit them.
func (s State) holdsAssignment() bool {
	return s == Reconciling || s == Acknowledging || s == Stable
}
