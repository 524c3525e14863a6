package oracle

import "github.com/groupcheck/groupcheck/oracle/history"

// index is what the main pass must know ahead of time, computed in two quick passes over a
// validated history.
type index struct {
	begin  map[int64]int // interval ID → index of its begin
	end    map[int64]int // interval ID → index of its end
	target []string      // per event: the node it concerns (a Fenced event names a member)
	dead   []bool        // per event: its node had crashed and not restarted (a dead process observes nothing)
	// retro, per event: the index of a later fencing answer that shows the coordinator had
	// fenced the node at some unrecorded moment since its last proof of membership, so that
	// its membership is in doubt after this event; -1 when it is not.
	retro []int
}

func newIndex(h history.History) *index {
	ix := &index{begin: map[int64]int{}, end: map[int64]int{}, target: make([]string, len(h)),
		dead: make([]bool, len(h)), retro: make([]int, len(h))}
	memberNode := map[string]string{} // member ID → the node last seen using it
	crashed := map[string]bool{}
	byNode := map[string][]int{}
	for i, e := range h {
		switch e.Phase {
		case history.Begin:
			ix.begin[e.ID] = i
		case history.End:
			ix.end[e.ID] = i
		}
		n := e.Node
		if e.Kind == history.Fenced && e.Member != "" && memberNode[e.Member] != "" {
			n = memberNode[e.Member]
		} else if e.Member != "" && e.Kind != history.Fenced && e.Kind != history.Mark {
			memberNode[e.Member] = n
		}
		ix.target[i] = n
		switch {
		case e.Kind == history.Start:
			crashed[n] = false
		case crashed[n]:
			ix.dead[i] = true
		case e.Kind == history.Crash:
			crashed[n] = true
		}
		ix.retro[i] = -1
		byNode[n] = append(byNode[n], i)
	}
	proof := ix.proofs(h, byNode)
	for _, is := range byNode {
		ix.markRetro(h, is, proof)
	}
	return ix
}

// proofs marks the events after which a node was certainly a member: an accepted membership
// request or commit, a newly observed generation, and (as a boundary) its start.
func (ix *index) proofs(h history.History, byNode map[string][]int) []bool {
	proof := make([]bool, len(h))
	for _, is := range byNode {
		var last identity
		for _, i := range is {
			e := h[i]
			switch {
			case ix.dead[i]:
			case e.Kind == history.Start:
				proof[i], last = true, identity{}
			case e.Kind == history.Generation:
				id := identity{e.Member, e.Gen}
				proof[i] = e.Gen > 0 && id != last
				last = id
			case e.Phase == history.End && okAnswer(e) && (isCommit(e) || isMembership(e)):
				proof[i] = !isLeave(h[ix.begin[e.ID]])
			}
		}
	}
	return proof
}

// markRetro walks one node's events backwards: after a fencing answer, every event back to
// the last proof of membership leaves the node's membership in doubt, because the coordinator
// fenced it at a moment the history does not show.
func (ix *index) markRetro(h history.History, is []int, proof []bool) {
	pending := -1
	for k := len(is) - 1; k >= 0; k-- {
		i := is[k]
		if ix.dead[i] {
			continue
		}
		if fencingAnswer(h[i]) {
			pending = i
			continue
		}
		if pending >= 0 {
			ix.retro[i] = pending
			if proof[i] {
				pending = -1
			}
		}
	}
}

// fencingAnswer reports whether e is an answer that shows the coordinator no longer had the
// member: a membership request or a commit refused with a fencing error.
func fencingAnswer(e history.Event) bool {
	if e.Phase != history.End || !answered(e) {
		return false
	}
	return (isMembership(e) && fencing[e.Err]) || (isCommit(e) && commitFencing[e.Err])
}

// identity is who a member believes it is: member ID and generation (epoch).
type identity struct {
	member string
	gen    int32
}
