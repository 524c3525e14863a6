package impl

import (
	"slices"
	"strings"
)

// TopicMetadata is one topic of the cluster and its partition count.
type TopicMetadata struct {
	Name       string
	Partitions int32
}

// Cluster is the topic metadata a leader assigns from: topics sorted by name.
type Cluster struct {
	Topics []TopicMetadata
}

// NewCluster builds cluster metadata from topics in any order.
func NewCluster(topics ...TopicMetadata) Cluster {
	t := slices.Clone(topics)
	slices.SortFunc(t, func(a, b TopicMetadata) int { return strings.Compare(a.Name, b.Name) })
	return Cluster{Topics: t}
}

// PartitionCount is the number of partitions of topic, 0 if the topic does not exist.
func (c Cluster) PartitionCount(topic string) int32 {
	i, ok := slices.BinarySearchFunc(c.Topics, topic, func(t TopicMetadata, name string) int {
		return strings.Compare(t.Name, name)
	})
	if !ok {
		return 0
	}
	return c.Topics[i].Partitions
}

// PartitionsOf is every partition of the listed topics that exists in the cluster.
func (c Cluster) PartitionsOf(topics []string) PartitionSet {
	var tps []TopicPartition
	for _, t := range topics {
		for p := int32(0); p < c.PartitionCount(t); p++ {
			tps = append(tps, TP(t, p))
		}
	}
	return NewPartitionSet(tps...)
}

// Exists reports whether the partition exists in the cluster.
func (c Cluster) Exists(tp TopicPartition) bool {
	return tp.Partition >= 0 && tp.Partition < c.PartitionCount(tp.Topic)
}

// Equal compares two cluster snapshots.
func (c Cluster) Equal(o Cluster) bool { return slices.Equal(c.Topics, o.Topics) }
