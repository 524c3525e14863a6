package invariants

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/leader"
	"github.com/groupcheck/groupcheck/spec"
)

// stickyLeastMovement is the sticky assignors' contract judged on every round a leader
// computes, not only where the group settles (converged-balanced): KIP-54 puts balance first
// and then "preserves as many existing partition assignments as possible". An assignment that
// is balanced but moves an owned partition a newly placed one could have covered — the sticky
// algorithm before KAFKA-8767's mitigation, or a balancer that moves from the wrong member —
// passes every safety property; under eager it costs nothing the measures see (all is revoked
// anyway), under cooperative one revocation more, seen only where a world happens to need that
// move. The statement, restated here from the KIPs rather than taken from impl/leader:
//   - claims: cooperative-sticky reads each member's owned partitions at the generation of its
//     subscription (the v2 field, else the user data's, else none), eager sticky the previous
//     assignment in its user data, both as the leader's subscription version reads them; a
//     partition claimed by one member is its claim, among several the highest generation
//     wins and a tie at the top leaves it unclaimed (KIP-341, KAFKA-14639);
//   - balanced: no partition could move to a member subscribed to its topic that holds two
//     fewer (KIP-54's isBalanced). Cooperative-sticky withholds the partitions transferring
//     ownership (docs/protocol.md §2.5), so its round is judged as the balanced assignment it
//     withheld from: some placement of the unassigned partitions, each with a member other
//     than its claimant, must make it balanced; sticky assigns everything;
//   - least movement: where every member subscribes to the same topics, among all balanced
//     assignments of the round none keeps more claimed partitions with their claimants
//     (searched exhaustively; rounds with more than stickySearchLimit assignments are not
//     judged). That is what Java's constrainedAssign guarantees (AbstractStickyAssignor:
//     each member keeps its claims up to its quota, then the rest is dealt out); with
//     different subscriptions generalAssign only moves partitions from the most to the least
//     loaded until balanced, a heuristic that may keep fewer claims than some balanced
//     assignment (eager sticky, a topics=u, b topics=t, c topics=t,u owning all four: a
//     balanced assignment keeps two of c's, Java's moves and the reference's keep one), so
//     there only balance is judged.
//
// Judged where the leader sends the assignor's output (the KIP variant's plan rewrites it).
// Reference: KIP-54 (goals, isBalanced); KIP-341; KIP-429 and docs/protocol.md §2.5
// (CooperativeStickyAssignor.memberData, adjustAssignment); KAFKA-14639; KAFKA-8767.
var stickyLeastMovement = Property{
	Name:      "sticky-least-movement",
	Kind:      explorer.Always,
	Statement: "a sticky or cooperative-sticky leader's assignment is balanced (no partition movable to a subscriber with two fewer) and, where every member subscribes to the same topics, keeps as many validly claimed partitions with their claimants as any balanced assignment",
	Source:    "KIP-54; KIP-341; docs/protocol.md §2.5 (CooperativeStickyAssignor.memberData, adjustAssignment); KAFKA-14639",
	Applies:   func(c spec.Config) bool { return classic(c) && c.Assignor != leader.AnyName },
	Step: func(pre *spec.World, ev []spec.Event, _ *spec.World) string {
		for _, a := range assignments(ev) {
			ra := pre.Slots[a.Slot].Assigning
			if a.Plan != nil || ra == nil || (ra.ProtocolName != leader.StickyName && ra.ProtocolName != leader.CooperativeStickyName) {
				continue
			}
			r := newStickyRound(ra.ProtocolName, ra.Cluster, ra.Members, pre.Config().Members[a.Slot].SubscriptionVersion, a.Assignments)
			if why := r.judge(); why != "" {
				return fmt.Sprintf("%s's gen %d %s assignment %s", a.Name, a.Generation, ra.ProtocolName, why)
			}
		}
		return ""
	},
}

// stickySearchLimit bounds the assignments stickyLeastMovement enumerates per round.
const stickySearchLimit = 1 << 14

// stickyRound is one round as stickyLeastMovement judges it; members and partitions by index.
type stickyRound struct {
	ids      []impl.MemberID
	parts    []impl.TopicPartition
	eligible [][]int // per partition: the members subscribed to its topic
	claimant []int   // per partition: its valid claimant, or -1
	owner    []int   // per partition: the member the leader gave it to, or -1
	withhold bool    // unassigned partitions are allowed (cooperative-sticky)
	sameSubs bool    // every member subscribes to the same topics: least movement is judged
}

// newStickyRound reads the round: the members' subscriptions at the leader's version v, their
// claims arbitrated, and the leader's output.
func newStickyRound(assignor string, cluster impl.Cluster, members []impl.JoinGroupMember, v int8, out []impl.MemberAssignment) stickyRound {
	ms := slices.Clone(members)
	slices.SortFunc(ms, func(x, y impl.JoinGroupMember) int { return cmp.Compare(x.MemberID, y.MemberID) })
	r := stickyRound{withhold: assignor == leader.CooperativeStickyName}
	subs := make([]impl.Subscription, len(ms))
	r.sameSubs = true
	for i, m := range ms {
		r.ids = append(r.ids, m.MemberID)
		subs[i] = m.Metadata.ReadAs(v)
		r.sameSubs = r.sameSubs && sameTopics(subs[i].Topics, subs[0].Topics)
	}
	for _, topic := range topicsOf(ms) {
		for p := range cluster.PartitionCount(topic) {
			r.parts = append(r.parts, impl.TP(topic, p))
		}
	}
	for _, tp := range r.parts {
		var el []int
		best, bestGen, tie := -1, impl.Generation(0), false
		for i, s := range subs {
			if slices.Contains(s.Topics, tp.Topic) {
				el = append(el, i)
			}
			claimed, gen := s.UserData.Previous, s.UserData.Generation
			if r.withhold {
				claimed, gen = s.OwnedPartitions, s.UserData.Generation
				if s.Version >= 2 && s.Generation >= 0 {
					gen = s.Generation
				} else if gen < 0 {
					gen = impl.NoGeneration
				}
			}
			if !claimed.Contains(tp) {
				continue
			}
			switch {
			case best < 0 || gen > bestGen:
				best, bestGen, tie = i, gen, false
			case gen == bestGen:
				tie = true
			}
		}
		if tie {
			best = -1
		}
		r.eligible, r.claimant = append(r.eligible, el), append(r.claimant, best)
		owner := -1
		for _, a := range out {
			if a.Assignment.Partitions.Contains(tp) {
				owner = slices.Index(r.ids, a.MemberID)
			}
		}
		r.owner = append(r.owner, owner)
	}
	return r
}

// judge says how the round breaks the contract, or "".
func (r stickyRound) judge() string {
	kept := 0
	n := 1
	for p, o := range r.owner {
		switch {
		case o >= 0 && r.claimant[p] == o:
			kept++
		case o < 0 && (!r.withhold || r.claimant[p] < 0):
			return fmt.Sprintf("leaves %s to nobody, which no member validly claims", r.parts[p])
		}
		if n *= max(1, len(r.eligible[p])); n > stickySearchLimit {
			return ""
		}
	}
	best, extends := -1, false
	r.each(func(f []int) {
		if !r.balanced(f) {
			return
		}
		k, ext := 0, true
		for p, o := range f {
			if o == r.claimant[p] {
				k++
			}
			ext = ext && (r.owner[p] == o || r.owner[p] < 0 && o != r.claimant[p])
		}
		best = max(best, k)
		extends = extends || ext
	})
	switch {
	case !extends:
		return fmt.Sprintf("%s is not balanced: some partition could move to a subscriber holding two fewer", r.describe())
	case kept < best && r.sameSubs:
		return fmt.Sprintf("%s keeps %d claimed partitions with their claimants where a balanced assignment keeps %d", r.describe(), kept, best)
	}
	return ""
}

// each calls f with every full assignment: each partition to one of its eligible members.
func (r stickyRound) each(f func([]int)) {
	g := make([]int, len(r.parts))
	var place func(p int)
	place = func(p int) {
		if p == len(r.parts) {
			f(g)
			return
		}
		if len(r.eligible[p]) == 0 {
			g[p] = -1
			place(p + 1)
			return
		}
		for _, i := range r.eligible[p] {
			g[p] = i
			place(p + 1)
		}
	}
	place(0)
}

// balanced: no partition of a full assignment could move to an eligible member holding two
// fewer (KIP-54's isBalanced).
func (r stickyRound) balanced(g []int) bool {
	count := make([]int, len(r.ids))
	for _, o := range g {
		if o >= 0 {
			count[o]++
		}
	}
	for p, o := range g {
		for _, i := range r.eligible[p] {
			if o >= 0 && count[i]+1 < count[o] {
				return false
			}
		}
	}
	return true
}

// describe spells the leader's output and the claims.
func (r stickyRound) describe() string {
	s := ""
	for p, tp := range r.parts {
		o, c := "nobody", "none"
		if r.owner[p] >= 0 {
			o = string(r.ids[r.owner[p]])
		}
		if r.claimant[p] >= 0 {
			c = string(r.ids[r.claimant[p]])
		}
		s += fmt.Sprintf(" %s→%s (claimed by %s)", tp, o, c)
	}
	return "[" + s[1:] + "]"
}

// sameTopics reports whether two subscriptions name the same topics, in any order.
func sameTopics(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}
