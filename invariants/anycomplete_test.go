package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/leader"
)

// TestAnyComplete: the property holds in an eager `any` world of two members on a topic of two
// partitions (9 valid assignments per round of both: each partition to a, b or nobody), and
// names the enumerations impl/leader's survivors make: without "nobody" (773, 774), only the
// first assignment (758, 762, 764), one assignment short.
func TestAnyComplete(t *testing.T) {
	c := config(t, "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor any\ntopic t 2\nmember a topics=t\nmember b topics=t\n")
	m := NewModelWith(c, []Property{anyComplete})
	if r := explorer.Check(m, m.Properties(), explorer.Options{}); r.Properties[0].Status != explorer.Holds {
		t.Fatalf("any-complete %v: %v", r.Properties[0].Status, pathText(c, r.Properties[0].Path))
	}
	cluster := impl.Cluster{Topics: []impl.TopicMetadata{{Name: "t", Partitions: 2}}}
	sub := impl.NewSubscription(1, []string{"t"}, impl.PartitionSet{}, impl.NoGeneration)
	ms := []impl.JoinGroupMember{{MemberID: "b#1", Metadata: sub}, {MemberID: "a#1", Metadata: sub}}
	all := leader.AllAssignments(cluster, ms, true)
	if why := offersAll(all, cluster, ms); why != "" || len(all) != 9 {
		t.Fatalf("the reference's %d assignments: %s", len(all), why)
	}
	for name, offered := range map[string][][]impl.MemberAssignment{
		"without nobody": leader.AllAssignments(cluster, ms, false),
		"first only":     all[:1],
		"one short":      all[1:],
	} {
		if why := offersAll(offered, cluster, ms); why == "" {
			t.Errorf("%s: not named", name)
		} else {
			t.Logf("%s: %s", name, why)
		}
	}
}
