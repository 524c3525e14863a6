package oracle

// Entry is one property of Check as the catalogue lists it (`groupcheck properties`,
// docs/properties.md): its name, whether it is a promise Kafka makes its users or what a
// named implementation does, a one-sentence statement and where it comes from. The doc
// comments of the constants above say how each is judged.
type Entry struct {
	Name, Origin, Statement, Source string
}

// Catalogue lists the properties Check judges, in the report's order.
// TestCatalogueCoversChecks keeps it equal to Plain, the bounded RebalanceCompletes and the
// two search checks.
var Catalogue = []Entry{
	{ExclusiveOwnership, "promise",
		"no two members the coordinator still considers current own one partition at the same time, by their callbacks; an overlap whose earlier owner was cut off or fenced and not yet told is a zombie, not a violation",
		"docs/protocol.md §1.12, §3.9; docs/clients.md §6.4"},
	{RevokeBeforeAssign, "promise",
		"a new owner's onPartitionsAssigned begins only after the previous owner's onPartitionsRevoked or onPartitionsLost for that partition returned",
		"KIP-429 (docs/protocol.md §7); docs/protocol.md §2.6, §3.4"},
	{LostOnlyAfterMembershipLost, "conformance: the Java consumer",
		"onPartitionsLost names partitions only after some sign that the member lost its membership, or once it has begun to close or has left (ConsumerCoordinator.onLeavePrepare)",
		"docs/protocol.md §2.1, §3.7; docs/clients.md §2"},
	{CommitFromOwner, "promise",
		"an accepted offset commit comes from a member that owned every committed partition when the commit began and had not been fenced or left before it",
		"docs/protocol.md §1.8, §3.1, §3.9; docs/clients.md §6.4"},
	{GenerationMonotonic, "promise",
		"within one member id a node's generation or epoch never goes down, except to the values a client resets to (0, -1, -2 in the consumer protocol; -1 in the classic one)",
		"docs/protocol.md §2.2, §3.1, §3.9"},
	{ClaimsTruthful, "promise",
		"a classic JoinGroup's owned list is what its member owns by its callbacks when it sends it: the leader decides by these claims and cannot check them",
		"KIP-429 §2; docs/protocol.md §2.2; docs/bugs.md B23"},
	{CallbacksConsistent, "conformance: the Java consumer",
		"a member's callbacks agree with each other: assigned names only partitions it does not hold, revoked and lost only partitions it holds (ConsumerRebalanceListener)",
		"docs/protocol.md §2.6, §3.7"},
	{OneLeaderPerGeneration, "conformance: the Apache Kafka broker's group coordinator",
		"every accepted classic JoinGroup answer at one generation names the same leader (not judged once a static member appears)",
		"docs/protocol.md §1.4, §1.10"},
	{MemberIDUnique, "conformance: the Apache Kafka broker's group coordinator",
		"a member id the coordinator hands out is handed to one node only",
		"docs/protocol.md §1.4, §3.3"},
	{CoordinatorGenerationRises, "promise",
		"the coordinator never answers with a generation or epoch below one it answered with before the request began",
		"docs/protocol.md §1.3, §3.1, §3.9"},
	{RemovedStaysRemoved, "conformance: the Apache Kafka broker's group coordinator",
		"the coordinator accepts no request from a member id that left or that it removed, begun after that, until it rejoins",
		"docs/protocol.md §1.6, §1.7, §3.3, §3.6"},
	{RebalanceCompletes, "promise",
		"with a bound given (check-history --settle D), the group never sits unchanged for longer than it while a subscribed partition has no live owner or a live member does not hold the assignment the coordinator last computed for it, nor keeps changing for longer than it, undisturbed, without settling",
		"docs/protocol.md §1.9, §1.12, §3.5, §3.9"},
	{Linearizability, "conformance: the reference coordinator",
		"the coordinator's answers are those of the reference coordinator over some order of the concurrent requests, porcupine finding the order and the reference search's step judging it (check-history --linearizability)",
		"docs/oracle.md"},
	{ReferenceSearch, "conformance: the reference coordinator",
		"some behaviour of the reference coordinator (impl/coordinator or impl/kip848: every order of the open requests, every timer, the choices Kafka leaves open) gives every recorded answer (check-history, unless --reference=false)",
		"docs/oracle.md; Cirstea, Kuppe, Loillier, Merz, \"Validating Traces of Distributed Programs Against TLA+ Specifications\" (2024)"},
}
