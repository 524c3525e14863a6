package consumer

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

// AppendEncoding appends a canonical binary encoding of the consumer's state to buf: equal
// states encode to equal bytes. Of the Config only Conn is encoded; the rest is fixed per
// member slot and known to the caller.
func (c Consumer) AppendEncoding(buf []byte) []byte {
	buf = binary.AppendVarint(buf, int64(c.Config.Conn))
	buf = append(buf, byte(c.Status), byte(c.Trigger), c.flags())
	buf = appendGen(buf, c.Gen)
	buf = impl.AppendPartitionSet(buf, c.OwnedPartitions)
	buf = binary.AppendVarint(buf, int64(c.OwnedGeneration))
	buf = impl.AppendStrings(buf, c.Topics)
	buf = impl.AppendStrings(buf, c.JoinedTopics)
	buf = appendCluster(buf, c.Metadata)
	buf = impl.AppendStrings(buf, c.GroupTopics)
	buf = appendCluster(buf, c.AssignmentSnapshot)
	buf = impl.AppendPartitionSet(buf, c.UserData.Previous)
	buf = binary.AppendVarint(buf, int64(c.UserData.Generation))
	for _, p := range c.Requests {
		if !p.Active {
			buf = append(buf, 0)
			continue
		}
		buf = append(buf, 1)
		buf = appendGen(buf, p.Sent)
		buf = impl.AppendPartitionSet(buf, p.Partitions)
	}
	return binary.AppendVarint(buf, int64(c.FatalError))
}

func (c Consumer) flags() byte {
	var f byte
	for i, b := range []bool{c.RejoinNeeded, c.NeedsJoinPrepare, c.HasJoined, c.Leader, c.AwaitingAssignment, c.Closed, c.FollowupDue} {
		if b {
			f |= 1 << i
		}
	}
	return f
}

func appendGen(buf []byte, g GroupGeneration) []byte {
	buf = binary.AppendVarint(buf, int64(g.ID))
	buf = impl.AppendString(buf, string(g.MemberID))
	return impl.AppendString(buf, g.ProtocolName)
}

func appendCluster(buf []byte, cl impl.Cluster) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(cl.Topics)))
	for _, t := range cl.Topics {
		buf = impl.AppendString(buf, t.Name)
		buf = binary.AppendVarint(buf, int64(t.Partitions))
	}
	return buf
}

// String renders the state on one line, fields in a fixed order, defaults omitted.
func (c Consumer) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s gen=%d member=%q owned=%s", c.Status, c.Gen.ID, c.Gen.MemberID, c.OwnedPartitions)
	if c.Gen.ProtocolName != "" {
		fmt.Fprintf(&b, " protocol=%s", c.Gen.ProtocolName)
	}
	fmt.Fprintf(&b, " owned-gen=%d topics=%v", c.OwnedGeneration, c.Topics)
	for _, f := range []struct {
		on   bool
		name string
	}{
		{c.RejoinNeeded, "rejoin-needed"}, {c.NeedsJoinPrepare, "needs-join-prepare"},
		{c.Leader, "leader"}, {c.AwaitingAssignment, "awaiting-assignment"}, {c.Closed, "closed"},
		{c.FollowupDue, "followup-due"},
	} {
		if f.on {
			b.WriteString(" " + f.name)
		}
	}
	if c.Trigger != TriggerNone {
		b.WriteString(" trigger=" + c.Trigger.String())
	}
	for _, k := range AllKinds() {
		if p := c.Requests[k]; p.Active {
			fmt.Fprintf(&b, " in-flight=%s@%d", k, p.Sent.ID)
		}
	}
	if c.FatalError != impl.None {
		b.WriteString(" fatal=" + c.FatalError.String())
	}
	return b.String()
}
