// Package differential lets another implementation's tests call groupcheck's reference
// functions on their own data and compare: the cheapest of the oracle's three uses
// (docs/protocol.md §6.7). A client author converts what their callbacks, assignor and
// responses hold — partition maps as kgo and sarama give them (map[string][]int32), decoded
// subscriptions, JoinGroup / SyncGroup / ConsumerGroupHeartbeat responses — into the
// reference vocabulary (package impl), asks the reference what it would do, and diffs.
//
// # Usage
//
//	res, err := differential.Lead(differential.Round{
//		Assignor: "cooperative-sticky",
//		Cluster:  map[string]int32{"t": 3},
//		Members:  members, // each with its topics, owned partitions and generation
//	})
//	if d := differential.DiffAssignments(res.Assignments, mine); d != "" {
//		t.Errorf("cooperative-sticky differs from the reference (-reference +mine):\n%s", d)
//	}
//
//	next, err := differential.Reconcile(differential.ReconcileInput{...}) // docs/protocol.md §3.4
//
// Entry points: Lead (the classic leader as Apache Kafka ships it, with KIP-429
// plan beside it), PlanFor and ValidateCooperative (the KIP variant's plan and Kafka's cooperative
// check over the client's own assignor output), Reconcile (KIP-848's
// CurrentAssignmentBuilder), ServerAssign (the KIP-848 uniform and range server assignors).
// Conversions: ToSet / FromSet for partition maps, MemberAssignments /
// FromMemberAssignments for a leader's output, Member for subscriptions, JoinGroupResponse,
// SyncGroupResponse and HeartbeatResponse for responses, ParseError for error names.
// Comparisons: DiffParts, DiffAssignments, DiffReconcile return a go-cmp diff, "" when
// equal.
//
// # Implementation notes
//
// Client data is untrusted input: a negative or repeated partition, an empty or unknown
// topic, a member listed twice or a version that cannot carry a field is an error naming
// what is wrong, never a panic and never silently dropped. The reference functions panic on
// broken contracts (duplicate members, an invalid member state); every input is validated
// here first so that they never see one.
//
// Maps are the client's shape, sorted partition sets the reference's: FromSet always
// returns partitions in ascending order and a non-nil map, and the Diff functions compare
// normalized values (order, nil versus empty, members missing versus assigned nothing), so
// that only a difference of content is reported.
package differential
