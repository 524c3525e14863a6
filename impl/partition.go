package impl

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// TopicPartition names one partition of one topic.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// TP is shorthand for a TopicPartition literal.
func TP(topic string, partition int32) TopicPartition {
	return TopicPartition{Topic: topic, Partition: partition}
}

// String spells the partition as Kafka tools do: topic-N.
func (tp TopicPartition) String() string {
	return tp.Topic + "-" + strconv.Itoa(int(tp.Partition))
}

// Compare orders partitions by topic, then by partition number.
func (tp TopicPartition) Compare(o TopicPartition) int {
	if c := strings.Compare(tp.Topic, o.Topic); c != 0 {
		return c
	}
	return cmp.Compare(tp.Partition, o.Partition)
}

// PartitionSet is an immutable, sorted, duplicate-free set of partitions. The zero value is
// the empty set. Operations never modify their receiver or arguments.
type PartitionSet struct {
	tps []TopicPartition
}

// NewPartitionSet builds a set from partitions in any order, dropping duplicates.
func NewPartitionSet(tps ...TopicPartition) PartitionSet {
	if len(tps) == 0 {
		return PartitionSet{}
	}
	s := slices.Clone(tps)
	slices.SortFunc(s, TopicPartition.Compare)
	return PartitionSet{tps: slices.CompactFunc(s, func(a, b TopicPartition) bool { return a == b })}
}

// Slice returns the partitions in order. The caller must not modify it.
func (s PartitionSet) Slice() []TopicPartition { return s.tps }

// Len is the number of partitions in the set.
func (s PartitionSet) Len() int { return len(s.tps) }

// IsEmpty reports whether the set has no partitions.
func (s PartitionSet) IsEmpty() bool { return len(s.tps) == 0 }

// Contains reports whether tp is in the set.
func (s PartitionSet) Contains(tp TopicPartition) bool {
	_, ok := slices.BinarySearchFunc(s.tps, tp, TopicPartition.Compare)
	return ok
}

// Equal reports whether both sets hold the same partitions.
func (s PartitionSet) Equal(o PartitionSet) bool { return slices.Equal(s.tps, o.tps) }

// Union is s ∪ o.
func (s PartitionSet) Union(o PartitionSet) PartitionSet {
	return merge(s, o, true, true, true)
}

// Intersect is s ∩ o.
func (s PartitionSet) Intersect(o PartitionSet) PartitionSet {
	return merge(s, o, false, true, false)
}

// Minus is s − o.
func (s PartitionSet) Minus(o PartitionSet) PartitionSet {
	return merge(s, o, true, false, false)
}

// Intersects reports whether s ∩ o is non-empty.
func (s PartitionSet) Intersects(o PartitionSet) bool {
	i, j := 0, 0
	for i < len(s.tps) && j < len(o.tps) {
		switch c := s.tps[i].Compare(o.tps[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			return true
		}
	}
	return false
}

// SubsetOf reports whether every partition of s is in o.
func (s PartitionSet) SubsetOf(o PartitionSet) bool { return s.Minus(o).IsEmpty() }

// Add returns s ∪ {tp}.
func (s PartitionSet) Add(tp TopicPartition) PartitionSet { return s.Union(NewPartitionSet(tp)) }

// Remove returns s − {tp}.
func (s PartitionSet) Remove(tp TopicPartition) PartitionSet { return s.Minus(NewPartitionSet(tp)) }

// Filter returns the partitions of s for which keep is true.
func (s PartitionSet) Filter(keep func(TopicPartition) bool) PartitionSet {
	var out []TopicPartition
	for _, tp := range s.tps {
		if keep(tp) {
			out = append(out, tp)
		}
	}
	return PartitionSet{tps: out}
}

// OfTopics returns the partitions of s whose topic is in topics (a sorted or unsorted list).
func (s PartitionSet) OfTopics(topics []string) PartitionSet {
	return s.Filter(func(tp TopicPartition) bool { return slices.Contains(topics, tp.Topic) })
}

// Topics returns the sorted distinct topics of s.
func (s PartitionSet) Topics() []string {
	var out []string
	for _, tp := range s.tps {
		if len(out) == 0 || out[len(out)-1] != tp.Topic {
			out = append(out, tp.Topic)
		}
	}
	return out
}

// String renders the set as (t-0 t-1), or () when empty.
func (s PartitionSet) String() string {
	var b strings.Builder
	b.WriteByte('(')
	for i, tp := range s.tps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(tp.String())
	}
	b.WriteByte(')')
	return b.String()
}

// merge walks both sorted slices once, keeping elements only in s (onlyS), in both (both) or
// only in o (onlyO). It always allocates a fresh slice, so results never alias inputs.
func merge(s, o PartitionSet, onlyS, both, onlyO bool) PartitionSet {
	a, b := s.tps, o.tps
	var out []TopicPartition
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := a[i].Compare(b[j]); {
		case c < 0:
			if onlyS {
				out = append(out, a[i])
			}
			i++
		case c > 0:
			if onlyO {
				out = append(out, b[j])
			}
			j++
		default:
			if both {
				out = append(out, a[i])
			}
			i++
			j++
		}
	}
	if onlyS {
		out = append(out, a[i:]...)
	}
	if onlyO {
		out = append(out, b[j:]...)
	}
	return PartitionSet{tps: out}
}
