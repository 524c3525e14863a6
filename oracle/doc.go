// Package oracle checks what another implementation's consumer group did, recorded as a
// history (package oracle/history), against the promises of Kafka's rebalance protocols.
//
// # Usage
//
// Record every member's callbacks, commits and coordinator requests into one
// history.Recorder (or write JSON lines), then:
//
//	rep := oracle.Check(rec.History(), oracle.Options{})
//	if !rep.OK() {
//		t.Fatalf("%s", rep)
//	}
//
// or, from a file, oracle.CheckReader(f, oracle.Options{}), or `groupcheck check-history FILE`.
// A Report lists Violations (failures) and Zombies: overlaps explained by a member cut off
// from the coordinator that had not yet learned it was fenced, which Kafka allows (docs/clients.md
// §6.4) and which are classified rather than silently allowed; Report.Checked lists the
// properties judged. A history with coordinator requests is also judged by the reference
// search (package oracle/search): a behaviour of the reference coordinator must produce every
// recorded answer, so every member's requests must be recorded from the group's start;
// Options.NoReference turns it off. Options.Linearizability plugs in the same judgement as
// porcupine sees it (oracle.Linearizable, search.Linearize): porcupine orders the requests and
// the reference coordinator's step judges each order, so a failure comes with porcupine's
// visualization; for CheckReader, Options.LinearizabilityStream (oracle.LinearizableStream)
// does it without holding the history. CheckReader refuses an empty history (ErrNothingToCheck) and any impossible line.
//
// # Properties
//
// ExclusiveOwnership, RevokeBeforeAssign, LostOnlyAfterMembershipLost, CommitFromOwner,
// GenerationMonotonic, ClaimsTruthful and CallbacksConsistent; each constant's comment gives
// the rule and its source. RebalanceCompletes, progress within a bound, is judged only when
// Options.Settle gives the bound: a group that stops changing while a partition has no live
// owner or a member lacks its assignment is otherwise seen only as a test's timeout.
//
// # Implementation notes
//
// Ownership comes from the callbacks only: a node owns a partition from the begin of an
// assign that names it until the end of a revoke or lost that names it, its crash, its
// restart (Start) or the end of its close. Callbacks are deltas applied in the order they were
// called (an eager revoke simply names everything), so a revoke or lost gives up only the
// partitions that no assign named since it began. A crashed node's later events are ignored,
// as history.Recorder drops them.
//
// Callback bookkeeping is per member and by call order: what a member's callbacks hold grows
// at an assign's begin and shrinks at a revoke's or lost's begin (the client has decided to
// give the partitions up, so an assign called while the revoke still runs may name them
// again). An assign that names a held partition, or a revoke or lost that names one not held,
// is a callback contradicting the member's own earlier ones.
//
// Commits are the client's (Kind Commit) or, when only the wire was tapped, OffsetCommit
// requests: ownership of wire-tapped commits is judged like a client commit's, except a
// request made while one of the node's client commits is under way (it is that commit) and a
// request without a member ID (a commit from outside the group).
//
// Membership comes from what the coordinator showed. A node is current until one of: a cut
// (Cut), a Fenced event about its present member ID and epoch, a fencing answer to a
// membership request (UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, FENCED_MEMBER_EPOCH,
// STALE_MEMBER_EPOCH, FENCED_INSTANCE_ID; REBALANCE_IN_PROGRESS does not fence), a commit
// refused with one of those other than STALE_MEMBER_EPOCH, an accepted leave, or the end of
// its close. It is current again when the coordinator admits it: an accepted JoinGroup,
// SyncGroup, Heartbeat or ConsumerGroupHeartbeat begun after that, or a new generation
// observed (never while it is still cut off). While not current, a node is
//
//   - doubtful until it has learned (a fencing answer, or its onPartitionsLost began) and for
//     its reaction after that: until every revoke or lost it has running has returned, or it
//     begins an assign, or a membership request while no revoke or lost runs, whichever is
//     first (a client's other threads may go on while the application releases). An overlap in which the earlier owner is
//     doubtful is a zombie. The reaction is part of it because a client cannot release before it is told, and the
//     lost callback is how it releases (kgo's KIP-848 zombie, docs/clients.md §2);
//   - stale after that reaction: it knew and went on still owning. An overlap with a stale
//     node is a violation, which is how a client that skips onPartitionsLost is caught.
//
// A fencing answer also makes the node doubtful back to its last proof of membership (an
// accepted membership request or commit, a new generation, its start): the coordinator
// fenced it at a moment the history does not show, so an overlap there is a zombie too.
// An end that history.Recorder made up for an interval that never ended (Note Unfinished)
// is no answer.
//
// Of two owners, the earlier one is the one that should have released. Their overlap is a
// zombie where the earlier owner was doubtful, and a violation at any point where it was
// current or either of them was stale: the later owner being fenced after it was assigned
// excuses nothing. Exclusive-ownership needs an overlap of positive time (two intervals
// that only touch on the clock are fine); revoke-before-assign judges the callback
// edges in Seq order, so an assign that began one event before the previous owner's revoke
// returned is caught even at equal times.
//
// Lost-only-after-membership-lost accepts as a sign of lost membership a cut, a Fenced event
// about the node, or any failed request or commit (an error code or a transport error) except
// REBALANCE_IN_PROGRESS and MEMBER_ID_REQUIRED, which only steer a rebalance. Retriable
// errors count because a client that runs out of retries gives its session up: kgo calls
// onPartitionsLost on every failed manage-loop iteration. The sign must come after the
// member's last successful generation (a new generation observed, an accepted JoinGroup or
// ConsumerGroupHeartbeat with a new generation, or its start) and before the lost callback
// returns. The allowed close path: lost is allowed once the member has begun to close (until
// it restarts) or has left (an accepted leave, until a new generation), whatever else the
// history shows, since a closing client may report its partitions lost before its LeaveGroup
// (Java's onLeavePrepare during a rebalance). A harness that records no requests and no cuts
// will see false reports here.
//
// The coordinator's promises that need no search are judged in the same pass, each at one
// answer against facts kept from earlier ones: one leader per classic generation (skipped once
// a static member appears, whose rejoin renames it), a handed-out member ID given to one node
// only, generations that only rise (a JoinGroup answer against the answers that returned
// before it began, so concurrent joins may return in any order; a KIP-848 heartbeat against
// its own epoch), and no request accepted from a member ID after an accepted leave or a
// Fenced event, begun after it, until the member rejoins. A fencing answer alone removes no
// one: a harness may inject it. What needs a search over the orders of concurrent requests
// (group states, SyncGroup assignments, member lists, KIP-848 assignment overlaps) is the
// reference search's (Options.Reference) and, as porcupine orders it, Options.Linearizability's;
// Report.Checked says which ran.
//
// The check streams, in two passes. The first keeps only what the second must know ahead
// of time: partitions noted on an interval's end, and for each fencing answer the stretch of
// its node's events it puts in doubt. The second follows the nodes and keeps live state only:
// open intervals and ownerships, the overlapping ownerships under way (judged when one of
// them ends, since their class depends on the statuses over the overlap), and each node's
// status history back to the oldest such overlap. CheckReader reads a file twice (any other
// reader through a temporary file) and never holds the history; memory follows the members,
// partitions and open intervals, not the length of the file.
//
// Check runs in O(n log n) for n events plus the overlaps it reports, and is deterministic:
// findings are ordered by the seq where they became evident, then property and message.
package oracle
