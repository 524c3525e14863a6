package differential

import (
	"fmt"
	"slices"
	"sort"

	"github.com/groupcheck/groupcheck/impl"
)

// ToSet converts a client's partition map (topic → partitions, as kgo and sarama callbacks
// and history.Parts hold them) into a reference partition set. An empty topic name, a
// negative partition or a partition listed twice is an error: a client that produces one
// has a bug worth hearing about, so it is not deduplicated away.
func ToSet(p map[string][]int32) (impl.PartitionSet, error) {
	var tps []impl.TopicPartition
	for _, t := range sortedKeys(p) {
		if t == "" {
			return impl.PartitionSet{}, fmt.Errorf("partition map: empty topic name")
		}
		seen := map[int32]bool{}
		for _, q := range p[t] {
			switch {
			case q < 0:
				return impl.PartitionSet{}, fmt.Errorf("partition map: negative partition %s/%d", t, q)
			case seen[q]:
				return impl.PartitionSet{}, fmt.Errorf("partition map: partition %s/%d listed twice", t, q)
			}
			seen[q] = true
			tps = append(tps, impl.TP(t, q))
		}
	}
	return impl.NewPartitionSet(tps...), nil
}

// ToSetIn is ToSet that also requires every partition to exist in the cluster: an unknown
// topic or a partition beyond the topic's count is an error.
func ToSetIn(p map[string][]int32, c impl.Cluster) (impl.PartitionSet, error) {
	s, err := ToSet(p)
	if err != nil {
		return s, err
	}
	for _, tp := range s.Slice() {
		if n := c.PartitionCount(tp.Topic); n == 0 {
			return impl.PartitionSet{}, fmt.Errorf("partition map: unknown topic %q", tp.Topic)
		} else if tp.Partition >= n {
			return impl.PartitionSet{}, fmt.Errorf("partition map: partition %s/%d beyond the topic's %d partitions", tp.Topic, tp.Partition, n)
		}
	}
	return s, nil
}

// FromSet converts a reference partition set into the client's map shape: partitions in
// ascending order, never nil (an empty set is an empty map).
func FromSet(s impl.PartitionSet) map[string][]int32 {
	out := map[string][]int32{}
	for _, tp := range s.Slice() {
		out[tp.Topic] = append(out[tp.Topic], tp.Partition)
	}
	return out
}

// NewCluster converts topic partition counts into reference cluster metadata. A topic with
// an empty name or fewer than one partition is an error.
func NewCluster(topics map[string]int32) (impl.Cluster, error) {
	var ts []impl.TopicMetadata
	for _, t := range sortedKeys(topics) {
		n := topics[t]
		switch {
		case t == "":
			return impl.Cluster{}, fmt.Errorf("cluster: empty topic name")
		case n < 1:
			return impl.Cluster{}, fmt.Errorf("cluster: topic %q has %d partitions (want at least 1)", t, n)
		}
		ts = append(ts, impl.TopicMetadata{Name: t, Partitions: n})
	}
	return impl.NewCluster(ts...), nil
}

// topicList validates and sorts a subscription's topic list: names non-empty and distinct.
func topicList(what string, topics []string) ([]string, error) {
	ts := slices.Clone(topics)
	sort.Strings(ts)
	for i, t := range ts {
		if t == "" {
			return nil, fmt.Errorf("%s: empty topic name", what)
		}
		if i > 0 && ts[i-1] == t {
			return nil, fmt.Errorf("%s: topic %q listed twice", what, t)
		}
	}
	return ts, nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
