package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// PromptName is the promptness property's name.
const PromptName = "prompt"

// prompt is the promise behind every time-to-converge figure (ConvergeTime): no timer is
// waited on when the protocol could move without it. A timer is a deadline for whoever is
// late, never a delay for those who are not; a group that waits for one anyway costs its
// users that timer's whole length on every rebalance — a session timeout longer after an
// upgrade is what operators see — while every safety property and the rounds figures stay
// the same, since the same steps happen, only later.
//
// Stated for both protocols, each in its own terms:
//   - classic: a join phase in which every member has rejoined and no pending member id is
//     outstanding completes at once (GroupCoordinator.tryCompleteJoin, docs/protocol.md
//     §1.3): such a world never rests in PreparingRebalance, where only the join timer
//     (the rebalance timeout) could end it;
//   - KIP-848: a member in JOINING, ACKNOWLEDGING or LEAVING sends its heartbeat at once
//     when none is in flight (Java shouldHeartbeatNow, docs/protocol.md §3.7): it never
//     rests there waiting for the heartbeat interval, which would hold the coordinator's
//     next answer for it.
//
// Kafka's own exceptions are allowed: the initial delay (InitialDelayedJoin,
// group.initial.rebalance.delay.ms, KIP-134) waits by design for more members to join an
// Empty group; KIP-848's assignment batching (group.consumer.assignment.interval.ms, Kafka
// 4.4) holds a new target for up to its interval, and is not modelled (the world computes
// the target on the heartbeat that needs one). A coordinator that is loading the group after
// a failover answers nobody yet: no wait there is needless.
var prompt = Property{
	Name:      PromptName,
	Kind:      explorer.Always,
	Statement: "no timer is waited on when the protocol could move without it: a classic join phase whose members have all rejoined (no pending id outstanding) completes at once, the initial delay excepted; a KIP-848 member in JOINING, ACKNOWLEDGING or LEAVING sends its heartbeat at once, never after the interval",
	Source:    "docs/protocol.md §1.3 (tryCompleteJoin; InitialDelayedJoin, KIP-134), §3.7 (shouldHeartbeatNow); KIP-848 assignment batching not modelled",
	State: func(w *spec.World) string {
		if w.Loading {
			return ""
		}
		if w.Config().ConsumerProtocol {
			return heldHeartbeat(w)
		}
		return joinWaitsForTimer(w.Coord)
	},
}

// joinWaitsForTimer says how group g waits for its join timer though every member rejoined,
// or "".
func joinWaitsForTimer(g coordinator.Group) string {
	if g.State() != coordinator.PreparingRebalance || g.InitialJoin() || len(g.Pending()) > 0 {
		return ""
	}
	ms := g.AllMembers()
	if len(ms) == 0 {
		return ""
	}
	for _, m := range ms {
		if !m.Join.Parked {
			return ""
		}
	}
	return fmt.Sprintf("the join phase of generation %d waits for its timer (the rebalance timeout) though all %d members have rejoined and no pending id is outstanding", g.Generation(), len(ms))
}

// heldHeartbeat says which live KIP-848 member holds a heartbeat it must send at once, or "".
func heldHeartbeat(w *spec.World) string {
	for i, s := range w.Slots {
		if !w.Live(i) || s.Member == nil {
			continue
		}
		m := s.Member
		if m.State().Urgent() && m.WantsHeartbeat() {
			return fmt.Sprintf("%s is %s with no heartbeat in flight: its heartbeat waits for the heartbeat interval", w.Config().Members[i].Name, m.State())
		}
	}
	return ""
}
