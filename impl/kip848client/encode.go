package kip848client

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

// AppendEncoding appends a canonical binary encoding of the member's state to buf: equal
// states encode to equal bytes. Of the Config only Conn is encoded; the rest is fixed per
// member slot and known to the caller.
func (m Member) AppendEncoding(buf []byte) []byte {
	buf = binary.AppendVarint(buf, int64(m.Config.Conn))
	buf = append(buf, byte(m.Status), m.flags())
	buf = impl.AppendString(buf, string(m.ID))
	buf = binary.AppendVarint(buf, int64(m.MemberEpoch))
	buf = impl.AppendStrings(buf, m.Topics)
	buf = impl.AppendPartitionSet(buf, m.OwnedPartitions)
	buf = impl.AppendPartitionSet(buf, m.Target)
	buf = impl.AppendPartitionSet(buf, m.Rec.Target)
	buf = impl.AppendStrings(buf, m.Sent.Topics)
	buf = impl.AppendPartitionSet(buf, m.Sent.Owned)
	buf = binary.AppendVarint(buf, int64(m.Heartbeat.Epoch))
	buf = binary.AppendVarint(buf, int64(m.Commit.Epoch))
	buf = impl.AppendPartitionSet(buf, m.Commit.Partitions)
	return binary.AppendVarint(buf, int64(m.FatalError))
}

func (m Member) flags() byte {
	var f byte
	for i, b := range []bool{
		m.Rec.Active, m.Rec.AwaitCommit, m.Sent.Valid, m.Heartbeat.Active,
		m.Commit.Active, m.Commit.Revocation, m.PollExpired, m.Closed,
	} {
		if b {
			f |= 1 << i
		}
	}
	return f
}

// String renders the state on one line, fields in a fixed order, defaults omitted.
func (m Member) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s member=%q epoch=%d owned=%s target=%s topics=%v",
		m.Status, m.ID, m.MemberEpoch, m.OwnedPartitions, m.Target, m.Topics)
	if m.Rec.Active {
		fmt.Fprintf(&b, " reconciling-to=%s", m.Rec.Target)
		if m.Rec.AwaitCommit {
			b.WriteString(" await-commit")
		}
	}
	if m.Sent.Valid {
		fmt.Fprintf(&b, " sent=(topics=%v owned=%s)", m.Sent.Topics, m.Sent.Owned)
	}
	if m.Heartbeat.Active {
		fmt.Fprintf(&b, " hb-in-flight@%d", m.Heartbeat.Epoch)
	}
	if m.Commit.Active {
		kind := "commit"
		if m.Commit.Revocation {
			kind = "revocation-commit"
		}
		fmt.Fprintf(&b, " %s-in-flight@%d %s", kind, m.Commit.Epoch, m.Commit.Partitions)
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{m.PollExpired, "poll-expired"}, {m.Closed, "closed"}} {
		if f.on {
			b.WriteString(" " + f.name)
		}
	}
	if m.FatalError != impl.None {
		b.WriteString(" fatal=" + m.FatalError.String())
	}
	return b.String()
}
