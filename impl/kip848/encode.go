package kip848

import (
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

// AppendEncoding appends the group's canonical encoding to buf: two groups encode equally iff
// they are the same state. The Config is not encoded (it is fixed for a run); the cluster is.
func (g Group) AppendEncoding(buf []byte) []byte {
	buf = binary.AppendVarint(buf, int64(g.groupEpoch))
	buf = binary.AppendVarint(buf, int64(g.assignmentEpoch))
	buf = binary.AppendUvarint(buf, uint64(len(g.target)))
	for _, e := range g.target {
		buf = impl.AppendString(buf, string(e.ID))
		buf = impl.AppendPartitionSet(buf, e.Partitions)
	}
	buf = binary.AppendUvarint(buf, uint64(len(g.members)))
	for _, m := range g.members {
		buf = m.AppendEncoding(buf)
	}
	buf = binary.AppendUvarint(buf, uint64(len(g.cluster.Topics)))
	for _, t := range g.cluster.Topics {
		buf = impl.AppendString(buf, t.Name)
		buf = binary.AppendVarint(buf, int64(t.Partitions))
	}
	return buf
}

// AppendEncoding appends the member's canonical encoding to buf.
func (m Member) AppendEncoding(buf []byte) []byte {
	buf = impl.AppendString(buf, string(m.ID))
	buf = impl.AppendString(buf, string(m.InstanceID))
	buf = binary.AppendVarint(buf, int64(m.MemberEpoch))
	buf = binary.AppendVarint(buf, int64(m.PreviousMemberEpoch))
	buf = append(buf, byte(m.State), flagsByte(m))
	buf = binary.AppendVarint(buf, int64(m.RebalanceTimer.Epoch))
	buf = binary.AppendVarint(buf, int64(m.RevocationTargetEpoch))
	buf = impl.AppendPartitionSet(buf, m.AssignedPartitions)
	buf = impl.AppendPartitionSet(buf, m.PartitionsPendingRevocation)
	buf = binary.AppendUvarint(buf, uint64(len(m.SubscribedTopics)))
	for _, t := range m.SubscribedTopics {
		buf = impl.AppendString(buf, t)
	}
	buf = binary.AppendUvarint(buf, uint64(len(m.AssignedAt)))
	for _, a := range m.AssignedAt {
		buf = binary.AppendVarint(buf, int64(a.Epoch))
		buf = impl.AppendPartitionSet(buf, a.Partitions)
	}
	return m.appendClassic(buf, func(buf []byte, e impl.Epoch) []byte { return binary.AppendVarint(buf, int64(e)) })
}

// flagsByte is the rebalance timer's armed bit with bit 1 set for a classic member, whose
// ClassicMetadata then ends the member's AppendEncoding: a consumer-protocol member encodes
// there exactly as before classic members existed. (AppendCanonical follows the field order
// of the structs instead, as spec's reflection encoder does.)
func flagsByte(m Member) byte {
	b := boolByte(m.RebalanceTimer.Armed)
	if m.Classic != nil {
		b |= 2
	}
	return b
}

// appendClassic appends a classic member's metadata (nothing for a consumer-protocol member)
// in ClassicMetadata's field order, each subscription's generation appended by epoch.
func (m Member) appendClassic(buf []byte, epoch func([]byte, impl.Epoch) []byte) []byte {
	c := m.Classic
	if c == nil {
		return buf
	}
	buf = binary.AppendUvarint(buf, uint64(len(c.Protocols)))
	for _, p := range c.Protocols {
		s := p.Metadata
		buf = impl.AppendString(buf, p.Name)
		buf = binary.AppendVarint(buf, int64(s.Version))
		buf = binary.AppendUvarint(buf, uint64(len(s.Topics)))
		for _, t := range s.Topics {
			buf = impl.AppendString(buf, t)
		}
		buf = impl.AppendPartitionSet(buf, s.OwnedPartitions)
		buf = epoch(buf, impl.Epoch(s.Generation))
		buf = impl.AppendPartitionSet(buf, s.UserData.Previous)
		buf = epoch(buf, impl.Epoch(s.UserData.Generation))
	}
	return append(buf, boolByte(c.JoinTimer), boolByte(c.SyncTimer))
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// String renders the group on one line for traces and test failures:
//
//	RECONCILING epoch=3 target@3=(a:(t-0) b:(t-1)) members=(a{STABLE e=3 ...} ...)
func (g Group) String() string {
	var b strings.Builder
	b.WriteString(g.State().String())
	b.WriteString(" epoch=" + itoa(g.groupEpoch))
	b.WriteString(" target@" + itoa(g.assignmentEpoch) + "=(")
	for i, e := range g.target {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(e.ID) + ":" + e.Partitions.String())
	}
	b.WriteString(") members=(")
	for i, m := range g.members {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m.String())
	}
	b.WriteString(")")
	return b.String()
}

// String renders one member: id, [instance], state, epochs, sets, subscription and timer.
func (m Member) String() string {
	var b strings.Builder
	b.WriteString(string(m.ID))
	if m.InstanceID != "" {
		b.WriteString("[" + string(m.InstanceID) + "]")
	}
	b.WriteString("{" + m.State.String() + " e=" + itoa(m.MemberEpoch) + " prev=" + itoa(m.PreviousMemberEpoch))
	b.WriteString(" assigned=" + m.AssignedPartitions.String())
	if !m.PartitionsPendingRevocation.IsEmpty() {
		b.WriteString(" revoking=" + m.PartitionsPendingRevocation.String())
	}
	b.WriteString(" topics=(" + strings.Join(m.SubscribedTopics, " ") + ")")
	if m.RebalanceTimer.Armed {
		b.WriteString(" timer@" + itoa(m.RebalanceTimer.Epoch))
	}
	for _, a := range m.AssignedAt {
		b.WriteString(" at" + itoa(a.Epoch) + "=" + a.Partitions.String())
	}
	if m.RevocationTargetEpoch != 0 {
		b.WriteString(" revoking-for@" + itoa(m.RevocationTargetEpoch))
	}
	if c := m.Classic; c != nil {
		b.WriteString(" classic")
		sep := "="
		for _, p := range c.Protocols {
			b.WriteString(sep + p.Name)
			sep = ","
		}
		if c.JoinTimer {
			b.WriteString(" join-timer")
		}
		if c.SyncTimer {
			b.WriteString(" sync-timer")
		}
	}
	b.WriteString("}")
	return b.String()
}

func itoa(e impl.Epoch) string { return strconv.Itoa(int(e)) }

// AppendCanonical appends the group's canonical encoding for world fingerprints: every field,
// the Config included, with each epoch appended by epoch (which may encode it relative to
// the group epoch). The layout follows the field order of Group and Member.
func (g Group) AppendCanonical(buf []byte, epoch func([]byte, impl.Epoch) []byte) []byte {
	buf = binary.AppendVarint(buf, int64(g.cfg.Variant))
	buf = impl.AppendString(buf, g.cfg.Assignor)
	buf = binary.AppendUvarint(buf, uint64(g.cfg.Faults))
	buf = binary.AppendVarint(buf, int64(g.cfg.MaxSize))
	buf = binary.AppendVarint(buf, int64(g.cfg.CommitRule))
	buf = binary.AppendVarint(buf, int64(g.cfg.MigrationPolicy))
	buf = binary.AppendVarint(buf, int64(g.cfg.ClassicMaxSize))
	buf = epoch(buf, g.groupEpoch)
	buf = epoch(buf, g.assignmentEpoch)
	buf = binary.AppendUvarint(buf, uint64(len(g.target)))
	for _, e := range g.target {
		buf = impl.AppendString(buf, string(e.ID))
		buf = impl.AppendPartitionSet(buf, e.Partitions)
	}
	buf = binary.AppendUvarint(buf, uint64(len(g.members)))
	for i := range g.members {
		m := &g.members[i]
		buf = impl.AppendString(buf, string(m.ID))
		buf = impl.AppendString(buf, string(m.InstanceID))
		buf = epoch(buf, m.MemberEpoch)
		buf = epoch(buf, m.PreviousMemberEpoch)
		buf = binary.AppendVarint(buf, int64(m.State))
		buf = impl.AppendPartitionSet(buf, m.AssignedPartitions)
		buf = impl.AppendPartitionSet(buf, m.PartitionsPendingRevocation)
		buf = binary.AppendUvarint(buf, uint64(len(m.SubscribedTopics)))
		for _, t := range m.SubscribedTopics {
			buf = impl.AppendString(buf, t)
		}
		buf = append(buf, boolByte(m.RebalanceTimer.Armed))
		buf = epoch(buf, m.RebalanceTimer.Epoch)
		buf = epoch(buf, m.RevocationTargetEpoch)
		buf = binary.AppendUvarint(buf, uint64(len(m.AssignedAt)))
		for _, a := range m.AssignedAt {
			buf = epoch(buf, a.Epoch)
			buf = impl.AppendPartitionSet(buf, a.Partitions)
		}
		if m.Classic == nil {
			buf = append(buf, 0)
		} else {
			buf = m.appendClassic(append(buf, 1), epoch)
		}
	}
	buf = binary.AppendUvarint(buf, uint64(len(g.cluster.Topics)))
	for _, t := range g.cluster.Topics {
		buf = impl.AppendString(buf, t.Name)
		buf = binary.AppendVarint(buf, int64(t.Partitions))
	}
	return buf
}
