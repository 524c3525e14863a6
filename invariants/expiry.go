package invariants

import (
	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// OrphansExpireName is the second property the liveness graph decides.
const OrphansExpireName = "orphans-expire"

// OrphansExpireStatement is its one-line statement.
const OrphansExpireStatement = "from every world, one is reachable where the coordinator keeps no member and no pending member id that no running process stands behind"

// OrphansExpireSource is where orphans-expire comes from.
const OrphansExpireSource = "docs/protocol.md §1.9 (session timer), §1.4 (KIP-394 pending members expire after the session timeout), §3.1 (a KIP-848 member's session timer)"

// ExpiryReport is the verdict on orphans-expire: the coordinator lets go of every id nobody
// stands behind (spec.World.Unsettled) — an orphan member, a pending member id — as its
// session or join timer fires. no-orphan-member says when one appears; this says it does not
// stay. converges cannot see it: Converged judges the live members, and an orphan with no
// share of the assignment (more members than partitions), or a pending id, which has none,
// changes nothing it looks at. A coordinator that never expires such an id keeps it in every
// later rebalance, and for KIP-848 in its target assignment.
//
// It is "always eventually possible" (AG EF) on the explored graph: a world from which no
// settled world is reachable violates it. The timers that remove such ids are free (spec's
// timer), so in the reference every unsettled world reaches a settled one.
type ExpiryReport struct {
	Status explorer.Status // Holds, Violated, or Unknown when a bound stopped the graph
	Stuck  int             // worlds from which no settled world is reachable
	// Path is the shortest path to the first such world, and Kept the id it keeps there.
	Path *explorer.Path[spec.World, spec.Action]
	Kept impl.MemberID
}

// orphansExpire decides orphans-expire on a complete graph.
func (g *liveGraph) orphansExpire() ExpiryReport {
	rep := ExpiryReport{Status: explorer.Holds}
	first := -1
	for i, ok := range g.canReach(g.settled) {
		if !ok {
			rep.Stuck++
			if first < 0 {
				first = i
			}
		}
	}
	if first < 0 {
		return rep
	}
	rep.Status = explorer.Violated
	p := explorer.Path[spec.World, spec.Action]{Init: g.init}
	w := g.init
	for _, i := range g.pathTo(first) {
		w = g.stepTo(w, g.action[i])
		p.Steps = append(p.Steps, explorer.Step[spec.World, spec.Action]{Action: g.lastAction, State: w})
	}
	rep.Path, rep.Kept = &p, w.Unsettled()
	return rep
}
