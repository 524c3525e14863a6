// Package lin checks that the coordinator's operations in a history are linearizable against
// groupcheck's reference coordinator, with porcupine: some total order of the requests, each
// placed between its call (begin) and its return (end), in which every response is one the
// reference coordinator (impl/coordinator for the classic protocol, impl/kip848 for KIP-848)
// could have given. On failure Detail names the operations no order can place and why, and
// CheckAndVisualize writes porcupine's HTML visualization.
//
// # Usage
//
//	r, err := lin.Check(h, 10*time.Second) // h: a history.History with Request intervals
//	if !r.OK {
//		f, _ := os.Create(filepath.Join(t.TempDir(), "lin.html"))
//		lin.CheckAndVisualize(h, 10*time.Second, f)
//		t.Errorf("%s", r.Detail)
//	}
//
// # What is checked
//
// The model is not a replay of coordinator.Handle: the classic JoinGroup and SyncGroup block
// (a request is parked and answered when another request or a timer completes the phase),
// the history has no timer events, and it lacks what decides some transitions (subscriptions,
// join versions, the broker's assignor and metadata). Instead each response is checked, at
// its linearization point, against a knowledge state: a symbolic set of reference coordinator
// states that contains every state consistent with the responses placed before it and is
// closed under every transition the history cannot see. A response outside that set is
// impossible for the reference; the knowledge never excludes a reachable state, so there are
// no false positives for a coordinator that follows docs/protocol.md (measured on histories the
// reference itself produced, see gen_test.go).
//
// Classic protocol (docs/protocol.md §1.3–1.9; the rules of coordinator.JoinGroup, SyncGroup,
// Heartbeat, OffsetCommit and LeaveGroup):
//   - Generations only rise: no JoinGroup is answered with a generation below one already
//     answered, and no request for a generation that is over succeeds.
//   - A generation has one leader and one member list: every JoinGroup answer for it names
//     the same leader, the leader's answers list the same members, and every member answered
//     at it is in the list.
//   - A SyncGroup succeeds only once the leader's SyncGroup completed the round, and answers
//     each member exactly what the leader sent for it (nothing if the leader left it out);
//     two answers for one member and generation are equal.
//   - Group states follow CompletingRebalance → Stable → PreparingRebalance within a
//     generation: Heartbeat NONE and a JoinGroup answered at the current generation need
//     CompletingRebalance or Stable; REBALANCE_IN_PROGRESS on Heartbeat or SyncGroup needs
//     PreparingRebalance, on OffsetCommit CompletingRebalance; an accepted commit needs Stable
//     or PreparingRebalance. So once REBALANCE_IN_PROGRESS was answered at generation g,
//     nothing at g is answered NONE again, and a LeaveGroup of a member starts a rebalance.
//   - ILLEGAL_GENERATION for g means the coordinator is not at g: nothing at g succeeds after.
//   - A member id told UNKNOWN_MEMBER_ID after it had joined, or that left, never gets another
//     successful (or ILLEGAL_GENERATION / REBALANCE_IN_PROGRESS) answer: removed members do
//     not come back. Member ids handed out (MEMBER_ID_REQUIRED, or a join without id) are
//     fresh.
//
// KIP-848 (docs/protocol.md §3.1–3.6; kip848.Heartbeat and OffsetCommit):
//   - A heartbeat at epoch e > 0 is answered with an epoch ≥ e, and a member's epoch never
//     goes down, across rejoins too.
//   - No partition is in two members' assignments at once: when a response gives a member a
//     partition that another member's last answered assignment holds, the other member must
//     have been fenced (removed) in between — and a removed member (inferred so, told
//     UNKNOWN_MEMBER_ID, or that left with epoch -1) gets no successful heartbeat at an epoch
//     > 0 and no FENCED_MEMBER_EPOCH until it rejoins with epoch 0.
//   - FENCED_MEMBER_EPOCH is never the answer to a heartbeat at the member's current epoch.
//   - A commit is accepted only at an epoch no higher than the member's current one (its last
//     answered epoch; an older one since KIP-1251, apache/kafka#21692, when the partitions were
//     assigned at or before it, which the model does not track), and STALE_MEMBER_EPOCH is
//     never the answer at the current epoch.
//   - Member ids handed to joins without an id are fresh; an answer names the requester.
//
// # What is abstracted
//
//   - Timers. Session expiry, the join, sync, pending-member and rebalance timeouts are not in
//     a history, so their effects are always allowed: the generation may have moved on (a
//     join phase completed by its timer, perhaps with nobody left), a rebalance may have
//     started, a member may have been removed. Facts about a generation are kept only while
//     the coordinator may still be at it. What a timer cannot do is checked: it never makes
//     the classic group Stable, hands out an assignment, or lowers anything.
//   - Requests without an answer (no end, an end the Recorder closed as "unfinished", or an
//     Err that is not a group-protocol error name, such as a transport error or a client-side
//     timeout) may have taken effect or not. A client's requests to the coordinator take
//     effect in the order it sent them (Kafka serves a connection in order), so one without
//     an answer took effect, if at all, before its node's next answered request returned (or
//     at any time, if none did). Only those whose effect the model does not already allow
//     are checked: a classic SyncGroup (it may have been the leader's and completed the
//     round) and a KIP-848 heartbeat (the member's epoch and assignment become unknown, a
//     join may have re-created it). A node's consecutive unanswered retries of one request
//     are one operation, so that a member cut off from the coordinator does not make the
//     search exponential. Other errors constrain nothing unless listed above
//     (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, INCONSISTENT_GROUP_PROTOCOL,
//     GROUP_MAX_SIZE_REACHED, ... are always allowed).
//   - Static members (any event with an Instance): a restart renames a member and may keep
//     the generation, so the leader, member-list and per-member assignment checks of the
//     classic protocol are skipped where a rename could explain them, and a classic
//     UNKNOWN_MEMBER_ID for a request with an instance id does not mark the member id
//     removed (the instance, not the id, was judged).
//   - What the assignor computes, subscriptions, metadata and offsets are not checked (the
//     broker's assignor may differ from the reference's; that is for differential tests).
//     KIP-848 partitions pending revocation are not visible in responses: only the assigned
//     sets are checked for overlap.
//   - One group and one protocol per history; mixing classic requests and
//     ConsumerGroupHeartbeat is an error. The history is one partition for porcupine.
//
// # What the history must give
//
//   - Every coordinator request of every member, at least its begin (completeness): the
//     model takes "the leader's SyncGroup completed the round" from the history, so a
//     follower answered before any recorded leader SyncGroup is reported.
//   - Begin: Member, Gen (generation, or member epoch), Instance; a leader's SyncGroup
//     carries Assignments. End: Err; JoinGroup Member, Gen, Leader, Members (the leader's
//     answer); SyncGroup Parts (the assignment); ConsumerGroupHeartbeat Member, Gen (epoch)
//     and Parts when the response carried an assignment; LeaveGroup the member's own error.
//   - A KIP-848 response without Parts counts as "assignment unknown": JSON cannot tell an
//     omitted assignment from an empty one (Parts is omitempty), so the check is sound for
//     both and a member's assignment is known only from responses that carried a non-empty
//     one.
//
// # Implementation notes
//
// A knowledge is an immutable value with a canonical key; porcupine's state is the set of
// knowledges of the branches still alive (a power-set construction done here so that states
// hash). Branching is rare: only a SyncGroup that may have been the round's completion or
// may have come after it. Provenance (which operation taught each fact) is carried for the
// messages and is not part of the key. Operations are porcupine operations whose Input is the
// whole request and response, on one client per node.
//
// Porcupine's search keeps a bitset of the operations linearized so far for every state it
// caches, so its memory grows with the square of the operations: 2.6 GB for the 150,000 of a
// 50 MB history. Check therefore searches segment by segment, cutting where the history is
// quiescent (every operation before the cut returned before any after it was called, so every
// linearization orders the segments as the history does), each segment from the state
// porcupine's linearization of the one before ended in. Success is a linearization of the
// whole; a segment without one may only mean another order of an earlier segment was needed,
// so then the whole history is searched at once and its verdict and explanation are reported.
// CheckAndVisualize always searches the whole history (the visualization draws it).
package lin
