// Package coordinator is the classic group coordinator for one consumer group (protocol type
// "consumer"), as a pure value: Group. Every handler takes the group and an input (a request
// or a timer firing) and returns the successor group and the replies to send, each addressed
// to the connection of the request it answers. Nothing here performs I/O, reads a clock or
// draws random numbers. It implements docs/protocol.md §1.2–1.10 (JoinGroup, SyncGroup, Heartbeat,
// LeaveGroup, OffsetCommit, the session, pending-member, join and sync timers, static
// membership) and, as variant KIP, KIP-423's JoinReason semantics (docs/protocol.md §4).
//
// # Usage
//
//	g := coordinator.New(coordinator.Config{Variant: impl.Kafka})
//	g, out := g.JoinGroup(impl.JoinGroupRequest{Conn: 1, Version: 9, Protocols: ps}, "m1")
//	// out[0]: MEMBER_ID_REQUIRED with member id m1 (KIP-394); re-send with MemberID "m1".
//	g, out = g.JoinGroup(impl.JoinGroupRequest{Conn: 1, Version: 9, MemberID: "m1", Protocols: ps}, "")
//	if g.EnabledJoinPhaseTimeout() { // the initial delay: time is an input
//		g, out = g.JoinPhaseTimeout() // out: m1's JoinGroup answer, generation 1, leader m1
//	}
//
// A model checker offers each timer input only when its Enabled… predicate holds
// (EnabledJoinPhaseTimeout, EnabledSyncPhaseTimeout, CanSessionExpire,
// EnabledPendingMemberExpiry); calling a disabled one is a no-op. Handle routes any request.
// Fresh member ids come from the caller (JoinGroup's fresh argument) and must never have been
// used in the group before.
//
// # Implementation notes
//
// State transitions are checked against the allowed-predecessor table (CanTransition); an
// illegal one panics naming it, as does any other broken internal contract. Protocol
// refusals are error codes in replies.
//
// A Group holds only sorted slices: members by id, pending ids sorted. Handlers copy the
// slices before writing (copy on write), so a value can be kept and stepped again; member
// protocol lists and partition sets are immutable and shared. AppendEncoding is canonical.
//
// Deterministic choices where Kafka is arbitrary: a removed leader is replaced by the first
// remaining member in id order; at join completion a leader that did not rejoin is replaced by
// the first rejoined member in id order; a protocol vote tie goes to the smallest name;
// replies go out in member-id order.
//
// Not modelled: group-level status errors (NOT_COORDINATOR, loading), session and rebalance
// timeout values, persistence failures (every write succeeds), offsets themselves, group
// deletion and offset expiry (Unload is the only way to Dead). A JoinGroup or SyncGroup
// re-sent while one is parked replaces it unanswered, as Kafka overwrites the callback.
//
// Timers are inputs. The join timer started from Empty is InitialDelayedJoin: that join phase
// completes only by JoinPhaseTimeout, never early (group.initial.rebalance.delay.ms). The sync
// timer runs while some member of the generation has not sent SyncGroup.
//
// Faults: FaultJoinTimerZero (B1, KAFKA-8653) makes every DelayedJoin fire as soon as a step
// leaves the group in PreparingRebalance: the join phase completes with only the members
// whose JoinGroup is already parked (usually just the one that triggered the rebalance), so
// every other dynamic member is evicted while alive. FaultNoSyncTimer (B3, KAFKA-12890) removes
// the sync timer: SyncPhaseTimeout is never enabled and a member that never syncs keeps the
// group in CompletingRebalance. FaultJoinWaitsForTimer drops the early completion: every join
// phase waits for JoinPhaseTimeout, as InitialDelayedJoin does.
package coordinator
