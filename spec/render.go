package spec

import (
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

// String renders the world canonically for people: one fact per line, members in slot order,
// absolute generations (the encoding is relative; this is not).
func (w World) String() string {
	var b strings.Builder
	if w.IsConsumerGroup() {
		fmt.Fprintf(&b, "coord    %s\n", w.Group)
	} else {
		fmt.Fprintf(&b, "coord    %s\n", w.Coord)
	}
	if w.Loading {
		b.WriteString("coord    loading the group from the log\n")
	}
	for i, s := range w.Slots {
		name := w.cfg.Members[i].Name
		fmt.Fprintf(&b, "%-8s %s#%d", name, s.Process, s.Incarnation)
		if s.Process != Absent {
			if w.ConsumerSlot(i) {
				fmt.Fprintf(&b, " %s", s.Member)
			} else {
				fmt.Fprintf(&b, " %s", s.Client)
			}
		}
		if s.Assigning != nil {
			fmt.Fprintf(&b, " assigning(gen %d)", s.Assigning.Generation)
		}
		if s.Stale {
			b.WriteString(" stale-coordinator")
		}
		b.WriteString(s.Cond.String())
		b.WriteByte('\n')
		for _, r := range s.Out {
			fmt.Fprintf(&b, "  %s -> coord: %s\n", name, requestText(r))
		}
		for _, r := range s.In {
			fmt.Fprintf(&b, "  coord -> %s: %s\n", name, responseText(r))
		}
	}
	fmt.Fprintf(&b, "cluster  %s\n", clusterText(w.Cluster))
	if left := w.Left.String(); left != "" {
		fmt.Fprintf(&b, "budget   %s\n", left)
	}
	return b.String()
}

func clusterText(c impl.Cluster) string {
	parts := make([]string, len(c.Topics))
	for i, t := range c.Topics {
		parts[i] = fmt.Sprintf("%s:%d", t.Name, t.Partitions)
	}
	if len(parts) == 0 {
		return "()"
	}
	return strings.Join(parts, " ")
}

func requestText(r impl.Request) string {
	switch r := r.(type) {
	case impl.JoinGroupRequest:
		s := fmt.Sprintf("JoinGroup v%d member=%s", r.Version, orDash(string(r.MemberID)))
		if r.InstanceID != "" {
			s += " instance=" + string(r.InstanceID)
		}
		for _, p := range r.Protocols {
			s += fmt.Sprintf(" %s{topics=%s owned=%s gen=%d}", p.Name, strings.Join(p.Metadata.Topics, ","),
				p.Metadata.OwnedPartitions, p.Metadata.Generation)
		}
		if r.Reason != impl.ReasonUnspecified {
			s += " reason=" + r.Reason.String()
		}
		return s
	case impl.SyncGroupRequest:
		s := fmt.Sprintf("SyncGroup member=%s gen=%d", r.MemberID, r.Generation)
		if len(r.Assignments) > 0 {
			s += " assignments=" + formatAssignments(r.Assignments)
		}
		return s
	case impl.HeartbeatRequest:
		return fmt.Sprintf("Heartbeat member=%s gen=%d", r.MemberID, r.Generation)
	case impl.LeaveGroupRequest:
		var ids []string
		for _, m := range r.Members {
			ids = append(ids, orDash(string(m.MemberID)))
		}
		return "LeaveGroup members=" + strings.Join(ids, ",")
	case impl.OffsetCommitRequest:
		return fmt.Sprintf("OffsetCommit member=%s gen=%d partitions=%s", orDash(string(r.MemberID)), r.Generation, r.Partitions)
	case impl.ConsumerGroupHeartbeatRequest:
		s := fmt.Sprintf("ConsumerGroupHeartbeat member=%s epoch=%d", orDash(string(r.MemberID)), r.MemberEpoch)
		if r.InstanceID != "" {
			s += " instance=" + string(r.InstanceID)
		}
		if r.SubscribedTopicNames != nil {
			s += " topics=" + strings.Join(r.SubscribedTopicNames, ",")
		}
		if r.OwnedPartitions != nil {
			s += " owned=" + r.OwnedPartitions.String()
		}
		return s
	}
	return fmt.Sprintf("%T", r)
}

func responseText(r impl.Response) string {
	switch r := r.(type) {
	case impl.JoinGroupResponse:
		if r.Error != impl.None {
			return fmt.Sprintf("JoinGroup %s member=%s", r.Error, orDash(string(r.MemberID)))
		}
		s := fmt.Sprintf("JoinGroup NONE gen=%d member=%s leader=%s protocol=%s", r.Generation, r.MemberID, r.Leader, r.ProtocolName)
		if len(r.Members) > 0 {
			var ms []string
			for _, m := range r.Members {
				ms = append(ms, fmt.Sprintf("%s{owned=%s gen=%d}", m.MemberID, m.Metadata.OwnedPartitions, m.Metadata.Generation))
			}
			s += " members=" + strings.Join(ms, ",")
		}
		if r.SkipAssignment {
			s += " skip-assignment"
		}
		return s
	case impl.SyncGroupResponse:
		if r.Error != impl.None {
			return "SyncGroup " + r.Error.String()
		}
		s := "SyncGroup NONE assignment=" + r.Assignment.Partitions.String()
		if r.Assignment.Error != impl.None {
			s += " error=" + r.Assignment.Error.String()
		}
		if r.Assignment.Followup {
			s += " followup"
		}
		return s
	case impl.HeartbeatResponse:
		return "Heartbeat " + r.Error.String()
	case impl.LeaveGroupResponse:
		return "LeaveGroup " + r.Error.String()
	case impl.OffsetCommitResponse:
		return "OffsetCommit " + r.Error.String()
	case impl.ConsumerGroupHeartbeatResponse:
		if r.Error != impl.None {
			return "ConsumerGroupHeartbeat " + r.Error.String()
		}
		s := fmt.Sprintf("ConsumerGroupHeartbeat NONE member=%s epoch=%d", r.MemberID, r.MemberEpoch)
		if r.Assignment != nil {
			s += " assignment=" + r.Assignment.String()
		}
		return s
	}
	return fmt.Sprintf("%T", r)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
