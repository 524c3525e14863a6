package oracle

import (
	"fmt"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// coordinator follows what the coordinator answered, for the checks of its promises that need
// no search: each is judged at one answer against facts kept from earlier ones (the answers
// that returned before its request began, where order matters), so it is exact and cheap.
// What needs a search over the orders of concurrent requests is lin's (Options.Linearizability).
type coordinator struct {
	static  bool                     // a static member was seen: a rejoin may rename a member and keep the generation
	leaders map[int32]history.Event  // classic generation → the first JoinGroup answer naming its leader
	maxJoin *history.Event           // the highest generation among JoinGroup answers that returned
	floor   map[int64]history.Event  // open JoinGroup ID → maxJoin when it began
	handed  map[string]history.Event // member ID → the answer that first handed it out
	removed map[string]history.Event // member ID → its accepted leave or its Fenced event, until it rejoins
	pending map[int64]history.Event  // open request ID → the removal in force for its member when it began
}

func newCoordinator() *coordinator {
	return &coordinator{leaders: map[int32]history.Event{}, floor: map[int64]history.Event{},
		handed: map[string]history.Event{}, removed: map[string]history.Event{}, pending: map[int64]history.Event{}}
}

// coordinatorEvent feeds a request's begin or end, or a Fenced event, to the coordinator's
// checks.
func (s *scan) coordinatorEvent(e history.Event) {
	c := s.coord
	switch {
	case e.Kind == history.Fenced:
		if e.Member != "" {
			c.removed[e.Member] = e
		}
	case e.Kind != history.Request:
	case e.Phase == history.Begin:
		c.begin(e)
	case answered(e):
		s.answer(s.begin(e), e)
	default:
		delete(c.floor, e.ID)
		delete(c.pending, e.ID)
	}
}

func (c *coordinator) begin(b history.Event) {
	if b.Instance != "" {
		c.static = true
	}
	if b.Op == history.JoinGroup && c.maxJoin != nil {
		c.floor[b.ID] = *c.maxJoin
	}
	if r, ok := c.removed[b.Member]; ok && b.Member != "" && b.Instance == "" && !isLeave(b) && !rejoins(b, r) {
		c.pending[b.ID] = r
	}
}

// answer judges one answered request (begin b, end e).
func (s *scan) answer(b, e history.Event) {
	c := s.coord
	floor, hasFloor := c.floor[e.ID]
	removal, wasRemoved := c.pending[e.ID]
	delete(c.floor, e.ID)
	delete(c.pending, e.ID)
	member := e.Member
	if member == "" {
		member = b.Member
	}
	if e.Member != "" && e.Member != b.Member && (e.OK() || e.Err == "MEMBER_ID_REQUIRED") &&
		(b.Op == history.JoinGroup || b.Op == history.ConsumerGroupHeartbeat) {
		s.handedOut(b, e)
	}
	if !e.OK() {
		return
	}
	switch {
	case wasRemoved:
		s.acceptedAfterRemoval(b, e, member, removal)
	case isLeave(b) && b.Instance == "" && member != "":
		c.removed[member] = e
	default:
		if r, ok := c.removed[member]; ok && rejoins(b, r) {
			delete(c.removed, member)
		}
	}
	switch b.Op {
	case history.JoinGroup:
		s.joinAnswer(b, e, floor, hasFloor)
	case history.ConsumerGroupHeartbeat:
		if b.Gen > 0 && e.Gen > 0 && e.Gen < b.Gen {
			s.found(finding{prop: CoordinatorGenerationRises, class: ClassViolation, at: e.Seq,
				events: []history.Event{b, e}, msg: func(string) string {
					return fmt.Sprintf("the coordinator answered %s's ConsumerGroupHeartbeat at epoch %d (begun at %s) with epoch %d at %s",
						member, b.Gen, at(b), e.Gen, at(e))
				}})
		}
	}
}

// joinAnswer judges an accepted JoinGroup: its generation is no lower than one answered before
// it began, and a generation has one leader. An answer without a generation (a recorder that
// did not note it) is not judged.
func (s *scan) joinAnswer(b, e history.Event, floor history.Event, hasFloor bool) {
	c := s.coord
	if e.Gen <= 0 {
		return
	}
	if hasFloor && e.Gen < floor.Gen {
		s.found(finding{prop: CoordinatorGenerationRises, class: ClassViolation, at: e.Seq,
			events: []history.Event{floor, b, e}, msg: func(string) string {
				return fmt.Sprintf("%s's JoinGroup begun at %s was answered with generation %d at %s, after %s's JoinGroup had been answered with generation %d at %s",
					b.Node, at(b), e.Gen, at(e), floor.Node, floor.Gen, at(floor))
			}})
	}
	if c.maxJoin == nil || e.Gen > c.maxJoin.Gen {
		c.maxJoin = &e
	}
	if e.Leader == "" || c.static {
		return
	}
	first, ok := c.leaders[e.Gen]
	if !ok {
		c.leaders[e.Gen] = e
		return
	}
	if first.Leader != e.Leader {
		s.found(finding{prop: OneLeaderPerGeneration, class: ClassViolation, at: e.Seq,
			events: []history.Event{first, e}, msg: func(string) string {
				return fmt.Sprintf("generation %d has two leaders: %s's JoinGroup answer at %s names %s, %s's at %s names %s",
					e.Gen, first.Node, at(first), first.Leader, e.Node, at(e), e.Leader)
			}})
	}
}

// handedOut judges a member ID the coordinator gave a node (an answer naming another ID than
// the request did): no other node was given it before.
func (s *scan) handedOut(b, e history.Event) {
	c := s.coord
	prev, ok := c.handed[e.Member]
	if !ok {
		c.handed[e.Member] = e
		return
	}
	if prev.Node == e.Node {
		return
	}
	s.found(finding{prop: MemberIDUnique, class: ClassViolation, at: e.Seq,
		events: []history.Event{prev, b, e}, msg: func(string) string {
			return fmt.Sprintf("the coordinator handed member ID %s to %s at %s and to %s at %s",
				e.Member, prev.Node, at(prev), e.Node, at(e))
		}})
}

// acceptedAfterRemoval reports a request the coordinator accepted from a member ID it had
// removed (Fenced) or that had left, begun after that; it reports the member once.
func (s *scan) acceptedAfterRemoval(b, e history.Event, member string, removal history.Event) {
	delete(s.coord.removed, member)
	how := "left"
	if removal.Kind == history.Fenced {
		how = "was removed"
	}
	s.found(finding{prop: RemovedStaysRemoved, class: ClassViolation, at: e.Seq,
		events: []history.Event{removal, b, e}, msg: func(string) string {
			return fmt.Sprintf("the coordinator accepted %s's %s begun at %s (answered at %s), but member %s %s at %s",
				b.Node, b.Op, at(b), at(e), member, how, at(removal))
		}})
}

// rejoins reports whether request b may bring a removed member ID back: a KIP-848 member
// rejoins with epoch 0 under its own ID (docs/protocol.md §3.3), and after a Fenced event, which may
// be about one generation only, a classic JoinGroup may too. After its own classic leave a
// member ID is unknown for good (docs/protocol.md §1.7).
func rejoins(b, removal history.Event) bool {
	if b.Op == history.ConsumerGroupHeartbeat {
		return b.Gen == 0
	}
	return b.Op == history.JoinGroup && removal.Kind == history.Fenced
}
