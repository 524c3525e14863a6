package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/leader"
)

// TestStickyLeastMovement: three cooperative-sticky members of t (5 partitions) claiming 2, 3
// and 0 at generation 1. The assignor's own answer moves one partition (from the member
// claiming 3); balancing from the first member instead (impl/leader's 846: the most loaded
// member not tried first) moves two, an unbalanced answer and a withheld partition nobody
// claims are named too.
func TestStickyLeastMovement(t *testing.T) {
	tps := func(ps ...int32) impl.PartitionSet {
		var out []impl.TopicPartition
		for _, p := range ps {
			out = append(out, impl.TP("t", p))
		}
		return impl.NewPartitionSet(out...)
	}
	member := func(id string, owned impl.PartitionSet) impl.JoinGroupMember {
		return impl.JoinGroupMember{MemberID: impl.MemberID(id), Metadata: impl.NewSubscription(2, []string{"t"}, owned, 1)}
	}
	cluster := impl.Cluster{Topics: []impl.TopicMetadata{{Name: "t", Partitions: 5}}}
	ms := []impl.JoinGroupMember{member("p", tps(0, 1)), member("q", tps(2, 3, 4)), member("r", tps())}
	out := func(p, q, r impl.PartitionSet) []impl.MemberAssignment {
		return []impl.MemberAssignment{{MemberID: "p", Assignment: impl.Assignment{Partitions: p}},
			{MemberID: "q", Assignment: impl.Assignment{Partitions: q}}, {MemberID: "r", Assignment: impl.Assignment{Partitions: r}}}
	}
	ref := leader.CooperativeSticky{}.Assign(cluster, ms)
	if why := newStickyRound(leader.CooperativeStickyName, cluster, ms, 2, ref).judge(); why != "" {
		t.Fatalf("the assignor's answer %v: %s", ref, why)
	}
	for name, c := range map[string]struct {
		out  []impl.MemberAssignment
		want string
	}{
		"two moves":  {out(tps(0), tps(2, 3), tps()), "keeps 3 claimed partitions"},
		"unbalanced": {out(tps(0, 1), tps(2, 3, 4), tps()), "not balanced"},
		"idle":       {out(tps(0, 1), tps(2, 3), tps()), ""},
	} {
		why := newStickyRound(leader.CooperativeStickyName, cluster, ms, 2, c.out).judge()
		if c.want == "" && why != "" || c.want != "" && !strings.Contains(why, c.want) {
			t.Errorf("%s: %q, want %q", name, why, c.want)
		}
	}
	// A partition nobody claims is never withheld; eager sticky assigns everything.
	six := impl.Cluster{Topics: []impl.TopicMetadata{{Name: "t", Partitions: 6}}}
	if why := newStickyRound(leader.CooperativeStickyName, six, ms, 2, out(tps(0, 1), tps(2, 3), tps(4))).judge(); !strings.Contains(why, "t-5 to nobody") {
		t.Errorf("cooperative-sticky leaving t-5 out: %q", why)
	}
	if why := newStickyRound(leader.StickyName, cluster, ms, 2, out(tps(0, 1), tps(2, 3), tps())).judge(); !strings.Contains(why, "to nobody") {
		t.Errorf("sticky leaving t-4 out: %q", why)
	}
}
