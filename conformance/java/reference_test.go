package java

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/differential"
)

// TestCompareRound: range must match the reference exactly; a sticky round may differ in its
// choice only. The cooperative-sticky round is one Kafka's leader sent under the churn
// scenario (a owned all six partitions, b joined): Kafka keeps a's first three owned
// partitions in partition-then-topic order (AbstractStickyAssignor.ConstrainedAssignmentBuilder
// .assignOwnedPartitions sorts them so) and withholds the rest while a revokes them; the
// reference keeps t1-0..2.
func TestCompareRound(t *testing.T) {
	all := map[string][]int32{"t1": {0, 1, 2, 3}, "t2": {0, 1}}
	cluster := map[string]int32{"t1": 4, "t2": 2}
	topics := []string{"t1", "t2"}
	a := differential.Member{ID: "a", Version: 2, Topics: topics, Owned: all, Generation: 1}
	b := differential.Member{ID: "b", Version: 2, Topics: topics, Generation: -1}
	// Four members, six partitions: two members keep two. Kafka's leader picks which by HashMap
	// order over member IDs (gen 6 of a churn run), the reference otherwise: a choice.
	a4 := differential.Member{ID: "a", Version: 2, Topics: topics, Owned: map[string][]int32{"t1": {0}, "t2": {0}}, Generation: 5}
	b4 := differential.Member{ID: "b", Version: 2, Topics: topics, Owned: map[string][]int32{"t1": {2}, "t2": {1}}, Generation: 5}
	c4 := differential.Member{ID: "c", Version: 2, Topics: topics, Owned: map[string][]int32{"t1": {1, 3}}, Generation: 5}
	d4 := differential.Member{ID: "d", Version: 2, Topics: topics, Generation: -1}
	for _, tc := range []struct {
		name, assignor string
		members        []differential.Member
		got            map[string]map[string][]int32
		diff, choice   bool
	}{
		{"range equal", "range", []differential.Member{a, b},
			map[string]map[string][]int32{"a": {"t1": {0, 1}, "t2": {0}}, "b": {"t1": {2, 3}, "t2": {1}}}, false, false},
		{"range differs", "range", []differential.Member{a, b},
			map[string]map[string][]int32{"a": {"t1": {0, 1}, "t2": {1}}, "b": {"t1": {2, 3}, "t2": {0}}}, true, false},
		{"cooperative-sticky choice", "cooperative-sticky", []differential.Member{a, b},
			map[string]map[string][]int32{"a": {"t1": {0, 1}, "t2": {0}}, "b": {}}, false, true},
		{"cooperative-sticky shares", "cooperative-sticky", []differential.Member{a4, b4, c4, d4},
			map[string]map[string][]int32{"a": {"t1": {0}, "t2": {0}}, "b": {"t2": {1}}, "c": {"t1": {1, 3}}, "d": {}}, false, true},
		{"cooperative-sticky less sticky", "cooperative-sticky", []differential.Member{a4, b4, c4, d4},
			map[string]map[string][]int32{"a": {"t1": {0}}, "b": {"t1": {2}, "t2": {1}}, "c": {"t1": {3}}, "d": {}}, true, false},
		{"cooperative-sticky hands over an owned partition", "cooperative-sticky", []differential.Member{a, b},
			map[string]map[string][]int32{"a": {"t1": {0, 1}, "t2": {0}}, "b": {"t1": {2}}}, true, false},
		{"cooperative-sticky twice", "cooperative-sticky", []differential.Member{a, b},
			map[string]map[string][]int32{"a": {"t1": {0, 1, 2}}, "b": {"t1": {2}}}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diff, choice := compareRound(tc.assignor, tc.members, cluster, tc.got)
			if (diff != "") != tc.diff || (choice != "") != tc.choice {
				t.Errorf("diff %q, choice %q; want diff %v, choice %v", diff, choice, tc.diff, tc.choice)
			}
			if tc.diff && !strings.Contains(diff, "reference") {
				t.Errorf("diff does not show the reference's side: %q", diff)
			}
		})
	}
}
