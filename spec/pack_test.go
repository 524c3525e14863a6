package spec

import "testing"

// TestChunkOf: a table's index maps to one slot of one chunk, chunk k holding tableFirst<<k
// values back to back, up to the largest uint32 index.
func TestChunkOf(t *testing.T) {
	base := uint64(0)
	for k := 0; k < tableChunks; k++ {
		size := uint64(tableFirst) << k
		for _, off := range []uint64{0, 1, size / 2, size - 1} {
			id := base + off
			if id > uint64(^uint32(0)) {
				break
			}
			gk, goff := chunkOf(uint32(id))
			if gk != k || uint64(goff) != off {
				t.Fatalf("index %d: chunk %d offset %d, want chunk %d offset %d", id, gk, goff, k, off)
			}
		}
		base += size
	}
	if base <= uint64(^uint32(0)) {
		t.Fatalf("the chunks end at index %d: uint32 indices beyond have no slot", base)
	}
}
