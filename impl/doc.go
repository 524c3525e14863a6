// Package impl is the vocabulary of groupcheck's reference implementation of Kafka's
// consumer-group rebalance protocols: topic-partitions and sorted partition sets, member and
// instance identities, generations, error codes, the KIP-423 JoinReason, and the requests and
// responses of the classic group protocol (JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
// OffsetCommit) with the consumer's embedded subscription and assignment.
//
// The roles live in subpackages, each a pure value with a step function:
//
//   - impl/coordinator: the classic group coordinator (docs/protocol.md §1.2–1.10);
//   - impl/consumer: the eager and cooperative consumer (docs/protocol.md §7.1, §7.3; docs/protocol.md §1.11, §2);
//   - impl/leader: the assignors and the leader's cooperative plan (docs/protocol.md §7.2; docs/protocol.md §2.4–2.5).
//
// Everything here is values in, values out: no I/O, no goroutines, no clocks, no randomness.
// Sets are sorted slices, never maps, so that a value has exactly one representation and two
// equal values encode to the same bytes.
//
// # Usage
//
//	owned := impl.NewPartitionSet(impl.TP("t", 0), impl.TP("t", 1))
//	assigned := impl.NewPartitionSet(impl.TP("t", 1), impl.TP("t", 2))
//	revoked := owned.Minus(assigned) // t-0
//	added := assigned.Minus(owned)   // t-2
//
// # Implementation notes
//
// Partition sets are immutable: every operation returns a fresh slice and never aliases its
// inputs' backing arrays, so a state can share its sets with its successors without copying.
// Generations, error codes and join reasons carry Kafka's numeric values where Kafka has one;
// KIP-429's NEEDS_REJOIN never shipped and gets a value outside Kafka's range.
package impl
