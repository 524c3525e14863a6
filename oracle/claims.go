package oracle

import (
	"fmt"
	"sort"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// checkClaim judges a JoinGroup's owned list (its begin e) against what the node owns by its
// callbacks when it sends it. Only a claim that names partitions is judged: the history cannot
// tell an empty claim from one the recorder did not note (Owned is omitted when empty).
func (s *scan) checkClaim(n *node, e history.Event) {
	if e.Op != history.JoinGroup || len(e.Owned) == 0 {
		return
	}
	claimed := map[part]bool{}
	for _, q := range partsOf(e.Owned) {
		claimed[q] = true
	}
	var wrong []part
	for q := range claimed {
		if n.owned[q] == nil {
			wrong = append(wrong, q)
		}
	}
	for q := range n.owned {
		if !claimed[q] {
			wrong = append(wrong, q)
		}
	}
	if len(wrong) == 0 {
		return
	}
	sort.Slice(wrong, func(i, j int) bool { return wrong[i].less(wrong[j]) })
	owned := n.ownedParts()
	claim := joinParts(partsOf(e.Owned))
	s.found(finding{prop: ClaimsTruthful, class: ClassViolation, at: e.Seq, parts: wrong, events: []history.Event{e},
		msg: func(ps string) string {
			return fmt.Sprintf("%s's JoinGroup at %s claims (%s) but by its callbacks it owns (%s): %s misstated",
				n.name, at(e), claim, joinParts(owned), ps)
		}})
}
