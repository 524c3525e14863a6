package consumer

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// Effect is data the caller executes after a step, in the order given.
type Effect interface{ isEffect() }

// Send asks the caller to send a request to the coordinator.
type Send struct{ Request impl.Request }

// CallbackKind names a ConsumerRebalanceListener callback.
type CallbackKind int8

const (
	// Assigned is onPartitionsAssigned; invoked even with an empty set after every completed
	// round (docs/protocol.md §2.6 step 4).
	Assigned CallbackKind = iota
	// Revoked is onPartitionsRevoked; only with a non-empty set.
	Revoked
	// Lost is onPartitionsLost; only with a non-empty set.
	Lost
)

func (k CallbackKind) String() string {
	switch k {
	case Assigned:
		return "assigned"
	case Revoked:
		return "revoked"
	case Lost:
		return "lost"
	}
	return "invalid-callback"
}

// Callback asks the caller to invoke a rebalance listener callback. By the time the effect is
// returned the consumer's Owned() already reflects it.
type Callback struct {
	Kind       CallbackKind
	Partitions impl.PartitionSet
}

// RunAssignment asks the caller to run the leader's assignor (impl/leader) for this join
// round and feed back AssignmentComputed or AssignmentFailed. Cluster is the leader's
// metadata view. Reference: docs/protocol.md §2.4.
type RunAssignment struct {
	Generation   impl.Generation
	ProtocolName string
	Members      []impl.JoinGroupMember
	Cluster      impl.Cluster
}

// Fatal reports a fatal error: Java throws it from poll. It stops the consumer unless
// Config.OnFatal is FatalPollsAgain.
type Fatal struct{ Error impl.ErrorCode }

// CommitResult reports how a commit ended: Accepted by the coordinator, refused with Error,
// failed Locally without a request (generationIfStable was null), or TimedOut (the response
// was lost: the coordinator may or may not have stored it).
type CommitResult struct {
	Accepted   bool
	Local      bool
	TimedOut   bool
	Error      impl.ErrorCode
	Partitions impl.PartitionSet
	Generation impl.Generation
}

func (Send) isEffect()          {}
func (Callback) isEffect()      {}
func (RunAssignment) isEffect() {}
func (Fatal) isEffect()         {}
func (CommitResult) isEffect()  {}

func (e Send) String() string { return "send " + requestString(e.Request) }
func (e Callback) String() string {
	return "callback " + e.Kind.String() + " " + e.Partitions.String()
}
func (e RunAssignment) String() string {
	return fmt.Sprintf("run-assignment gen=%d protocol=%s members=%d", e.Generation, e.ProtocolName, len(e.Members))
}
func (e Fatal) String() string { return "fatal " + e.Error.String() }
func (e CommitResult) String() string {
	outcome := "accepted"
	switch {
	case e.Local:
		outcome = "local-failure"
	case e.TimedOut:
		outcome = "timed-out"
	case !e.Accepted:
		outcome = "refused"
	}
	return fmt.Sprintf("commit-result %s error=%s gen=%d %s", outcome, e.Error, e.Generation, e.Partitions)
}

func requestString(r impl.Request) string {
	switch r := r.(type) {
	case impl.JoinGroupRequest:
		s := fmt.Sprintf("JoinGroup v%d member=%q", r.Version, r.MemberID)
		if len(r.Protocols) > 0 {
			m := r.Protocols[0].Metadata
			s += fmt.Sprintf(" topics=%v owned=%s gen=%d", m.Topics, m.OwnedPartitions, m.Generation)
		}
		return s
	case impl.SyncGroupRequest:
		return fmt.Sprintf("SyncGroup member=%q gen=%d assignments=%d", r.MemberID, r.Generation, len(r.Assignments))
	case impl.HeartbeatRequest:
		return fmt.Sprintf("Heartbeat member=%q gen=%d", r.MemberID, r.Generation)
	case impl.OffsetCommitRequest:
		return fmt.Sprintf("OffsetCommit member=%q gen=%d %s", r.MemberID, r.Generation, r.Partitions)
	case impl.LeaveGroupRequest:
		return fmt.Sprintf("LeaveGroup members=%d", len(r.Members))
	}
	return fmt.Sprintf("%T", r)
}

// callback appends a Revoked or Lost callback for a non-empty set.
func callback(effs []Effect, k CallbackKind, ps impl.PartitionSet) []Effect {
	if ps.IsEmpty() && k != Assigned {
		return effs
	}
	return append(effs, Callback{Kind: k, Partitions: ps})
}
