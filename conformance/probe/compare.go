package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// differ collects the fields in which a broker's response differs from the reference's.
type differ struct {
	n     *names
	diffs []string
}

func (d *differ) field(name string, want, got any) {
	if fmt.Sprint(want) != fmt.Sprint(got) {
		d.diffs = append(d.diffs, fmt.Sprintf("%s: reference %v, broker %v", name, want, got))
	}
}

func (d *differ) id(name string, want impl.MemberID, got string) {
	if !d.n.match(want, got) {
		d.diffs = append(d.diffs, fmt.Sprintf("%s: reference %s, broker %s", name, orDash(string(want)), d.n.ref(got)))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// compare sets the broker's response against the reference's, field by field. sent is the
// reference request it answers: a fresh member id in the answer to a request without one
// is learned, not compared (the broker names members as it likes).
func compare(n *names, sent impl.Request, want impl.Response, got kmsg.Response) []string {
	d := &differ{n: n}
	switch w := want.(type) {
	case impl.JoinGroupResponse:
		g, ok := got.(*kmsg.JoinGroupResponse)
		if !ok {
			return []string{fmt.Sprintf("response kind: reference JoinGroup, broker %T", got)}
		}
		d.field("error", w.Error, impl.ErrorCode(g.ErrorCode))
		if j, ok := sent.(impl.JoinGroupRequest); ok && j.MemberID == impl.NoMemberID && w.MemberID != impl.NoMemberID && g.MemberID != "" {
			n.learn(w.MemberID, g.MemberID)
		}
		d.id("member id", w.MemberID, g.MemberID)
		d.field("generation", w.Generation, g.Generation)
		d.field("protocol", w.ProtocolName, deref(g.Protocol))
		d.id("leader", w.Leader, g.LeaderID)
		d.field("skip assignment", w.SkipAssignment, g.SkipAssignment)
		d.members(w.Members, g.Members)
	case impl.SyncGroupResponse:
		g, ok := got.(*kmsg.SyncGroupResponse)
		if !ok {
			return []string{fmt.Sprintf("response kind: reference SyncGroup, broker %T", got)}
		}
		d.field("error", w.Error, impl.ErrorCode(g.ErrorCode))
		if w.Error == impl.None {
			d.field("protocol", w.ProtocolName, deref(g.Protocol))
		}
		a, err := n.readAssignment(g.MemberAssignment)
		if err == nil && n.kip848 && !a.Partitions.Equal(w.Assignment.Partitions) && n.relabel(w.Assignment.Partitions, a.Partitions) {
			a, err = n.readAssignment(g.MemberAssignment) // a classic member of a consumer group: the server assignor's choice
		}
		if err != nil {
			d.diffs = append(d.diffs, err.Error())
		} else {
			d.field("assignment", w.Assignment.Partitions, a.Partitions)
		}
		if n.kip848 {
			n.note(w.Assignment.Partitions)
		}
	case impl.HeartbeatResponse:
		g, ok := got.(*kmsg.HeartbeatResponse)
		if !ok {
			return []string{fmt.Sprintf("response kind: reference Heartbeat, broker %T", got)}
		}
		d.field("error", w.Error, impl.ErrorCode(g.ErrorCode))
	case impl.LeaveGroupResponse:
		g, ok := got.(*kmsg.LeaveGroupResponse)
		if !ok {
			return []string{fmt.Sprintf("response kind: reference LeaveGroup, broker %T", got)}
		}
		d.field("error", w.Error, impl.ErrorCode(g.ErrorCode))
		d.field("members", len(w.Members), len(g.Members))
		for i := range min(len(w.Members), len(g.Members)) {
			wm, gm := w.Members[i], g.Members[i]
			d.id(fmt.Sprintf("members[%d] member id", i), wm.MemberID, gm.MemberID)
			d.field(fmt.Sprintf("members[%d] instance id", i), wm.InstanceID, deref(gm.InstanceID))
			d.field(fmt.Sprintf("members[%d] error", i), wm.Error, impl.ErrorCode(gm.ErrorCode))
		}
	case impl.OffsetCommitResponse:
		g, ok := got.(*kmsg.OffsetCommitResponse)
		if !ok {
			return []string{fmt.Sprintf("response kind: reference OffsetCommit, broker %T", got)}
		}
		for _, t := range g.Topics {
			for _, p := range t.Partitions {
				d.field(fmt.Sprintf("error %s-%d", n.refTopic(t.Topic), p.Partition), w.Error, impl.ErrorCode(p.ErrorCode))
			}
		}
	case impl.ConsumerGroupHeartbeatResponse:
		g, ok := got.(*kmsg.ConsumerGroupHeartbeatResponse)
		if !ok {
			return []string{fmt.Sprintf("response kind: reference ConsumerGroupHeartbeat, broker %T", got)}
		}
		d.field("error", w.Error, impl.ErrorCode(g.ErrorCode))
		if h, ok := sent.(impl.ConsumerGroupHeartbeatRequest); ok && h.MemberID == impl.NoMemberID && w.MemberID != impl.NoMemberID && deref(g.MemberID) != "" {
			n.learn(w.MemberID, deref(g.MemberID))
		}
		if w.Error == impl.None {
			d.id("member id", w.MemberID, deref(g.MemberID))
			n.learnShift(w.MemberEpoch, g.MemberEpoch)
			d.field("member epoch", n.epoch(w.MemberEpoch), g.MemberEpoch)
			if w.Assignment != nil && g.Assignment != nil && assignmentText(w.Assignment) != n.assignment848(g.Assignment) {
				n.relabel(*w.Assignment, n.assignmentSet848(g.Assignment))
			}
			d.field("assignment", assignmentText(w.Assignment), n.assignment848(g.Assignment))
			if w.Assignment != nil {
				n.note(*w.Assignment)
			}
		}
	default:
		return []string{fmt.Sprintf("no comparison for %T", want)}
	}
	return d.diffs
}

// members compares a leader's member list: ids by the mapping, subscriptions as decoded.
func (d *differ) members(want []impl.JoinGroupMember, got []kmsg.JoinGroupResponseMember) {
	if len(want) != len(got) {
		d.diffs = append(d.diffs, fmt.Sprintf("members: reference %d, broker %d", len(want), len(got)))
		return
	}
	// Kafka lists members in no set order; the reference in id order: match by id.
	used := make([]bool, len(got))
	for _, w := range want {
		j := slices.IndexFunc(got, func(g kmsg.JoinGroupResponseMember) bool {
			b, ok := d.n.toBroker[w.MemberID]
			return ok && g.MemberID == b
		})
		if j < 0 { // first appearance: the first unused broker entry
			j = slices.IndexFunc(got, func(g kmsg.JoinGroupResponseMember) bool { _, known := d.n.toRef[g.MemberID]; return !known })
		}
		if j < 0 || used[j] {
			d.diffs = append(d.diffs, fmt.Sprintf("members: reference lists %s, broker does not", w.MemberID))
			continue
		}
		used[j] = true
		g := got[j]
		d.id("members "+string(w.MemberID)+" id", w.MemberID, g.MemberID)
		d.field("members "+string(w.MemberID)+" instance id", w.InstanceID, deref(g.InstanceID))
		s, err := d.n.readSubscription(g.ProtocolMetadata)
		if err != nil {
			d.diffs = append(d.diffs, "members "+string(w.MemberID)+": "+err.Error())
			continue
		}
		if !s.Equal(w.Metadata) {
			d.diffs = append(d.diffs, fmt.Sprintf("members %s subscription: reference %+v, broker %+v", w.MemberID, w.Metadata, s))
		}
	}
}

func assignmentText(p *impl.PartitionSet) string {
	if p == nil {
		return "unchanged"
	}
	return p.String()
}

func (n *names) assignment848(a *kmsg.ConsumerGroupHeartbeatResponseAssignment) string {
	if a == nil {
		return "unchanged"
	}
	return n.assignmentSet848(a).String()
}

// assignmentSet848 reads a KIP-848 assignment in the reference's names and labels.
func (n *names) assignmentSet848(a *kmsg.ConsumerGroupHeartbeatResponseAssignment) impl.PartitionSet {
	var tps []impl.TopicPartition
	for _, t := range a.Topics {
		topic := n.topicByID(t.TopicID)
		for _, p := range t.Partitions {
			tps = append(tps, impl.TP(topic, n.refPartition(topic, p)))
		}
	}
	return impl.NewPartitionSet(tps...)
}

// brokerText renders a broker response briefly, for reports.
func brokerText(n *names, r kmsg.Response) string {
	switch r := r.(type) {
	case *kmsg.JoinGroupResponse:
		return fmt.Sprintf("JoinGroup %s member=%s gen=%d leader=%s members=%d", impl.ErrorCode(r.ErrorCode), n.ref(r.MemberID), r.Generation, n.ref(r.LeaderID), len(r.Members))
	case *kmsg.SyncGroupResponse:
		a, _ := n.readAssignment(r.MemberAssignment)
		return fmt.Sprintf("SyncGroup %s assignment=%s", impl.ErrorCode(r.ErrorCode), a.Partitions)
	case *kmsg.HeartbeatResponse:
		return fmt.Sprintf("Heartbeat %s", impl.ErrorCode(r.ErrorCode))
	case *kmsg.LeaveGroupResponse:
		var ms []string
		for _, m := range r.Members {
			ms = append(ms, n.ref(m.MemberID)+":"+impl.ErrorCode(m.ErrorCode).String())
		}
		return fmt.Sprintf("LeaveGroup %s members=%s", impl.ErrorCode(r.ErrorCode), strings.Join(ms, ","))
	case *kmsg.OffsetCommitResponse:
		var es []string
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				es = append(es, impl.ErrorCode(p.ErrorCode).String())
			}
		}
		return "OffsetCommit " + strings.Join(slices.Compact(es), ",")
	case *kmsg.ConsumerGroupHeartbeatResponse:
		return fmt.Sprintf("ConsumerGroupHeartbeat %s member=%s epoch=%d assignment=%s", impl.ErrorCode(r.ErrorCode), n.ref(deref(r.MemberID)), r.MemberEpoch, n.assignment848(r.Assignment))
	}
	return fmt.Sprintf("%T", r)
}
