package oracle

import (
	"fmt"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// bookkeep checks a callback's begin e over qs against the member's own earlier callbacks,
// taken as deltas in the order they were called: an assign names only partitions the member
// does not hold, a revoke or lost only partitions it holds. A revoke or lost gives its
// partitions up in this bookkeeping when it begins (the client has decided to), so an assign
// called while it still runs may name them again (a revoke acknowledged early).
func (s *scan) bookkeep(n *node, qs []part, e history.Event) {
	var wrong []part
	var earlier []history.Event
	for _, q := range qs {
		prev, held := n.held[q]
		switch {
		case e.Kind == history.Assign && held:
			wrong, earlier = append(wrong, q), append(earlier, prev)
		case e.Kind != history.Assign && !held:
			wrong = append(wrong, q)
		}
		if e.Kind == history.Assign {
			n.held[q] = e
		} else {
			delete(n.held, q)
		}
	}
	if len(wrong) == 0 {
		return
	}
	what := "which it does not hold (never assigned, or already given up)"
	if e.Kind == history.Assign {
		what = "which it already holds: assigned before and never revoked or lost"
	}
	s.found(finding{prop: CallbacksConsistent, class: ClassViolation, at: e.Seq, parts: wrong,
		events: append([]history.Event{e}, earlier...), msg: func(ps string) string {
			return fmt.Sprintf("%s's %s callback at %s names %s, %s", n.name, e.Kind, at(e), ps, what)
		}})
}
