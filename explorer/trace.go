package explorer

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
)

// traceStore keeps the parent key of every committed state, level by
// level in BFS order: 8 bytes per state, in a temporary file (as TLC's
// trace file) so that predecessor links cost no resident memory. Level 0
// stores the index of the state in Model.Init. Paths are rebuilt from it
// by re-execution (path.go).
type traceStore struct {
	f      *os.File
	w      *bufio.Writer
	mem    []uint64 // used when no file could be created
	starts []int64  // starts[d] = index of the first key of level d
	n      int64
	err    error
	buf    [8]byte
	bulk   []byte
}

func newTraceStore(dir string) *traceStore {
	t := &traceStore{}
	f, err := os.CreateTemp(dir, "explorer-trace-*")
	if err == nil {
		_ = os.Remove(f.Name()) // unlinked: gone when closed or on exit
		t.f = f
		t.w = bufio.NewWriterSize(f, 1<<20)
	}
	return t
}

// appendLevel stores the keys of one numbered level, pinning its
// spilled blocks one at a time.
func appendLevel[S any](t *traceStore, lv *level[S]) {
	t.starts = append(t.starts, t.n)
	var on *block[S]
	for _, s := range lv.segs {
		if s.blk != on {
			on.unpin()
			on = s.blk
			on.pin(false)
		}
		_, keys := s.view()
		if t.w == nil {
			for _, k := range keys {
				t.mem = append(t.mem, s.keyBase+uint64(k))
			}
		} else if t.err == nil {
			t.bulk = t.bulk[:0]
			for _, k := range keys {
				t.bulk = binary.LittleEndian.AppendUint64(t.bulk, s.keyBase+uint64(k))
			}
			if _, err := t.w.Write(t.bulk); err != nil {
				t.err = err
			}
		}
		t.n += int64(len(keys))
	}
	on.unpin()
}

// key returns the parent key of the state at pos in level d.
func (t *traceStore) key(d int, pos int64) (uint64, error) {
	i := t.starts[d] + pos
	if t.w == nil {
		return t.mem[i], nil
	}
	if t.err != nil {
		return 0, t.err
	}
	if t.w.Buffered() > 0 {
		if err := t.w.Flush(); err != nil {
			t.err = err
			return 0, err
		}
	}
	if _, err := t.f.ReadAt(t.buf[:], i*8); err != nil {
		return 0, fmt.Errorf("explorer: reading trace file: %w", err)
	}
	return binary.LittleEndian.Uint64(t.buf[:]), nil
}

func (t *traceStore) close() {
	if t.f != nil {
		_ = t.f.Close()
	}
}
