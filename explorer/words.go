package explorer

// words is a zeroed []uint64 that may live outside the Go heap (see
// allocWords in mem_linux.go); free must be called exactly once.
type words struct {
	w   []uint64
	raw []byte // the mapping, if any

	trimmed bool // raw is part of a larger mapping (mem_linux.go)
}
