package explorer

// ResidentBytes returns the resident set size of the process in bytes, or 0 if it cannot be
// read: what Options.MaxMemory bounds. Checkers outside the explorer (the liveness graph)
// use it to honour the same bound.
func ResidentBytes() uint64 { return residentBytes() }
