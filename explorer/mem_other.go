//go:build !linux

package explorer

import "runtime/metrics"

func allocWords(n int) words { return words{w: make([]uint64, n)} }

func allocWordsOffHeap(n int) words { return allocWords(n) }

// reserveWords returns at least need zeroed words; without lazy
// mappings a reservation costs its whole size, so it is kept small.
func reserveWords(need, _ int) words { return allocWords(need + need/4) }

func hugePages(words, int) {}

func (w *words) free() { *w = words{} }

// residentBytes approximates the resident set by the memory the Go
// runtime has mapped.
func residentBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

func peakResidentBytes() uint64 { return residentBytes() }
