package explorer

import (
	"fmt"
	"os"
	"sync"
	"unsafe"
)

// spillFile holds the blocks of spilled levels of pointer-free states:
// an unlinked temporary file cut into regions of one block each (its
// states, then its keys). A spilled block is in memory only while it is
// pinned: a pass pins the block it works on and unpins it when it moves
// to another (worker.visit), and the writer pins the block it fills.
// Pinning the first time reads the region into a buffer; unpinning the
// last time writes it back if it was pinned for writing, and gives the
// buffer back. So a spilled level costs a few buffers per worker of
// memory, and the rest of it lives in the file. Regions and buffers are
// recycled from level to level: the file grows to the widest two levels
// at most, and the buffers stay resident.
//
// Why reads and writes rather than a shared mapping of the file: a
// mapping lets every pass use a block in place, but each page it drops
// costs a page fault to bring back, and on this project's virtual
// machine (ext4) a write fault on a shared file page measured about
// 70µs, and spilling TwoPhase RM=8 that way took 1.7 times as long;
// pread and pwrite copy a block in or out at about 1µs a page.
type spillFile struct {
	mu     sync.Mutex
	f      *os.File
	size   int64 // bytes of the file
	region int   // bytes of a region
	keysAt int   // offset of the keys in a region
	free   []int64
	bufs   []words // free buffers
	err    error   // the first I/O error
}

// diskBlock is the spill state of a block, guarded by sf.mu.
type diskBlock struct {
	sf    *spillFile
	off   int64 // of the block's region
	buf   words // while the block is in memory
	pins  int
	dirty bool // the buffer has changes the region has not
}

// newSpillFile creates the file in dir for blocks of blockLen states of
// stateSize bytes.
func newSpillFile(dir string, stateSize uintptr) (*spillFile, error) {
	f, err := os.CreateTemp(dir, "explorer-spill-*")
	if err != nil {
		return nil, fmt.Errorf("explorer: creating the spill file: %w", err)
	}
	_ = os.Remove(f.Name()) // unlinked: gone when closed or on exit
	states := roundUp(int(uintptr(blockLen)*stateSize), 8)
	return &spillFile{f: f, region: states + blockLen*4, keysAt: states}, nil
}

func roundUp(n, to int) int { return (n + to - 1) / to * to }

// newDiskBlock returns a block in a free region, in memory and unpinned.
func newDiskBlock[S any](sf *spillFile) *block[S] {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	off := sf.size
	if n := len(sf.free); n > 0 {
		off, sf.free = sf.free[n-1], sf.free[:n-1]
	} else {
		sf.size += int64(sf.region)
	}
	b := &block[S]{disk: &diskBlock{sf: sf, off: off, buf: sf.buffer(), dirty: true}}
	b.bind()
	return b
}

// buffer returns a free buffer (sf.mu held).
func (sf *spillFile) buffer() words {
	if n := len(sf.bufs); n > 0 {
		b := sf.bufs[n-1]
		sf.bufs = sf.bufs[:n-1]
		return b
	}
	return allocWordsOffHeap(sf.region / 8)
}

func bytesOf(w words) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&w.w[0])), len(w.w)*8)
}

// bind points the block's states and keys at its buffer.
func (b *block[S]) bind() {
	d := b.disk
	mem := bytesOf(d.buf)
	b.keys = unsafe.Slice((*uint32)(unsafe.Pointer(&mem[d.sf.keysAt])), blockLen)
	if d.sf.keysAt > 0 {
		b.states = unsafe.Slice((*S)(unsafe.Pointer(&mem[0])), blockLen)
	} else {
		b.states = make([]S, blockLen) // zero-size S
	}
}

// pin brings a spilled block into memory and keeps it there until the
// matching unpin; write says the caller changes it. A block in memory
// anyway needs no pin.
func (b *block[S]) pin(write bool) {
	if b == nil || b.disk == nil {
		return
	}
	d := b.disk
	d.sf.mu.Lock()
	defer d.sf.mu.Unlock()
	if d.buf.w == nil {
		d.buf = d.sf.buffer()
		if _, err := d.sf.f.ReadAt(bytesOf(d.buf), d.off); err != nil {
			d.sf.fail(fmt.Errorf("reading a spilled block back: %w (the results are not reliable)", err))
		}
		b.bind()
	}
	d.pins++
	d.dirty = d.dirty || write
}

// unpin ends a pin; after the last one a spilled block goes back to its
// region (written if it changed) and its buffer is freed. If the write
// fails the block stays in memory: no state is lost.
func (b *block[S]) unpin() {
	if b == nil || b.disk == nil {
		return
	}
	d := b.disk
	d.sf.mu.Lock()
	defer d.sf.mu.Unlock()
	if d.pins--; d.pins > 0 {
		return
	}
	if d.dirty {
		if _, err := d.sf.f.WriteAt(bytesOf(d.buf), d.off); err != nil {
			d.sf.fail(fmt.Errorf("writing a block to the spill file: %w", err))
			d.pins = 1 << 30 // keep it
			return
		}
		d.dirty = false
	}
	d.sf.bufs = append(d.sf.bufs, d.buf)
	d.buf = words{}
	b.states, b.keys = nil, nil
}

// fail records the first I/O error (sf.mu held).
func (sf *spillFile) fail(err error) {
	if sf.err == nil {
		sf.err = fmt.Errorf("explorer: spill file: %w", err)
	}
}

// failed returns the first I/O error, if any.
func (sf *spillFile) failed() error {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	return sf.err
}

// give takes back the region (and the buffer, if any) of a spilled
// block whose level is done with.
func (sf *spillFile) give(d *diskBlock) {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	if d.buf.w != nil {
		sf.bufs = append(sf.bufs, d.buf)
	}
	sf.free = append(sf.free, d.off)
	*d = diskBlock{}
}

func (sf *spillFile) close() {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	for i := range sf.bufs {
		sf.bufs[i].free()
	}
	sf.bufs = nil
	_ = sf.f.Close()
}
