package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// protocolVote is the classic coordinator's vote (docs/protocol.md §1.2, GroupMetadata.selectProtocol):
// the candidates are the assignors every member lists, each member votes for the first
// candidate on its own list, and the protocol of a generation (CompletingRebalance, Stable)
// is a candidate with the most votes — Kafka breaks a tie arbitrarily, so any tied winner
// passes. Every candidate is valid, so no safety property objects to a minority's assignor;
// but members list assignors in preference order (partition.assignment.strategy), and a
// coordinator that ignores it runs the group with an assignor most of its members ranked
// lower — the vote is how a rolling change of assignor (docs/protocol.md §2.7) takes effect.
var protocolVote = Property{
	Name:      "protocol-vote",
	Kind:      explorer.Always,
	Statement: "a CompletingRebalance or Stable classic group's protocol is an assignor all members list with the most first-choice votes among those",
	Source:    "docs/protocol.md §1.2 (GroupMetadata.selectProtocol, candidateProtocols)",
	Applies:   classic,
	State: func(w *spec.World) string {
		g := w.Coord
		if st := g.State(); st != coordinator.CompletingRebalance && st != coordinator.Stable {
			return ""
		}
		return voteLost(g.AllMembers(), g.ProtocolName())
	},
}

// voteLost says why protocol would not win the vote of members' protocol lists, or "".
func voteLost(members []coordinator.Member, protocol string) string {
	listedByAll := func(name string) bool {
		for _, m := range members {
			if !slices.ContainsFunc(m.Protocols, func(p impl.GroupProtocol) bool { return p.Name == name }) {
				return false
			}
		}
		return true
	}
	votes := map[string]int{}
	for _, m := range members {
		for _, p := range m.Protocols {
			if listedByAll(p.Name) {
				votes[p.Name]++
				break
			}
		}
	}
	for name, n := range votes {
		if n > votes[protocol] {
			return fmt.Sprintf("the group runs %s with %d votes, %s has %d", protocol, votes[protocol], name, n)
		}
	}
	if len(members) > 0 && !listedByAll(protocol) {
		return fmt.Sprintf("the group runs %s, which not every member lists", protocol)
	}
	return ""
}
