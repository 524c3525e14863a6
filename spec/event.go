package spec

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/impl/leader"
)

// Event is something observable that happened in one step: the raw material of step
// properties and of the expected output under each step of a trace.
type Event interface{ String() string }

// CallbackEvent: a member's rebalance listener ran (assigned, revoked or lost).
type CallbackEvent struct {
	Slot       int
	Name       string
	Kind       consumer.CallbackKind
	Partitions impl.PartitionSet
}

func (e CallbackEvent) String() string {
	return fmt.Sprintf("%s: on-partitions-%s %s", e.Name, e.Kind, e.Partitions)
}

// SendEvent: a member sent a request.
type SendEvent struct {
	Slot    int
	Name    string
	Request impl.Request
}

func (e SendEvent) String() string {
	return fmt.Sprintf("%s -> coord: %s", e.Name, requestText(e.Request))
}

// ReplyEvent: the coordinator answered a connection; Dropped when nobody listens there.
type ReplyEvent struct {
	Slot     int
	Name     string
	Response impl.Response
	Dropped  bool
}

func (e ReplyEvent) String() string {
	s := fmt.Sprintf("coord -> %s: %s", e.Name, responseText(e.Response))
	if e.Dropped {
		s += " (dropped: the connection is gone)"
	}
	return s
}

// ReceiveEvent: a member's client handled a response (deliver-response); it comes first among
// the step's events, before what the client did about it. It is the raw material of reaction
// properties (fenced-means-stop), which judge what a member does with what it was told.
// Traces leave it out of their expected output: the world's diff already shows the response
// leaving the connection.
type ReceiveEvent struct {
	Slot     int
	Name     string
	Response impl.Response
}

func (e ReceiveEvent) String() string {
	return fmt.Sprintf("%s <- coord: %s", e.Name, responseText(e.Response))
}

// CommitEvent: the coordinator judged an OffsetCommit. Accepted is the verdict the commit
// fencing property judges. Under protocol consumer Generation carries the member epoch the
// commit was sent with (OffsetCommit v9).
type CommitEvent struct {
	Slot       int
	Name       string
	MemberID   impl.MemberID
	Generation impl.Generation
	Partitions impl.PartitionSet
	Error      impl.ErrorCode
}

func (e CommitEvent) String() string {
	return fmt.Sprintf("coord: commit %s from %s gen %d: %s", e.Partitions, e.MemberID, e.Generation, e.Error)
}

// AssignEvent: a leader computed the assignment of a generation (or failed to).
type AssignEvent struct {
	Slot        int
	Name        string
	Generation  impl.Generation
	Members     []impl.JoinGroupMember // as the leader read them
	Assignments []impl.MemberAssignment
	Plan        *leader.PlanResult
	Failed      string
	// Followup is the member the assignor asked for a follow-up rebalance (the assign
	// action's followup=), or "".
	Followup impl.MemberID
}

func (e AssignEvent) String() string {
	if e.Failed != "" {
		return fmt.Sprintf("%s: assignment for gen %d failed: %s", e.Name, e.Generation, e.Failed)
	}
	return fmt.Sprintf("%s: assigns gen %d: %s", e.Name, e.Generation, formatAssignments(e.Assignments))
}

// TargetEvent: the KIP-848 coordinator installed a new target assignment at Epoch (the
// lazy computation of docs/protocol.md §3.3 step 5, run by the heartbeat the step delivered).
type TargetEvent struct {
	Epoch  impl.Epoch
	Target kip848.Target
}

func (e TargetEvent) String() string {
	s := fmt.Sprintf("coord: target@%d", e.Epoch)
	for _, m := range e.Target {
		s += " " + string(m.ID) + "=" + m.Partitions.String()
	}
	return s
}

// FatalEvent: a member stopped on a fatal error.
type FatalEvent struct {
	Slot  int
	Name  string
	Error impl.ErrorCode
}

func (e FatalEvent) String() string { return fmt.Sprintf("%s: fatal %s", e.Name, e.Error) }

func formatAssignments(as []impl.MemberAssignment) string {
	s := ""
	for i, m := range as {
		if i > 0 {
			s += " "
		}
		s += string(m.MemberID) + "=" + m.Assignment.Partitions.String()
		if m.Assignment.Error != impl.None {
			s += "!" + m.Assignment.Error.String()
		}
		if m.Assignment.Followup {
			s += "+followup"
		}
	}
	return s
}

// CommitResultEvent is a client's report to the application of how its OffsetCommit ended
// (consumer.CommitResult, kip848client.CommitResult): accepted, refused with Error, timed out,
// or failed locally before it was sent. Traces do not print it (the CommitEvent at delivery
// shows the coordinator's verdict); invariants' commit-reported checks that the two agree.
type CommitResultEvent struct {
	Slot     int
	Name     string
	Accepted bool
	TimedOut bool
	Local    bool
	Error    impl.ErrorCode
}

func (e CommitResultEvent) String() string {
	switch {
	case e.Accepted:
		return fmt.Sprintf("%s: commit accepted", e.Name)
	case e.TimedOut:
		return fmt.Sprintf("%s: commit timed out", e.Name)
	case e.Local:
		return fmt.Sprintf("%s: commit failed locally: %s", e.Name, e.Error)
	}
	return fmt.Sprintf("%s: commit refused: %s", e.Name, e.Error)
}
