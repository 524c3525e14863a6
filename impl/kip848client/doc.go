// Package kip848client is the client side of KIP-848's consumer group protocol: the
// membership manager and heartbeat request manager of Java's AsyncKafkaConsumer, as a pure
// value Member with step functions (docs/protocol.md §3.7).
//
// A member subscribes, joins with epoch 0 and every heartbeat field, adopts the member id and
// epoch the coordinator returns, and reconciles each assignment it receives — one at a time:
// auto-commit of the partitions to revoke, onPartitionsRevoked(owned − target),
// onPartitionsAssigned(target − owned, even if empty), then ACKNOWLEDGING, whose heartbeat
// (carrying the new owned partitions) goes out at once. Fenced (FENCED_MEMBER_EPOCH,
// UNKNOWN_MEMBER_ID), it loses everything and rejoins with epoch 0 and the same member id.
// It leaves with epoch -1, or -2 when static. The client state table (CanTransition) is
// enforced on every transition: an illegal one panics naming it.
//
// # Usage
//
//	m := kip848client.New(kip848client.Config{Conn: 1})
//	m, effs := m.Subscribe([]string{"t"})       // JOINING: sends the epoch-0 heartbeat
//	m, effs = m.OnHeartbeatResponse(resp)       // RECONCILING → callbacks → ACKNOWLEDGING → ack sent
//	m, effs = m.HeartbeatTick()                 // regular heartbeat, if none in flight
//	m, effs = m.Unsubscribe()                   // revoked callback, leave heartbeat (epoch -1)
//
// The caller executes the effects in order: Send (an impl.ConsumerGroupHeartbeatRequest or
// impl.OffsetCommitRequest), Callback, CommitResult, FatalError. Step routes the Input values
// to the same methods.
//
// # Implementation notes
//
// Callbacks are effects that complete within the step, so FENCED and PREPARE_LEAVING last
// only inside one step; every pass through them is still checked against the table. The
// auto-commit before a revocation is a real request: the callbacks wait for its response,
// and the reconciliation is aborted if the member leaves RECONCILING meanwhile (KAFKA-16375).
// Simplifications, each documented where it applies: the commit is issued only when
// something is revoked; a STALE_MEMBER_EPOCH revocation commit is retried only when the
// member has learnt a newer epoch since sending it (otherwise, like every other failure, the
// revocation goes on); a poll-timeout leave waits for the heartbeat in flight like any leave;
// a member without an id has nothing to leave and sends nothing. The sent-fields cache
// compares partition sets instead of Java's local assignment epoch counter, so that states
// stay finite; it is reset after every failed heartbeat (error response or lost response)
// and on every rejoin, so the next heartbeat is full (KAFKA-16190).
//
// There is one heartbeat and one commit in flight at most. JOINING, ACKNOWLEDGING and
// LEAVING send at once whenever no heartbeat is in flight (Java shouldHeartbeatNow); the
// other states wait for HeartbeatTick. The fault impl.FaultInFlightStuckOnError (docs/bugs.md B21) keeps the
// in-flight marker after an error response, so no heartbeat is ever sent again.
//
// Variants: the client is shared. The KIP-848 draft (docs/protocol.md §8) describes the coordinator's reconciliation only
// (revoke, acknowledge, then assign); the assignment a response carries is the set the member
// may own now under both variants, so Config.Variant changes nothing here.
package kip848client
