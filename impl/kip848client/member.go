package kip848client

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// Member is the client side of the KIP-848 consumer protocol: the membership manager and
// heartbeat request manager of Java's AsyncKafkaConsumer. It is a pure value: every
// transition returns a new Member and the effects the caller must execute. Fields are
// exported so that a model can encode and compare states; slices in a state are never
// mutated after being stored. Reference: docs/protocol.md §3.7.
type Member struct {
	Config Config

	// Status is the client state.
	Status State
	// ID is the coordinator-assigned member id, kept across fences and leaves (docs/protocol.md
	// §3.1: in this snapshot the coordinator generates it; the client rejoins with it).
	ID impl.MemberID
	// MemberEpoch is the last epoch the coordinator gave, 0 while joining, -1/-2 once left.
	MemberEpoch impl.Epoch
	// Topics is the subscription (sorted, distinct); nil when unsubscribed.
	Topics []string
	// OwnedPartitions is what the application believes it owns: the last reconciled
	// assignment minus what was revoked or lost since.
	OwnedPartitions impl.PartitionSet
	// Target is the last assignment received, which the member reconciles towards.
	Target impl.PartitionSet
	// Rec is the reconciliation in progress, if any (only while Reconciling).
	Rec Reconciliation
	// Sent is what the heartbeats carried so far, so the next carries only changes.
	Sent SentFields
	// Heartbeat is the in-flight heartbeat marker.
	Heartbeat PendingHeartbeat
	// Commit is the in-flight OffsetCommit marker.
	Commit PendingCommit
	// PollExpired: the member is leaving because max.poll.interval.ms expired; it goes STALE
	// rather than UNSUBSCRIBED once the leave heartbeat is sent.
	PollExpired bool
	// Closed: Close was processed; the incarnation never rejoins.
	Closed bool
	// FatalError is the error that stopped the member, None if none.
	FatalError impl.ErrorCode
}

// Reconciliation is one reconciliation in progress towards Target. AwaitCommit: the
// revocation commit waits for an earlier commit's response before it can be sent.
type Reconciliation struct {
	Active      bool
	AwaitCommit bool
	Target      impl.PartitionSet
}

// SentFields is the "sent fields" cache of the heartbeat state (Java HeartbeatState.SentFields):
// !Valid makes the next heartbeat full. Reference: docs/protocol.md §3.7, KAFKA-16190.
type SentFields struct {
	Valid  bool
	Topics []string
	Owned  impl.PartitionSet
}

// PendingHeartbeat marks a heartbeat awaiting its response and the epoch it carried (a
// negative epoch marks the leave heartbeat, whose response is ignored).
type PendingHeartbeat struct {
	Active bool
	Epoch  impl.Epoch
}

// PendingCommit marks an OffsetCommit awaiting its response: the epoch and partitions it
// carried and whether it is the auto-commit before a revocation.
type PendingCommit struct {
	Active     bool
	Revocation bool
	Epoch      impl.Epoch
	Partitions impl.PartitionSet
}

// New is a fresh, unsubscribed member, without id unless it generated one (KIP-1082).
func New(cfg Config) Member { return Member{Config: cfg, ID: cfg.MemberID} }

// State is the client state.
func (m Member) State() State { return m.Status }

// MemberID is the member id ("" before the first response, unless the client generated it:
// Config.MemberID).
func (m Member) MemberID() impl.MemberID { return m.ID }

// Epoch is the member epoch.
func (m Member) Epoch() impl.Epoch { return m.MemberEpoch }

// Owned is the set of partitions the application believes it owns.
func (m Member) Owned() impl.PartitionSet { return m.OwnedPartitions }

// InFlight reports whether a heartbeat awaits its response (or, under
// impl.FaultInFlightStuckOnError, is believed to).
func (m Member) InFlight() bool { return m.Heartbeat.Active }

// CommitInFlight reports whether an OffsetCommit awaits its response.
func (m Member) CommitInFlight() bool { return m.Commit.Active }

// WantsHeartbeat reports whether the next HeartbeatTick sends a heartbeat: the member is in
// the group and no heartbeat is in flight. Reference: docs/protocol.md §3.7; docs/bugs.md B21.
func (m Member) WantsHeartbeat() bool { return m.Status.inGroup() && !m.Heartbeat.Active }

// Fatal is the error that stopped the member, None if none.
func (m Member) Fatal() impl.ErrorCode { return m.FatalError }

// stepper accumulates one step: the successor state and its effects.
type stepper struct {
	m    Member
	effs []Effect
}

func (s *stepper) emit(e Effect) { s.effs = append(s.effs, e) }

// to moves to state next, panicking on a transition docs/protocol.md §3.7's table forbids. Leaving
// RECONCILING aborts the reconciliation in progress (KAFKA-16375).
func (s *stepper) to(next State) {
	if !CanTransition(s.m.Status, next) {
		panic("kip848client: illegal transition " + s.m.Status.String() + " -> " + next.String())
	}
	s.m.Status = next
	if next != Reconciling {
		s.m.Rec = Reconciliation{}
	}
}

// callback emits a listener callback; Revoked and Lost only for a non-empty set.
func (s *stepper) callback(k CallbackKind, ps impl.PartitionSet) {
	if ps.IsEmpty() && k != Assigned {
		return
	}
	s.emit(Callback{Kind: k, Partitions: ps})
}

// lose drops every owned partition with onPartitionsLost and forgets the target.
func (s *stepper) lose() {
	s.callback(Lost, s.m.OwnedPartitions)
	s.m.OwnedPartitions = impl.PartitionSet{}
	s.m.Target = impl.PartitionSet{}
}

// done checks the state's internal contracts and returns the step's result.
func (s *stepper) done(transition string) (Member, []Effect) {
	m := s.m
	switch {
	case (m.Status == Reconciling) != m.Rec.Active:
		panic("kip848client." + transition + ": RECONCILING without a reconciliation in progress, or vice versa")
	case m.Rec.AwaitCommit && !m.Commit.Active:
		panic("kip848client." + transition + ": reconciliation awaits a commit that is not in flight")
	case m.Status == Joining && !m.OwnedPartitions.IsEmpty():
		panic("kip848client." + transition + ": JOINING while owning partitions")
	}
	return m, s.effs
}

// sortedTopics returns a fresh sorted, duplicate-free copy of topics (nil when empty).
func sortedTopics(topics []string) []string {
	if len(topics) == 0 {
		return nil
	}
	t := slices.Clone(topics)
	slices.Sort(t)
	return slices.Compact(t)
}
