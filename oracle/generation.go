package oracle

import (
	"fmt"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// generation follows what a member observed: generation-monotonic, and a new generation as
// proof that the coordinator admitted it.
func (s *scan) generation(n *node, e history.Event) {
	if e.Member != "" {
		if prev, ok := n.gens[e.Member]; ok && e.Gen < prev.Gen && !resetGen(n.proto, e.Gen) {
			s.found(finding{prop: GenerationMonotonic, class: ClassViolation, at: e.Seq,
				events: []history.Event{prev, e}, msg: func(string) string {
					return fmt.Sprintf("%s, member %s, observed generation %d at %s after %d at %s",
						n.name, e.Member, e.Gen, at(e), prev.Gen, at(prev))
				}})
		}
		n.gens[e.Member] = e
		n.id.member = e.Member
	}
	id := identity{e.Member, e.Gen}
	if e.Gen > 0 && id != n.lastGen {
		n.id.gen = e.Gen
		n.newGeneration(id, e)
		n.admit(e.Seq)
	}
	n.lastGen = id
}

// resetGen reports whether gen is a value a client may drop to: KIP-848 joins with epoch 0
// and leaves with -1 or -2 (docs/protocol.md §3.1); a classic client with no generation says -1
// (docs/protocol.md §2.2). With the protocol unknown, the consumer protocol's values are allowed.
func resetGen(proto string, gen int32) bool {
	if proto == history.Classic {
		return gen == -1
	}
	return gen == 0 || gen == -1 || gen == -2
}
