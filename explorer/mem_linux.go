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

// hugeThreshold is the size from which a mapping asks for transparent
// huge pages (MADV_HUGEPAGE, honoured in the "madvise" and "always"
// modes of /sys/kernel/mm/transparent_hugepage/enabled).
const (
	hugePage      = 2 << 20
	hugeThreshold = 2 * hugePage
	madvHugepage  = 14
	pageSize      = 4096
)

// allocWords returns n zeroed words.
func allocWords(n int) words {
	if n*8 < mmapThreshold {
		return words{w: make([]uint64, n)}
	}
	return allocWordsOffHeap(n)
}

// allocWordsOffHeap returns n zeroed words outside the Go heap, if it
// can. The words must hold no pointers. A big mapping starts on a huge
// page boundary and asks for transparent huge pages: random probes into
// big tables miss the TLB on nearly every access with 4 KiB pages.
func allocWordsOffHeap(n int) words {
	size := n * 8
	if size == 0 {
		return words{}
	}
	span := size
	if size >= hugeThreshold {
		span += hugePage
	}
	b, err := syscall.Mmap(-1, 0, span, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return words{w: make([]uint64, n)}
	}
	if span == size {
		return words{w: unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n), raw: b}
	}
	// Keep the huge-page-aligned part and unmap the rest: syscall.Munmap
	// of the whole span would later unmap whatever the kernel put into
	// the holes, so free unmaps the part it keeps by itself.
	p := uintptr(unsafe.Pointer(&b[0]))
	head := int((hugePage - p%hugePage) % hugePage)
	end := head + (size+pageSize-1)/pageSize*pageSize
	unmap(b[:head])
	unmap(b[end:])
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, p+uintptr(head), uintptr(end-head), madvHugepage)
	return words{w: unsafe.Slice((*uint64)(unsafe.Pointer(&b[head])), n), raw: b[head:end:end], trimmed: true}
}

// reserveWords returns n (≥ need) zeroed words of address space outside
// the Go heap, of which only the pages touched become resident. Used
// with hugePages, which turns on huge pages for the prefix in use.
func reserveWords(need, n int) words {
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_ANON|syscall.MAP_PRIVATE|syscall.MAP_NORESERVE)
	if err != nil {
		return words{w: make([]uint64, n)}
	}
	return words{w: unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n), raw: b}
}

// hugePages asks for huge pages on the whole huge pages within the first
// n words of a reservation (the last, partly used one would otherwise
// be resident in full).
func hugePages(r words, n int) {
	if r.raw == nil || n*8 < hugeThreshold {
		return
	}
	p := uintptr(unsafe.Pointer(&r.raw[0]))
	lo := (p + hugePage - 1) / hugePage * hugePage
	hi := (p + uintptr(n*8)) / hugePage * hugePage
	if hi > lo {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, madvHugepage)
	}
}

// unmap unmaps part of a mapping.
func unmap(b []byte) {
	if len(b) > 0 {
		_, _, _ = syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), 0)
	}
}

func (w *words) free() {
	if w.trimmed {
		unmap(w.raw)
	} else if w.raw != nil {
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

func peakResidentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(b) {
		kb, ok := bytes.CutPrefix(line, []byte("VmHWM:"))
		if !ok {
			continue
		}
		f := bytes.Fields(kb) // "1234", "kB"
		if len(f) == 0 {
			return 0
		}
		n, err := strconv.ParseUint(string(f[0]), 10, 64)
		if err != nil {
			return 0
		}
		return n << 10
	}
	return 0
}
