//go:build linux

package explorer

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// mmapThreshold is the size from which tables live outside the Go heap,
// so that their memory is returned to the OS the moment they are freed
// (the Go heap would keep up to GOGC% garbage on top of the live set).
const mmapThreshold = 64 << 10

// allocWords returns n zeroed words.
func allocWords(n int) words {
	if n*8 < mmapThreshold {
		return words{w: make([]uint64, n)}
	}
	return allocWordsOffHeap(n)
}

// allocWordsOffHeap returns n zeroed words outside the Go heap, if it
// can. The words must hold no pointers.
func allocWordsOffHeap(n int) words {
	size := n * 8
	if size == 0 {
		return words{}
	}
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return words{w: make([]uint64, n)}
	}
	return words{w: unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n), raw: b}
}

func (w *words) free() {
	if w.raw != nil {
		_ = syscall.Munmap(w.raw)
	}
	*w = words{}
}

// residentBytes returns the resident set size of the process, or 0.
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(string(f[1]), 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}
