package coordinator

import (
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

// AppendEncoding appends the group's canonical encoding to buf: two groups encode equally iff
// they are the same state. The Config is not encoded (it is fixed for a run).
func (g Group) AppendEncoding(buf []byte) []byte {
	buf = append(buf, byte(g.state), boolByte(g.initialJoin))
	buf = binary.AppendVarint(buf, int64(g.generation))
	buf = impl.AppendString(buf, g.protocol)
	buf = impl.AppendString(buf, string(g.leader))
	buf = binary.AppendUvarint(buf, uint64(len(g.pending)))
	for _, id := range g.pending {
		buf = impl.AppendString(buf, string(id))
	}
	buf = binary.AppendUvarint(buf, uint64(len(g.members)))
	for _, m := range g.members {
		buf = m.appendEncoding(buf)
	}
	return g.appendCanonicalLog(buf, func(b []byte, v impl.Generation) []byte { return binary.AppendVarint(b, int64(v)) })
}

func (m Member) appendEncoding(buf []byte) []byte {
	buf = impl.AppendString(buf, string(m.ID))
	buf = impl.AppendString(buf, string(m.InstanceID))
	buf = binary.AppendUvarint(buf, uint64(len(m.Protocols)))
	for _, p := range m.Protocols {
		buf = impl.AppendString(buf, p.Name)
		buf = appendSubscription(buf, p.Metadata)
	}
	buf = append(buf, boolByte(m.Join.Parked), byte(m.Join.Reason), boolByte(m.Sync.Parked),
		boolByte(m.PendingSync), boolByte(m.IsNew))
	buf = binary.AppendVarint(buf, int64(m.Join.Conn))
	buf = binary.AppendVarint(buf, int64(m.Join.Version))
	buf = binary.AppendVarint(buf, int64(m.Sync.Conn))
	buf = impl.AppendPartitionSet(buf, m.Assignment.Partitions)
	buf = binary.AppendVarint(buf, int64(m.Assignment.Error))
	return append(buf, boolByte(m.Assignment.Followup))
}

func appendSubscription(buf []byte, s impl.Subscription) []byte {
	buf = append(buf, byte(s.Version))
	buf = binary.AppendUvarint(buf, uint64(len(s.Topics)))
	for _, t := range s.Topics {
		buf = impl.AppendString(buf, t)
	}
	buf = impl.AppendPartitionSet(buf, s.OwnedPartitions)
	buf = binary.AppendVarint(buf, int64(s.Generation))
	buf = impl.AppendPartitionSet(buf, s.UserData.Previous)
	return binary.AppendVarint(buf, int64(s.UserData.Generation))
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// String renders the group on one line, members in id order, for traces and test failures:
//
//	Stable gen=2 proto=range leader=a members=(a[i1]{join@3 new} b{psync asg=(t-0)}) pending=(x)
func (g Group) String() string {
	var b strings.Builder
	b.WriteString(g.state.String())
	b.WriteString(" gen=" + strconv.Itoa(int(g.generation)))
	if g.protocol != "" {
		b.WriteString(" proto=" + g.protocol)
	}
	if g.initialJoin {
		b.WriteString(" initial")
	}
	b.WriteString(" leader=" + orDash(string(g.leader)) + " members=(")
	for i, m := range g.members {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m.String())
	}
	b.WriteString(")")
	if len(g.pending) > 0 {
		ids := make([]string, len(g.pending))
		for i, id := range g.pending {
			ids[i] = string(id)
		}
		b.WriteString(" pending=(" + strings.Join(ids, " ") + ")")
	}
	return b.String()
}

// String renders one member: id, [instance], and its flags in braces.
func (m Member) String() string {
	s := string(m.ID)
	if m.IsStatic() {
		s += "[" + string(m.InstanceID) + "]"
	}
	var f []string
	if m.Join.Parked {
		f = append(f, "join@"+strconv.Itoa(int(m.Join.Conn)))
	}
	if m.Sync.Parked {
		f = append(f, "sync@"+strconv.Itoa(int(m.Sync.Conn)))
	}
	if m.PendingSync {
		f = append(f, "psync")
	}
	if m.IsNew {
		f = append(f, "new")
	}
	if !m.Assignment.Partitions.IsEmpty() || m.Assignment.Error != impl.None || m.Assignment.Followup {
		a := "asg=" + m.Assignment.Partitions.String()
		if m.Assignment.Error != impl.None {
			a += "!" + m.Assignment.Error.String()
		}
		if m.Assignment.Followup {
			a += "+followup"
		}
		f = append(f, a)
	}
	if len(f) > 0 {
		s += "{" + strings.Join(f, " ") + "}"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// AppendCanonical appends the group's canonical encoding for world fingerprints: every field,
// the Config included, with each generation appended by gen (which may encode it relative
// to a base). The layout follows the field order of Group and Member.
func (g Group) AppendCanonical(buf []byte, gen func([]byte, impl.Generation) []byte) []byte {
	buf = binary.AppendVarint(buf, int64(g.cfg.Variant))
	buf = binary.AppendUvarint(buf, uint64(g.cfg.Faults))
	buf = binary.AppendVarint(buf, int64(g.cfg.MaxSize))
	buf = append(buf, boolByte(g.cfg.Persist))
	buf = binary.AppendVarint(buf, int64(g.state))
	buf = gen(buf, g.generation)
	buf = impl.AppendString(buf, g.protocol)
	buf = impl.AppendString(buf, string(g.leader))
	buf = binary.AppendUvarint(buf, uint64(len(g.members)))
	for i := range g.members {
		m := &g.members[i]
		buf = impl.AppendString(buf, string(m.ID))
		buf = impl.AppendString(buf, string(m.InstanceID))
		buf = binary.AppendUvarint(buf, uint64(len(m.Protocols)))
		for _, p := range m.Protocols {
			buf = impl.AppendString(buf, p.Name)
			buf = appendCanonicalSubscription(buf, p.Metadata, gen)
		}
		buf = append(buf, boolByte(m.Join.Parked))
		buf = binary.AppendVarint(buf, int64(m.Join.Conn))
		buf = binary.AppendVarint(buf, int64(m.Join.Version))
		buf = binary.AppendVarint(buf, int64(m.Join.Reason))
		buf = append(buf, boolByte(m.Sync.Parked))
		buf = binary.AppendVarint(buf, int64(m.Sync.Conn))
		buf = append(buf, boolByte(m.PendingSync))
		buf = impl.AppendPartitionSet(buf, m.Assignment.Partitions)
		buf = binary.AppendVarint(buf, int64(m.Assignment.Error))
		buf = append(buf, boolByte(m.Assignment.Followup))
		buf = append(buf, boolByte(m.IsNew))
	}
	buf = binary.AppendUvarint(buf, uint64(len(g.pending)))
	for _, id := range g.pending {
		buf = impl.AppendString(buf, string(id))
	}
	buf = append(buf, boolByte(g.initialJoin))
	return g.appendCanonicalLog(buf, gen)
}

// appendCanonicalLog appends the log record (a presence byte, then its fields in order).
func (g Group) appendCanonicalLog(buf []byte, gen func([]byte, impl.Generation) []byte) []byte {
	if g.log == nil {
		return append(buf, 0)
	}
	r := g.log
	buf = append(buf, 1)
	buf = gen(buf, r.Generation)
	buf = impl.AppendString(buf, r.Protocol)
	buf = impl.AppendString(buf, string(r.Leader))
	buf = binary.AppendUvarint(buf, uint64(len(r.Members)))
	for _, m := range r.Members {
		buf = impl.AppendString(buf, string(m.ID))
		buf = impl.AppendString(buf, string(m.InstanceID))
		buf = appendCanonicalSubscription(buf, m.Subscription, gen)
		buf = impl.AppendPartitionSet(buf, m.Assignment.Partitions)
		buf = binary.AppendVarint(buf, int64(m.Assignment.Error))
		buf = append(buf, boolByte(m.Assignment.Followup))
	}
	return buf
}

// appendCanonicalSubscription appends a subscription's canonical encoding, its generations
// appended by gen (see Group.AppendCanonical).
func appendCanonicalSubscription(buf []byte, s impl.Subscription, gen func([]byte, impl.Generation) []byte) []byte {
	buf = binary.AppendVarint(buf, int64(s.Version))
	buf = binary.AppendUvarint(buf, uint64(len(s.Topics)))
	for _, t := range s.Topics {
		buf = impl.AppendString(buf, t)
	}
	buf = impl.AppendPartitionSet(buf, s.OwnedPartitions)
	buf = gen(buf, s.Generation)
	buf = impl.AppendPartitionSet(buf, s.UserData.Previous)
	return gen(buf, s.UserData.Generation)
}
