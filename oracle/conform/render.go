package conform

import (
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848client"
)

// Options select what Run compares. The zero value compares everything a member sends
// except the connection.
type Options struct {
	// IgnoreUserData leaves the sticky assignors' subscription user data (the previous
	// assignment and its generation, KIP-341) out of the comparison, for a client whose
	// assignor keeps other user data.
	IgnoreUserData bool
	// IgnoreJoinReason leaves KIP-423's JoinReason out (clients that predate or ignore it).
	IgnoreJoinReason bool
}

// outputs renders the compared effects, one line each, in order: requests sent, callbacks
// invoked, fatal errors. RunAssignment and CommitResult are not compared: a client's leader
// runs its own assignor (the Assign input hands it the reference leader's result), and a
// commit's outcome is the coordinator's answer, already an input.
func (o Options) outputs(effs []consumer.Effect) []string {
	out := []string{}
	for _, e := range effs {
		switch e := e.(type) {
		case consumer.Send:
			out = append(out, "send "+o.request(e.Request))
		case consumer.Callback:
			out = append(out, fmt.Sprintf("callback on-partitions-%s %s", e.Kind, e.Partitions))
		case consumer.Fatal:
			out = append(out, "fatal "+e.Error.String())
		}
	}
	return out
}

// outputs848 is outputs for KIP-848 members: requests, callbacks, fatal errors.
func (o Options) outputs848(effs []kip848client.Effect) []string {
	out := []string{}
	for _, e := range effs {
		switch e := e.(type) {
		case kip848client.Send:
			out = append(out, "send "+o.request(e.Request))
		case kip848client.Callback:
			out = append(out, fmt.Sprintf("callback on-partitions-%s %s", callbackKind(e.Kind), e.Partitions))
		case kip848client.FatalError:
			out = append(out, "fatal "+e.Error.String())
		}
	}
	return out
}

// request renders a request with every field a coordinator reads, but the connection.
func (o Options) request(r impl.Request) string {
	switch r := r.(type) {
	case impl.JoinGroupRequest:
		s := fmt.Sprintf("JoinGroup v%d member=%s instance=%s", r.Version, dash(string(r.MemberID)), dash(string(r.InstanceID)))
		if !o.IgnoreJoinReason {
			s += " reason=" + r.Reason.String()
		}
		for _, p := range r.Protocols {
			m := p.Metadata
			s += fmt.Sprintf(" %s{v%d topics=%s owned=%s gen=%d", p.Name, m.Version, strings.Join(m.Topics, ","), m.OwnedPartitions, m.Generation)
			if !o.IgnoreUserData {
				s += fmt.Sprintf(" userdata=%s@%d", m.UserData.Previous, m.UserData.Generation)
			}
			s += "}"
		}
		return s
	case impl.SyncGroupRequest:
		s := fmt.Sprintf("SyncGroup member=%s instance=%s gen=%d protocol=%s", r.MemberID, dash(string(r.InstanceID)), r.Generation, dash(r.ProtocolName))
		for i, a := range r.Assignments {
			sep := " assignments="
			if i > 0 {
				sep = ","
			}
			s += fmt.Sprintf("%s%s=%s", sep, a.MemberID, a.Assignment.Partitions)
			if a.Assignment.Error != impl.None {
				s += "!" + a.Assignment.Error.String()
			}
			if a.Assignment.Followup {
				s += "+followup"
			}
		}
		return s
	case impl.HeartbeatRequest:
		return fmt.Sprintf("Heartbeat member=%s instance=%s gen=%d", r.MemberID, dash(string(r.InstanceID)), r.Generation)
	case impl.LeaveGroupRequest:
		var ms []string
		for _, m := range r.Members {
			ms = append(ms, dash(string(m.MemberID))+"/"+dash(string(m.InstanceID)))
		}
		return "LeaveGroup members=" + strings.Join(ms, ",")
	case impl.OffsetCommitRequest:
		return fmt.Sprintf("OffsetCommit member=%s instance=%s gen=%d partitions=%s", dash(string(r.MemberID)), dash(string(r.InstanceID)), r.Generation, r.Partitions)
	case impl.ConsumerGroupHeartbeatRequest:
		s := fmt.Sprintf("ConsumerGroupHeartbeat member=%s epoch=%d instance=%s", dash(string(r.MemberID)), r.MemberEpoch, dash(string(r.InstanceID)))
		if r.SubscribedTopicNames != nil {
			s += " topics=" + strings.Join(r.SubscribedTopicNames, ",")
		}
		if r.ServerAssignor != "" {
			s += " assignor=" + r.ServerAssignor
		}
		if r.OwnedPartitions != nil {
			s += " owned=" + r.OwnedPartitions.String()
		}
		return s
	}
	return fmt.Sprintf("%T %+v", r, r)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
