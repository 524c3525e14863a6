package lin

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// phases is a set of the states the classic group can be in at the generation the
// knowledge is about (coordinator.State, docs/protocol.md §1.3), as a bit mask.
type phases uint8

const (
	completing phases = 1 << iota // CompletingRebalance: joined, waiting for the leader's SyncGroup
	stable                        // Stable: the leader's assignment is stored
	preparing                     // PreparingRebalance: a new join phase under way
)

// closed adds the states reachable without a request the history shows: a session expiry or
// a sync timeout starts a rebalance from CompletingRebalance or Stable. Reaching Stable takes
// the leader's SyncGroup, which a complete history always shows.
func (p phases) closed() phases {
	if p&(completing|stable) != 0 {
		p |= preparing
	}
	return p
}

func (p phases) String() string {
	var names []string
	for _, x := range []struct {
		p    phases
		name string
	}{{completing, "CompletingRebalance"}, {stable, "Stable"}, {preparing, "PreparingRebalance"}} {
		if p&x.p != 0 {
			names = append(names, x.name)
		}
	}
	return strings.Join(names, "|")
}

// classic is the knowledge of a classic group coordinator (impl/coordinator). The facts about
// a generation hold only if the coordinator is still at gen: it may always have moved on
// (a join phase completed by its timer, with answers nobody recorded), so gen is a lower
// bound and every other generation fact is conditional on it.
type classic struct {
	static bool // the history has static members: leader and member-list facts are not kept

	gen         int32    // the coordinator's generation is at least gen
	phases      phases   // its possible states if it is at gen
	leader      string   // the leader of gen; "" unknown
	members     []string // gen's members as the leader's JoinGroup response listed them; nil unknown
	joinedGen   set      // members that got a JoinGroup answer for gen
	assign      partsMap // the assignment stored for gen (the leader's SyncGroup); nil unknown
	returned    partsMap // assignments SyncGroup answered for gen
	handedOut   set      // member ids the coordinator handed out
	joined      set      // member ids that became members (a successful JoinGroup)
	gone        set      // member ids the coordinator removed: they never come back
	why         provenance
	encodingKey string
}

func newClassic(static bool) *classic {
	c := &classic{static: static, phases: (completing | stable).closed(), joinedGen: set{}, returned: partsMap{},
		handedOut: set{}, joined: set{}, gone: set{}, why: provenance{}}
	c.encodingKey = c.encode()
	return c
}

func (c *classic) key() string { return c.encodingKey }

func (c *classic) encode() string {
	var b strings.Builder
	fmt.Fprintf(&b, "gen=%d phases=%d leader=%s members=%v/%t joined-gen=%s assign=%t:%s returned=%s handed=%s joined=%s gone=%s",
		c.gen, c.phases, c.leader, c.members, c.members != nil, c.joinedGen, c.assign != nil, c.assign.canonical(),
		c.returned.canonical(), c.handedOut, c.joined, c.gone)
	return b.String()
}

func (c *classic) String() string {
	s := fmt.Sprintf("gen≥%d (if %d: %s", c.gen, c.gen, c.phases)
	if c.leader != "" {
		s += ", leader " + c.leader
	}
	if c.assign != nil {
		s += ", assignment " + c.assign.canonical()
	}
	s += ")"
	if len(c.gone) > 0 {
		s += " removed: " + c.gone.String()
	}
	return s
}

// clone copies c for writing.
func (c *classic) clone() *classic {
	n := *c
	n.joinedGen, n.returned = c.joinedGen.clone(), maps.Clone(c.returned)
	n.handedOut, n.joined, n.gone = c.handedOut.clone(), c.joined.clone(), c.gone.clone()
	n.why = maps.Clone(c.why)
	if c.assign != nil {
		n.assign = maps.Clone(c.assign)
	}
	return &n
}

// step is one application of an operation. It reads s.n and writes through s.w(), which
// copies the knowledge on the first write: most operations (a heartbeat or commit answered
// at a generation already known in that state) change nothing, and the search then reuses
// the knowledge and its key as they are.
// stepOf is one response being applied to a protocol's knowledge K: copied on first write
// (most candidate linearizations fail before writing), with the reason kept only when asked.
type stepOf[K interface{ clone() K }] struct {
	n       K
	copied  bool
	o       *operation
	explain bool
	why     string
}

// step applies a classic response.
type step struct{ stepOf[*classic] }

// w is the writable knowledge.
func (s *stepOf[K]) w() K {
	if !s.copied {
		s.n, s.copied = s.n.clone(), true
	}
	return s.n
}

// fail records why the response is impossible (only when explaining: the search calls
// apply far more often than it fails for good).
func (s *stepOf[K]) fail(format string, args ...any) bool {
	if s.explain {
		s.why = s.o.label() + ": " + fmt.Sprintf(format, args...)
	}
	return false
}

func (c *classic) apply(o *operation, explain bool) ([]knowledge, string) {
	s := &step{stepOf[*classic]{n: c, o: o, explain: explain}}
	var out []*classic
	switch {
	case !o.answered:
		out = s.unanswered()
	case o.op == history.JoinGroup:
		out = s.one(s.join())
	case o.op == history.SyncGroup:
		out = s.sync()
	case o.op == history.Heartbeat:
		out = s.one(s.heartbeat())
	case o.op == history.OffsetCommit:
		out = s.one(s.commit())
	case o.op == history.LeaveGroup:
		out = s.one(s.leave())
	default:
		out = []*classic{c}
	}
	ks := make([]knowledge, len(out))
	for i, k := range out {
		if k != c {
			k.encodingKey = k.encode()
		}
		ks[i] = k
	}
	return ks, s.why
}

func (s *step) one(ok bool) []*classic {
	if !ok {
		return nil
	}
	return []*classic{s.n}
}

// join: a JoinGroup answer is given at the completion of a join phase (the generation is
// new) or, for a member whose metadata did not change, at once in CompletingRebalance or
// Stable (the current generation). Reference: docs/protocol.md §1.3–1.4.
func (s *step) join() bool {
	o := s.o
	switch o.err {
	case impl.MemberIDRequired:
		if id := o.respMember; id != "" {
			if s.n.handedOut[id] {
				return s.fail("member id %s handed out again (first by %s); KIP-394 ids are fresh", id, s.n.why.of("handed:"+id))
			}
			n := s.w()
			n.handedOut[id], n.why["handed:"+id] = true, o.label()
		}
		return true
	case impl.UnknownMemberID:
		s.removed(o.member)
		return true
	case impl.None:
	default:
		return true
	}
	id := o.respMember
	if id == "" {
		id = o.member
	}
	n := s.n
	switch {
	case o.member != "" && o.respMember != "" && o.respMember != o.member:
		return s.fail("the coordinator answered member %s's JoinGroup for member %s", o.member, o.respMember)
	case o.member == "" && n.handedOut[id]:
		return s.fail("a JoinGroup without member id was given %s, handed out before by %s", id, n.why.of("handed:"+id))
	case !s.present(id):
		return false
	case o.respGen < n.gen:
		return s.fail("generation %d answered after generation %d existed (%s); generations only rise", o.respGen, n.gen, n.why.of("gen"))
	case o.respGen > n.gen:
		s.w().newGeneration(o.respGen, o.label())
	case !s.require(completing|stable, "answer a JoinGroup with the current generation"):
		return false
	}
	n = s.n
	if id != "" && !(n.handedOut[id] && n.joined[id] && n.joinedGen[id]) {
		n = s.w()
		n.handedOut[id], n.joined[id], n.joinedGen[id] = true, true, true
		n.why["handed:"+id] = o.label()
	}
	if o.leader != "" && n.leader == "" {
		n = s.w()
		n.leader, n.why["leader"] = o.leader, o.label()
	}
	if n.static {
		return true
	}
	if o.leader != "" && o.leader != n.leader {
		return s.fail("generation %d has two leaders: %s (%s) and %s", o.respGen, n.leader, n.why.of("leader"), o.leader)
	}
	if o.members != nil {
		if n.members != nil && !slices.Equal(n.members, o.members) {
			return s.fail("generation %d listed with members %v (%s) and %v", o.respGen, n.members, n.why.of("members"), o.members)
		}
		if n.members == nil {
			n = s.w()
			n.members, n.why["members"] = o.members, o.label()
		}
	}
	if n.members != nil {
		for m := range n.joinedGen {
			if !slices.Contains(n.members, m) {
				return s.fail("member %s got generation %d but the leader's member list %v (%s) lacks it", m, o.respGen, n.members, n.why.of("members"))
			}
		}
	}
	return true
}

// sync: a successful SyncGroup is answered by the leader's SyncGroup that completes the
// round (CompletingRebalance → Stable, every member gets the leader's assignment, members it
// left out get nothing) or, in Stable, with the stored assignment. Reference: docs/protocol.md §1.5.
func (s *step) sync() []*classic {
	o := s.o
	switch o.err {
	case impl.None:
	case impl.RebalanceInProgress:
		return s.one(s.present(o.member) && s.atGeneration(o.gen) && s.require(preparing, "answer SyncGroup REBALANCE_IN_PROGRESS"))
	case impl.IllegalGeneration:
		return s.one(s.present(o.member) && s.notAtGeneration(o.gen))
	case impl.UnknownMemberID:
		s.removed(o.member)
		return []*classic{s.n}
	default:
		return []*classic{s.n}
	}
	if !s.present(o.member) || !s.atGeneration(o.gen) || !s.listed(o.member) {
		return nil
	}
	n := s.n
	var out []*classic
	if n.leaderMayBe(o.member) && n.phases&completing != 0 {
		if a := s.complete(n.clone()); a != nil && s.answers(a) {
			out = append(out, a)
		}
	}
	if n.phases&stable != 0 {
		b := n.clone()
		if b.phases != stable.closed() {
			b.phases, b.why["phase"] = stable.closed(), o.label()
		}
		if s.answers(b) {
			out = append(out, b)
		}
	}
	if len(out) == 0 && s.why == "" {
		if n.phases&(completing|stable) == 0 {
			s.fail("generation %d is rebalancing (%s)", o.gen, n.why.of("phase"))
		} else {
			s.fail("the round of generation %d is not complete: its leader %s has not synced", o.gen, orUnknown(n.leader))
		}
	}
	return out
}

// complete is the leader's SyncGroup completing the round in k: the assignment it sent is
// stored (if the history recorded it). nil if that contradicts answers already given.
func (s *step) complete(k *classic) *classic {
	o := s.o
	k.phases, k.why["phase"] = stable.closed(), o.label()
	if o.assignments == nil {
		return k
	}
	if k.leader == "" {
		k.leader, k.why["leader"] = o.member, o.label()
	}
	for m, got := range k.returned {
		if want, known := k.expected(o.assignments, m); known && !want.Equal(got) {
			s.fail("the leader sent %s for %s but SyncGroup answered it %s (%s)", want, m, got, k.why.of("ret:"+m))
			return nil
		}
	}
	k.assign, k.why["assign"] = maps.Clone(partsMap(o.assignments)), o.label()
	return k
}

// answers checks o's assignment against what k says the round stored, and remembers it.
func (s *step) answers(k *classic) bool {
	o := s.o
	if k.assign != nil {
		if want, known := k.expected(k.assign, o.member); known && !want.Equal(o.parts) {
			return s.fail("the leader assigned %s to %s for generation %d (%s)", want, o.member, o.gen, k.why.of("assign"))
		}
	}
	if got, ok := k.returned[o.member]; ok {
		if !got.Equal(o.parts) {
			return s.fail("generation %d's SyncGroup answered %s with %s before (%s)", o.gen, o.member, got, k.why.of("ret:"+o.member))
		}
		return true
	}
	k.returned[o.member], k.why["ret:"+o.member] = o.parts, o.label()
	return true
}

// expected is member m's share of assignment a: its entry, or nothing when the leader left
// it out — unless static members may have been renamed since (then unknown).
func (c *classic) expected(a map[string]impl.PartitionSet, m string) (impl.PartitionSet, bool) {
	if p, ok := a[m]; ok {
		return p, true
	}
	return impl.PartitionSet{}, !c.static
}

func (c *classic) leaderMayBe(m string) bool { return c.static || c.leader == "" || c.leader == m }

// heartbeat: NONE in CompletingRebalance (KAFKA-10134) and Stable, REBALANCE_IN_PROGRESS in
// PreparingRebalance, ILLEGAL_GENERATION for another generation. Reference: docs/protocol.md §1.6.
func (s *step) heartbeat() bool {
	o := s.o
	switch o.err {
	case impl.None:
		return s.present(o.member) && s.atGeneration(o.gen) && s.require(completing|stable, "answer Heartbeat NONE") && s.listed(o.member)
	case impl.RebalanceInProgress:
		return s.present(o.member) && s.atGeneration(o.gen) && s.require(preparing, "answer Heartbeat REBALANCE_IN_PROGRESS")
	case impl.IllegalGeneration:
		return s.present(o.member) && s.notAtGeneration(o.gen)
	case impl.UnknownMemberID:
		s.removed(o.member)
	}
	return true
}

// commit: accepted from a current member at the current generation in Stable and
// PreparingRebalance, REBALANCE_IN_PROGRESS in CompletingRebalance; a commit without
// identity (generation < 0, no member) only concerns an empty group. Reference: docs/protocol.md §1.8.
func (s *step) commit() bool {
	o := s.o
	if o.gen < 0 && o.member == "" {
		return true
	}
	switch o.err {
	case impl.None:
		return s.present(o.member) && s.atGeneration(o.gen) && s.require(stable|preparing, "accept an OffsetCommit")
	case impl.RebalanceInProgress:
		return s.present(o.member) && s.atGeneration(o.gen) && s.require(completing, "answer OffsetCommit REBALANCE_IN_PROGRESS")
	case impl.IllegalGeneration:
		return s.present(o.member) && s.notAtGeneration(o.gen)
	case impl.UnknownMemberID:
		s.removed(o.member)
	}
	return true
}

// leave: a member that leaves is removed for good and, if it was a member of the
// generation, the group rebalances. Reference: docs/protocol.md §1.7.
func (s *step) leave() bool {
	o := s.o
	switch o.err {
	case impl.None:
		if o.member == "" {
			return true
		}
		if !s.present(o.member) {
			return false
		}
		n := s.w()
		if n.joined[o.member] {
			n.phases, n.why["phase"] = preparing, o.label()
		}
		n.gone[o.member], n.why["gone:"+o.member] = true, o.label()
	case impl.UnknownMemberID:
		s.removed(o.member)
	}
	return true
}

// unanswered: a SyncGroup without an answer may have been the leader's that completed the
// round, or may have done nothing.
func (s *step) unanswered() []*classic {
	o, c := s.o, s.n
	out := []*classic{c}
	if o.op != history.SyncGroup || o.gen < c.gen || c.gone[o.member] {
		return out
	}
	n := c.clone()
	if o.gen > n.gen {
		n.newGeneration(o.gen, o.label())
	}
	if n.leaderMayBe(o.member) && n.phases&completing != 0 {
		if k := s.complete(n); k != nil {
			out = append(out, k)
		}
	}
	s.why = ""
	return out
}

// present: a request the coordinator validated came from a member it still has.
func (s *step) present(m string) bool {
	if m != "" && s.n.gone[m] {
		return s.fail("member %s was removed (%s) and removed members never come back", m, s.n.why.of("gone:"+m))
	}
	return true
}

// removed records UNKNOWN_MEMBER_ID: a member id that was a member is gone for good. A
// pending id (KIP-394) is not a member yet, and a static member is judged by its instance
// id, so neither is concluded gone.
func (s *step) removed(m string) {
	if m != "" && s.n.joined[m] && s.o.instance == "" && !s.n.gone[m] {
		n := s.w()
		n.gone[m], n.why["gone:"+m] = true, s.o.label()
	}
}

// listed: a member answered at the current generation is in its leader's member list.
func (s *step) listed(m string) bool {
	n := s.n
	if n.static || n.members == nil || m == "" || slices.Contains(n.members, m) {
		return true
	}
	return s.fail("member %s is not in generation %d's member list %v (%s)", m, n.gen, n.members, n.why.of("members"))
}

// atGeneration: the response says the coordinator is at generation g now.
func (s *step) atGeneration(g int32) bool {
	n := s.n
	switch {
	case g < n.gen:
		return s.fail("generation %d is over: generation %d exists (%s)", g, n.gen, n.why.of("gen"))
	case g > n.gen:
		s.w().newGeneration(g, s.o.label())
	}
	return true
}

// notAtGeneration: the response says the coordinator is not at generation g.
func (s *step) notAtGeneration(g int32) bool {
	if g == s.n.gen {
		s.w().newGeneration(g+1, s.o.label())
	}
	return true
}

// require: the response says the group is in one of the states p at its generation.
func (s *step) require(p phases, what string) bool {
	n := s.n
	if n.phases&p == 0 {
		return s.fail("the coordinator cannot %s at generation %d: it is %s there (%s)", what, n.gen, n.phases, n.why.of("phase"))
	}
	if next := (n.phases & p).closed(); next != n.phases {
		n = s.w()
		n.phases, n.why["phase"] = next, s.o.label()
	}
	return true
}

// newGeneration forgets everything about the previous generation. The new generation's
// leader has not synced (no request at it is linearized yet): CompletingRebalance, or
// already rebalancing again.
func (c *classic) newGeneration(g int32, by string) {
	c.gen, c.phases, c.leader, c.members, c.assign = g, completing.closed(), "", nil, nil
	c.joinedGen, c.returned = set{}, partsMap{}
	c.why["gen"], c.why["phase"] = by, by
	delete(c.why, "leader")
	delete(c.why, "members")
	delete(c.why, "assign")
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}
