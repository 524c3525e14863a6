package leader

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
	"pgregory.net/rapid"
)

// universe is every partition a generated subscription may mention: topic w never exists and
// partition numbers may exceed the topic's count.
var universe = func() []impl.TopicPartition {
	var u []impl.TopicPartition
	for _, t := range []string{"t", "u", "v", "w"} {
		for p := int32(0); p < 3; p++ {
			u = append(u, impl.TP(t, p))
		}
	}
	return u
}()

func genSet(t *rapid.T, label string) impl.PartitionSet {
	var tps []impl.TopicPartition
	for _, tp := range universe {
		if rapid.IntRange(0, 3).Draw(t, label+" "+tp.String()) == 0 {
			tps = append(tps, tp)
		}
	}
	return impl.NewPartitionSet(tps...)
}

func genCluster(t *rapid.T, maxParts int) impl.Cluster {
	var ts []impl.TopicMetadata
	for _, name := range []string{"t", "u", "v"} {
		if n := rapid.IntRange(0, maxParts).Draw(t, "partitions of "+name); n > 0 {
			ts = append(ts, impl.TopicMetadata{Name: name, Partitions: int32(n)})
		}
	}
	return impl.NewCluster(ts...)
}

func genTopics(t *rapid.T, label string) []string {
	all := []string{"t", "u", "v", "w"}
	return rapid.SliceOfNDistinct(rapid.SampledFrom(all), 0, 4, rapid.ID).Draw(t, label)
}

// genMembers draws 1..maxMembers members with distinct ids in a random order; with sameTopics
// they all subscribe to the same topics.
func genMembers(t *rapid.T, maxMembers int, sameTopics bool) []impl.JoinGroupMember {
	n := rapid.IntRange(1, maxMembers).Draw(t, "members")
	shared := genTopics(t, "shared topics")
	var out []impl.JoinGroupMember
	for i := range n {
		id := fmt.Sprintf("m%d", i)
		topics := shared
		if !sameTopics {
			topics = genTopics(t, id+" topics")
		}
		s := impl.NewSubscription(int8(rapid.IntRange(0, 2).Draw(t, id+" version")), topics,
			genSet(t, id+" owned"), impl.Generation(rapid.IntRange(-1, 3).Draw(t, id+" gen")))
		s.UserData = impl.UserData{Previous: genSet(t, id+" prev"), Generation: impl.Generation(rapid.IntRange(-1, 3).Draw(t, id+" ud gen"))}
		m := impl.JoinGroupMember{MemberID: impl.MemberID(id), Metadata: s}
		if rapid.Bool().Draw(t, id+" static") {
			m.InstanceID = impl.InstanceID(fmt.Sprintf("i%d", rapid.IntRange(0, 9).Draw(t, id+" instance")))
		}
		out = append(out, m)
	}
	return rapid.Permutation(out).Draw(t, "order")
}

// genAssigned draws an arbitrary (possibly overlapping, possibly partial) assignment.
func genAssigned(t *rapid.T, members []impl.JoinGroupMember) []impl.MemberAssignment {
	var out []impl.MemberAssignment
	for _, m := range members {
		if rapid.IntRange(0, 4).Draw(t, string(m.MemberID)+" has entry") > 0 {
			out = append(out, impl.MemberAssignment{MemberID: m.MemberID,
				Assignment: impl.Assignment{Partitions: genSet(t, string(m.MemberID)+" assigned")}})
		}
	}
	return out
}

func owners(members []impl.JoinGroupMember, tp impl.TopicPartition) []impl.MemberID {
	var out []impl.MemberID
	for _, m := range members {
		if m.Metadata.OwnedPartitions.Contains(tp) {
			out = append(out, m.MemberID)
		}
	}
	return out
}

func assignedTo(assigned []impl.MemberAssignment, id impl.MemberID) impl.PartitionSet {
	for _, a := range assigned {
		if a.MemberID == id {
			return a.Assignment.Partitions
		}
	}
	return impl.PartitionSet{}
}

// TestPropPlanSets: the three sets are pairwise disjoint and cover owned ∪ assigned; the plan
// agrees with a naive per-partition reading of docs/protocol.md §7.2; no partition of Final goes to a
// member while another member owns it.
// Reference: KIP-429 §2.3 ("three exclusive sub-sets"), §2.4–§2.6; docs/protocol.md §6.8.
func TestPropPlanSets(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		members := genMembers(t, 4, false)
		assigned := genAssigned(t, members)
		r := Plan(PlanInput{Members: members, Assigned: assigned})
		mr, rm, ubo := r.MaybeRevoking, r.ReadyToMigrate, r.UnknownButOwned
		if mr.Intersects(rm) || mr.Intersects(ubo) || rm.Intersects(ubo) {
			t.Fatalf("sets not disjoint: %v %v %v", mr, rm, ubo)
		}
		if !mr.Union(rm).Union(ubo).Equal(r.OwnedPartitions.Union(r.AssignedPartitions)) {
			t.Fatalf("sets do not cover owned ∪ assigned")
		}
		anyAssigned := func(tp impl.TopicPartition) bool {
			return slices.ContainsFunc(assigned, func(a impl.MemberAssignment) bool { return a.Assignment.Partitions.Contains(tp) })
		}
		withheld := false
		for i, f := range r.Final {
			id := f.MemberID
			if i > 0 && r.Final[i-1].MemberID >= id {
				t.Fatalf("Final not sorted by member id")
			}
			for _, tp := range universe {
				own := owners(members, tp)
				mine := assignedTo(assigned, id).Contains(tp)
				naive := (mine && len(own) == 0) ||
					(slices.Equal(own, []impl.MemberID{id}) && (mine || !anyAssigned(tp)))
				if got := f.Assignment.Partitions.Contains(tp); got != naive {
					t.Fatalf("Final[%s] has %v = %v, naive %v (owners %v)", id, tp, got, naive, own)
				}
				if got := f.Assignment.Partitions.Contains(tp); got && slices.ContainsFunc(own, func(o impl.MemberID) bool { return o != id }) {
					t.Fatalf("Final gives %v to %s while %v own it", tp, id, own)
				}
				if mine && len(own) > 0 && !slices.Equal(own, []impl.MemberID{id}) {
					withheld = true
				}
			}
			if f.Assignment.Error != r.Error {
				t.Fatalf("member %s error %v, plan error %v", id, f.Assignment.Error, r.Error)
			}
		}
		if len(r.Final) != len(members) {
			t.Fatalf("Final has %d entries for %d members", len(r.Final), len(members))
		}
		if (r.Error == impl.NeedsRejoin) != withheld || withheld == r.Withheld.IsEmpty() {
			t.Fatalf("error %v, withheld %v, naive withheld %v", r.Error, r.Withheld, withheld)
		}
	})
}

// checkValid: one sorted entry per member; each partition to at most one member, only to a
// subscriber of its topic, only if it exists. With complete, every subscribed partition.
func checkValid(t *rapid.T, name string, c impl.Cluster, members []impl.JoinGroupMember, out []impl.MemberAssignment, complete bool) {
	if len(out) != len(members) {
		t.Fatalf("%s: %d entries for %d members", name, len(out), len(members))
	}
	var seen impl.PartitionSet
	for i, a := range out {
		if i > 0 && out[i-1].MemberID >= a.MemberID {
			t.Fatalf("%s: output not sorted by member id", name)
		}
		i := slices.IndexFunc(members, func(m impl.JoinGroupMember) bool { return m.MemberID == a.MemberID })
		if i < 0 {
			t.Fatalf("%s: entry for unknown member %s", name, a.MemberID)
		}
		for _, tp := range a.Assignment.Partitions.Slice() {
			if !c.Exists(tp) || !members[i].Metadata.Subscribes(tp.Topic) || seen.Contains(tp) {
				t.Fatalf("%s: %v to %s: exists %v, subscribed %v, twice %v", name, tp, a.MemberID,
					c.Exists(tp), members[i].Metadata.Subscribes(tp.Topic), seen.Contains(tp))
			}
			seen = seen.Add(tp)
		}
	}
	if all := c.PartitionsOf(subscribedTopics(members)); complete && !seen.Equal(all) {
		t.Fatalf("%s: assigned %v, want every subscribed partition %v", name, seen, all)
	}
}

// TestPropAssignorsValid: every assignor gives each subscribed partition to at most one member
// subscribed to its topic (all of them, except what cooperative-sticky withholds), and its
// output does not depend on the order of the members.
// Reference: docs/protocol.md §2.4–2.5.
func TestPropAssignorsValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genCluster(t, 3)
		members := genMembers(t, 4, rapid.Bool().Draw(t, "same topics"))
		assignors := []Assignor{Range{}, RoundRobin{}, Sticky{}, CooperativeSticky{SkipAdjust: true}, CooperativeSticky{}}
		for _, a := range assignors {
			out := a.Assign(c, members)
			cs, isCS := a.(CooperativeSticky)
			checkValid(t, a.Name(), c, members, out, !isCS || cs.SkipAdjust)
			rev := slices.Clone(members)
			slices.Reverse(rev)
			if d := cmp.Diff(out, a.Assign(c, rev), cmpOpts); d != "" {
				t.Fatalf("%s depends on member order:\n%s", a.Name(), d)
			}
		}
	})
}

// naiveClaims: a claim (m, p) is valid iff p exists, someone subscribes to its topic and every
// other claimant of p has a strictly lower generation.
// Reference: docs/protocol.md §2.5.
func naiveClaims(c impl.Cluster, members []impl.JoinGroupMember) []Claim {
	var out []Claim
	for _, tp := range universe {
		if !c.Exists(tp) || !slices.Contains(subscribedTopics(members), tp.Topic) {
			continue
		}
		for _, m := range members {
			g := MemberGeneration(m.Metadata)
			if !m.Metadata.OwnedPartitions.Contains(tp) {
				continue
			}
			if !slices.ContainsFunc(members, func(o impl.JoinGroupMember) bool {
				return o.MemberID != m.MemberID && o.Metadata.OwnedPartitions.Contains(tp) && MemberGeneration(o.Metadata) >= g
			}) {
				out = append(out, Claim{tp, m.MemberID, g})
			}
		}
	}
	return out
}

// TestPropCooperativeStickyRespectsClaims: ValidClaims agrees with the naive definition, and
// cooperative-sticky never assigns a partition to X while another member validly claims it; a
// subscribed partition is left out only if someone validly claims it.
// Reference: docs/protocol.md §2.5 (KAFKA-14639), docs/bugs.md B10.
func TestPropCooperativeStickyRespectsClaims(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genCluster(t, 3)
		members := genMembers(t, 4, rapid.Bool().Draw(t, "same topics"))
		claims := naiveClaims(c, members)
		if d := cmp.Diff(claims, ValidClaims(c, members)); d != "" {
			t.Fatalf("ValidClaims differs from the naive arbitration:\n%s", d)
		}
		out := CooperativeSticky{}.Assign(c, members)
		var assigned impl.PartitionSet
		for _, a := range out {
			assigned = assigned.Union(a.Assignment.Partitions)
			for _, cl := range claims {
				if cl.Owner != a.MemberID && a.Assignment.Partitions.Contains(cl.Partition) {
					t.Fatalf("%v assigned to %s while %s validly claims it", cl.Partition, a.MemberID, cl.Owner)
				}
			}
		}
		for _, tp := range c.PartitionsOf(subscribedTopics(members)).Minus(assigned).Slice() {
			if !slices.ContainsFunc(claims, func(cl Claim) bool { return cl.Partition == tp }) {
				t.Fatalf("%v left unassigned without a valid claim", tp)
			}
		}
	})
}

// TestPropStickyBalancedAndSticky: with identical subscriptions the sticky assignors balance to
// within one partition and every valid owner keeps min(owned, ⌊P/M⌋) of its partitions.
// Reference: docs/protocol.md §2.5 (min/max quota).
func TestPropStickyBalancedAndSticky(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genCluster(t, 3)
		members := genMembers(t, 4, true)
		all := c.PartitionsOf(subscribedTopics(members))
		minQuota := all.Len() / len(members)
		out := CooperativeSticky{SkipAdjust: true}.Assign(c, members)
		kept := claimsByMember(sortedMembers("test", members), ValidClaims(c, members))
		lo, hi := all.Len(), 0
		for i, a := range out {
			n := a.Assignment.Partitions.Len()
			lo, hi = min(lo, n), max(hi, n)
			mine := kept[i].Intersect(all)
			if got := a.Assignment.Partitions.Intersect(mine).Len(); got < min(mine.Len(), minQuota) {
				t.Fatalf("%s keeps %d of its %d owned, quota %d", a.MemberID, got, mine.Len(), minQuota)
			}
		}
		if len(subscribedTopics(members)) > 0 && hi-lo > 1 {
			t.Fatalf("unbalanced: counts from %d to %d", lo, hi)
		}
	})
}

// TestPropAllAssignments: every element is valid (complete without unassigned), elements are
// distinct, and their number is CountAssignments' formula.
// Reference: docs/protocol.md §6.4 (the any assignor).
func TestPropAllAssignments(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genCluster(t, 2)
		members := genMembers(t, 3, false)
		allow := rapid.Bool().Draw(t, "allow unassigned")
		n := CountAssignments(c, members, allow)
		if n > 3000 {
			t.Skip("too many assignments")
		}
		all := AllAssignments(c, members, allow)
		if len(all) != n {
			t.Fatalf("%d elements, CountAssignments %d", len(all), n)
		}
		seen := map[string]bool{}
		for _, a := range all {
			checkValid(t, "any", c, members, a, !allow)
			key := fmt.Sprint(a)
			if seen[key] {
				t.Fatalf("duplicate element %v", a)
			}
			seen[key] = true
		}
	})
}

// TestPropValidateCooperative agrees with the naive definition: p is a violation iff some
// member gains p and some member loses p in the same assignment.
// Reference: docs/protocol.md §2.4 step 4.
func TestPropValidateCooperative(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		members := genMembers(t, 4, false)
		assigned := genAssigned(t, members)
		got := ValidateCooperative(members, assigned)
		for _, tp := range universe {
			gains, loses := false, false
			for _, m := range members {
				own, as := m.Metadata.OwnedPartitions.Contains(tp), assignedTo(assigned, m.MemberID).Contains(tp)
				gains = gains || (as && !own)
				loses = loses || (own && !as)
			}
			if got.Contains(tp) != (gains && loses) {
				t.Fatalf("%v: reported %v, gains %v loses %v", tp, got.Contains(tp), gains, loses)
			}
		}
	})
}

// TestPropLeadKIPNeverGivesAnOwnedPartition: in the KIP variant under the cooperative protocol,
// whatever the assignor (every built-in one and every "any" element), no partition of the final
// assignment goes to a member while another member (as the leader reads it) owns it.
// Reference: KIP-429 §2.6.
func TestPropLeadKIPNeverGivesAnOwnedPartition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := LeaderInput{Variant: impl.KIP, Protocol: impl.Cooperative, Cluster: genCluster(t, 2),
			Members: genMembers(t, 3, false), ReadVersion: int8(rapid.IntRange(1, 2).Draw(t, "read version"))}
		read := ReadMembers(in.Members, in.ReadVersion)
		check := func(out LeaderOutput) {
			for _, a := range out.Assignments {
				for _, tp := range a.Assignment.Partitions.Slice() {
					if o := owners(read, tp); slices.ContainsFunc(o, func(id impl.MemberID) bool { return id != a.MemberID }) {
						t.Fatalf("%s: %v to %s while %v own it", in.AssignorName, tp, a.MemberID, o)
					}
				}
			}
		}
		for _, name := range Names() {
			in.AssignorName = name
			check(Lead(in))
		}
		in.AssignorName = AnyName
		n := 0
		for a := range EachAssignment(in.Cluster, in.Members, true) {
			if n++; n > 200 {
				break
			}
			check(LeadWith(in, a))
		}
	})
}
