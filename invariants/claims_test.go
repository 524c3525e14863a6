package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
)

// TestUntruthful: each clause of claims-truthful, on a member that owns t-0 since generation 3.
// Reference: KIP-429 §2 (the owned list), docs/protocol.md §2.2 and §2.8 (the labels).
func TestUntruthful(t *testing.T) {
	var c consumer.Consumer
	c.OwnedPartitions = impl.NewPartitionSet(impl.TP("t", 0))
	c.OwnedGeneration = 3
	sub := func(version int8, owned impl.PartitionSet, v2, userData impl.Generation) impl.Subscription {
		s := impl.NewSubscription(version, []string{"t"}, owned, v2)
		s.UserData = impl.UserData{Generation: userData}
		return s
	}
	t0, none := c.OwnedPartitions, impl.PartitionSet{}
	for _, tc := range []struct {
		name     string
		assignor string
		sub      impl.Subscription
		want     string
	}{
		{"true claim", consumer.CooperativeSticky, sub(2, t0, 4, 3), ""},
		{"v2 field newer than the content: allowed (§2.8)", consumer.CooperativeSticky, sub(2, t0, 5, 3), ""},
		{"owned list hides a partition", consumer.CooperativeSticky, sub(1, none, -1, 3), "claims () but the member owns (t-0)"},
		{"v0 carries no owned list", consumer.CooperativeSticky, sub(0, none, -1, 3), ""},
		{"user data relabelled (B8a)", consumer.CooperativeSticky, sub(1, t0, -1, 4), "labels (t-0) with generation 4"},
		{"another assignor's user data is not a label", consumer.Range, sub(1, t0, -1, 4), ""},
	} {
		got := untruthful(&c, impl.GroupProtocol{Name: tc.assignor, Metadata: tc.sub})
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
