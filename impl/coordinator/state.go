package coordinator

import (
	"fmt"
	"slices"
)

// State is the classic group's state (ClassicGroupState; docs/protocol.md §1.2–1.3).
type State int8

// The five group states.
const (
	// Empty: no members; offsets may still be committed by non-members.
	Empty State = iota
	// PreparingRebalance: the join phase; members re-send JoinGroup and are parked.
	PreparingRebalance
	// CompletingRebalance: the join phase completed; waiting for the leader's SyncGroup.
	CompletingRebalance
	// Stable: the leader's assignment was stored and handed out.
	Stable
	// Dead: the group was unloaded; every request is refused.
	Dead
	numStates
)

var stateNames = [numStates]string{"Empty", "PreparingRebalance", "CompletingRebalance", "Stable", "Dead"}

// String is Kafka's name for the state.
func (s State) String() string {
	if s >= 0 && s < numStates {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", int8(s))
}

// predecessors is the allowed-predecessor table, asserted on every transition.
// Reference: docs/protocol.md §1.3 (ClassicGroupState static block).
var predecessors = [numStates][]State{
	Empty:               {PreparingRebalance},
	PreparingRebalance:  {Stable, CompletingRebalance, Empty},
	CompletingRebalance: {PreparingRebalance},
	Stable:              {CompletingRebalance},
	Dead:                {Stable, PreparingRebalance, CompletingRebalance, Empty, Dead},
}

// Predecessors lists the states from which the group may move to to.
// Reference: docs/protocol.md §1.3.
func Predecessors(to State) []State {
	if to < 0 || to >= numStates {
		return nil
	}
	return slices.Clone(predecessors[to])
}

// CanTransition reports whether from → to is allowed by the predecessor table. Every state
// change of a Group is checked against it; an illegal one panics naming the transition.
// Reference: docs/protocol.md §1.3.
func CanTransition(from, to State) bool {
	if to < 0 || to >= numStates {
		return false
	}
	return slices.Contains(predecessors[to], from)
}

// transitionHook, when set by a test, observes every state change (including Dead → Dead).
var transitionHook func(from, to State)

// transition moves the group to state to, asserting the predecessor table.
func (s *step) transition(to State) {
	from := s.g.state
	if !CanTransition(from, to) {
		panic(fmt.Sprintf("coordinator: illegal transition %v -> %v", from, to))
	}
	if transitionHook != nil {
		transitionHook(from, to)
	}
	s.g.state = to
}
