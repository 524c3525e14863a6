package oracle

import (
	"fmt"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// lostStart is what an open onPartitionsLost is judged against: since when the member needs
// a sign of lost membership.
type lostStart struct {
	since int64          // seq of its last successful generation, or of its start
	gen   *history.Event // that generation's event; nil when since is its start
}

// checkLost judges a lost callback at its end: a sign that the member lost its membership must
// come after its last successful generation and before the callback returned. The sign may
// come while the callback runs because a recorder hooked into a client can log the response
// that triggered the callback after the client began reacting to it. A member that has begun
// to close, or whose leave was accepted, needs no other sign: that is the close path.
func (s *scan) checkLost(n *node, qs []part, end history.Event) {
	ls, ok := s.lost[end.ID]
	delete(s.lost, end.ID)
	if !ok || len(qs) == 0 || n.evidence > ls.since || n.closing != nil {
		return
	}
	begin := s.begin(end)
	events := []history.Event{begin, end}
	since := "its start"
	if ls.gen != nil {
		events = append(events, *ls.gen)
		since = fmt.Sprintf("its generation %s/%d at %s", ls.gen.Member, ls.gen.Gen, at(*ls.gen))
	}
	s.found(finding{prop: LostOnlyAfterMembershipLost, class: ClassViolation, at: begin.Seq, parts: qs,
		events: events, msg: func(ps string) string {
			return fmt.Sprintf("%s called onPartitionsLost with %s at %s, but nothing since %s shows it lost its membership (no cut, fence, or failed request or commit)",
				n.name, ps, at(begin), since)
		}})
}
