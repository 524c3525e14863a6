package harness

// Fault is a deliberately broken application around a correct client library: the broken
// clients the oracle must catch (issue 7 item 3). A fault changes what the application does
// and records, never what the library does; drivers that do not implement one refuse it.
type Fault int

const (
	// NoFault is a correct application.
	NoFault Fault = iota
	// EarlyRevokeAck acknowledges a revoke before finishing its work: its revoke callback
	// hands the partitions' work to a goroutine and returns to kgo at once, so kgo frees the
	// partitions, while the application keeps working on them for Timing.LateAck. Its revoke
	// really ends when that work does, and that is when it is recorded; the next owner's
	// assign then begins before it (revoke-before-assign).
	EarlyRevokeAck
	// SkipLost ignores onPartitionsLost: after it learned it was fenced the application still
	// believes it owns what it lost, and no lost is recorded.
	SkipLost
	// LateCommit flushes its work's offsets late: its revoke callback returns at once (and is
	// recorded so), and a background worker commits the revoked partitions' offsets
	// Timing.LateAck/2 later, when the partitions have moved on. The coordinator should refuse
	// that commit; where it accepts it, the history shows an accepted commit from a non-owner
	// (commit-from-owner).
	LateCommit
)

func (f Fault) String() string {
	switch f {
	case NoFault:
		return "none"
	case EarlyRevokeAck:
		return "early-revoke-ack"
	case SkipLost:
		return "skip-lost"
	case LateCommit:
		return "late-commit"
	}
	return "fault?"
}
