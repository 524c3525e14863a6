package kip848client

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// Effect is data the caller executes after a step, in the order given.
type Effect interface{ isEffect() }

// Send asks the caller to send a request to the coordinator: an
// impl.ConsumerGroupHeartbeatRequest or an impl.OffsetCommitRequest.
type Send struct{ Request impl.Request }

// CallbackKind names a ConsumerRebalanceListener callback.
type CallbackKind int8

const (
	// Assigned is onPartitionsAssigned; invoked after every reconciliation, even with an
	// empty set (docs/protocol.md §3.7).
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

// Callback asks the caller to invoke a rebalance listener callback. By the time the effect
// is returned, Owned() already reflects it.
type Callback struct {
	Kind       CallbackKind
	Partitions impl.PartitionSet
}

// FatalError reports the error that stopped the member (the application's poll throws it).
type FatalError struct{ Error impl.ErrorCode }

// CommitResult reports how an OffsetCommit ended: Accepted, refused with Error, or TimedOut
// (the response was lost; the coordinator may or may not have stored it). Revocation marks
// the auto-commit issued before a revocation; Retried says it was re-sent with a newer epoch.
type CommitResult struct {
	Accepted   bool
	TimedOut   bool
	Retried    bool
	Revocation bool
	Error      impl.ErrorCode
	Epoch      impl.Epoch
	Partitions impl.PartitionSet
}

func (Send) isEffect()         {}
func (Callback) isEffect()     {}
func (FatalError) isEffect()   {}
func (CommitResult) isEffect() {}

func (e Send) String() string { return "send " + requestString(e.Request) }
func (e Callback) String() string {
	return "callback " + e.Kind.String() + " " + e.Partitions.String()
}
func (e FatalError) String() string { return "fatal " + e.Error.String() }
func (e CommitResult) String() string {
	outcome := "accepted"
	switch {
	case e.TimedOut:
		outcome = "timed-out"
	case e.Retried:
		outcome = "retried"
	case !e.Accepted:
		outcome = "refused"
	}
	kind := ""
	if e.Revocation {
		kind = " revocation"
	}
	return fmt.Sprintf("commit-result %s%s error=%s epoch=%d %s", outcome, kind, e.Error, e.Epoch, e.Partitions)
}

func requestString(r impl.Request) string {
	switch r := r.(type) {
	case impl.ConsumerGroupHeartbeatRequest:
		s := fmt.Sprintf("ConsumerGroupHeartbeat member=%q epoch=%d", r.MemberID, r.MemberEpoch)
		if r.InstanceID != "" {
			s += fmt.Sprintf(" instance=%q", r.InstanceID)
		}
		if r.SubscribedTopicNames != nil {
			s += fmt.Sprintf(" topics=%v", r.SubscribedTopicNames)
		}
		if r.OwnedPartitions != nil {
			s += " owned=" + r.OwnedPartitions.String()
		}
		return s
	case impl.OffsetCommitRequest:
		return fmt.Sprintf("OffsetCommit member=%q epoch=%d %s", r.MemberID, r.Generation, r.Partitions)
	}
	return fmt.Sprintf("%T", r)
}
