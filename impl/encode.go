package impl

import "encoding/binary"

// The canonical byte encoding the roles share for their AppendEncoding methods: lengths as
// unsigned varints, integers as varints, so that equal values encode to equal bytes.

// AppendString appends s, length first.
func AppendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// AppendStrings appends a list of strings, count first.
func AppendStrings(buf []byte, ss []string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(ss)))
	for _, s := range ss {
		buf = AppendString(buf, s)
	}
	return buf
}

// AppendPartitionSet appends a partition set in its sorted order, count first.
func AppendPartitionSet(buf []byte, ps PartitionSet) []byte {
	buf = binary.AppendUvarint(buf, uint64(ps.Len()))
	for _, tp := range ps.Slice() {
		buf = AppendString(buf, tp.Topic)
		buf = binary.AppendVarint(buf, int64(tp.Partition))
	}
	return buf
}
