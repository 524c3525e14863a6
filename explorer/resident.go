package explorer

// ResidentBytes returns the resident set size of the process in bytes, or 0 if it cannot be
// read: what Options.MaxMemory bounds. Checkers outside the explorer (the liveness graph)
// use it to honour the same bound.
func ResidentBytes() uint64 { return residentBytes() }

// PeakResidentBytes returns the largest resident set the process has had so far (Linux's
// VmHWM), or, where the platform does not say, the resident set now. A run that does more
// than the search (the liveness graph) reports this as its peak, not the search's sample.
func PeakResidentBytes() uint64 { return peakResidentBytes() }
