package explorer

import (
	"strings"
	"testing"
)

// TestSpillBlockRoundTrip: a spilled block written, unpinned (so out of
// memory) and pinned again holds what was written, wherever its buffer
// lands; regions and buffers are recycled.
func TestSpillBlockRoundTrip(t *testing.T) {
	sf, err := newSpillFile(t.TempDir(), 8)
	if err != nil {
		t.Fatal(err)
	}
	defer sf.close()
	var bs []*block[uint64]
	for i := range 3 {
		b := newDiskBlock[uint64](sf)
		b.pin(true)
		for j := range blockLen {
			b.states[j] = uint64(i*blockLen + j)
			b.keys[j] = uint32(j)
		}
		b.unpin()
		if b.states != nil || b.disk.buf.w != nil {
			t.Fatalf("block %d still in memory after its last unpin", i)
		}
		bs = append(bs, b)
	}
	for i := 2; i >= 0; i-- {
		b := bs[i]
		b.pin(false)
		b.pin(false) // a second pin shares the buffer
		if b.states[7] != uint64(i*blockLen+7) || b.keys[blockLen-1] != blockLen-1 {
			t.Fatalf("block %d read back %d, %d", i, b.states[7], b.keys[blockLen-1])
		}
		b.unpin()
		if b.states == nil {
			t.Fatalf("block %d left memory while still pinned", i)
		}
		b.unpin()
	}
	if err := sf.failed(); err != nil {
		t.Fatal(err)
	}
	regions := sf.size
	sf.give(bs[0].disk)
	if b := newDiskBlock[uint64](sf); b.disk.off != 0 || sf.size != regions {
		t.Fatalf("region at %d, file of %d bytes: the free region was not reused", b.disk.off, sf.size)
	}
}

// TestSpillIOErrors: a block that cannot be written stays in memory
// (nothing is lost), a block that cannot be read back is reported, and
// the pool stops spilling once the file has failed.
func TestSpillIOErrors(t *testing.T) {
	spilled := func(p *pool[uint64], v uint64) *block[uint64] {
		b := p.get()
		if b.disk == nil {
			t.Fatalf("no spilled block: %v", p.spillErr())
		}
		b.pin(true)
		b.states[0] = v
		return b
	}
	p := newPool[uint64](t.TempDir())
	p.toDisk = true
	b := spilled(p, 7)
	_ = p.disk.f.Close()
	b.unpin() // cannot be written: kept
	if b.states == nil || b.states[0] != 7 {
		t.Fatal("a block that could not be written was dropped")
	}
	if err := p.spillErr(); err == nil || !strings.Contains(err.Error(), "writing a block to the spill file") {
		t.Fatalf("err = %v, want the failed write", err)
	}
	if d := p.get(); d.disk != nil {
		t.Fatal("the pool still spills after the file failed")
	}

	p = newPool[uint64](t.TempDir())
	p.toDisk = true
	b = spilled(p, 42)
	b.unpin() // written
	_ = p.disk.f.Close()
	b.pin(false) // cannot be read
	if err := p.spillErr(); err == nil || !strings.Contains(err.Error(), "not reliable") {
		t.Fatalf("err = %v, want the failed read", err)
	}
}
