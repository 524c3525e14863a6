package kip848client

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// Input is one event delivered to a member; see Step.
type Input interface{ isInput() }

// SubscribeInput sets the subscription (Member.Subscribe).
type SubscribeInput struct{ Topics []string }

// UnsubscribeInput leaves the group (Member.Unsubscribe).
type UnsubscribeInput struct{}

// CloseInput closes the consumer (Member.Close).
type CloseInput struct{}

// PollInput is the application's poll (Member.Poll).
type PollInput struct{}

// HeartbeatTickInput is the heartbeat interval timer (Member.HeartbeatTick).
type HeartbeatTickInput struct{}

// HeartbeatResponseInput delivers a ConsumerGroupHeartbeat response (Member.OnHeartbeatResponse).
type HeartbeatResponseInput struct {
	Response impl.ConsumerGroupHeartbeatResponse
}

// CommitTickInput is an application commit (Member.CommitTick).
type CommitTickInput struct{}

// CommitResponseInput delivers an OffsetCommit response (Member.OnOffsetCommitResponse).
type CommitResponseInput struct{ Response impl.OffsetCommitResponse }

// RequestTimedOutInput says a request's response was lost (Member.RequestTimedOut).
type RequestTimedOutInput struct{ Kind RequestKind }

// PollTimeoutInput is max.poll.interval.ms expiring (Member.PollTimeout).
type PollTimeoutInput struct{}

func (SubscribeInput) isInput()         {}
func (UnsubscribeInput) isInput()       {}
func (CloseInput) isInput()             {}
func (PollInput) isInput()              {}
func (HeartbeatTickInput) isInput()     {}
func (HeartbeatResponseInput) isInput() {}
func (CommitTickInput) isInput()        {}
func (CommitResponseInput) isInput()    {}
func (RequestTimedOutInput) isInput()   {}
func (PollTimeoutInput) isInput()       {}

// Step routes one input to its transition.
func (m Member) Step(in Input) (Member, []Effect) {
	switch in := in.(type) {
	case SubscribeInput:
		return m.Subscribe(in.Topics)
	case UnsubscribeInput:
		return m.Unsubscribe()
	case CloseInput:
		return m.Close()
	case PollInput:
		return m.Poll()
	case HeartbeatTickInput:
		return m.HeartbeatTick()
	case HeartbeatResponseInput:
		return m.OnHeartbeatResponse(in.Response)
	case CommitTickInput:
		return m.CommitTick()
	case CommitResponseInput:
		return m.OnOffsetCommitResponse(in.Response)
	case RequestTimedOutInput:
		return m.RequestTimedOut(in.Kind)
	case PollTimeoutInput:
		return m.PollTimeout()
	}
	panic(fmt.Sprintf("kip848client.Step: unknown input %T", in))
}
