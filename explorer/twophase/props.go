package twophase

import "github.com/groupcheck/groupcheck/explorer"

// New returns TwoPhase with rm resource managers and its properties:
// TCConsistent (Always) and SomeCommitted, SomeAborted (Sometimes).
//
// Reference: TwoPhase.tla and TCommit.tla (Gray & Lamport, "Consensus on
// Transaction Commit", 2006), as in github.com/tlaplus/Examples.
func New(rm int) (*Model, []explorer.Property[State]) {
	m := newModel(rm)
	return m, m.Properties()
}

// NewEagerCommit returns a broken TwoPhase in which RM 0 may commit as
// soon as it has prepared, without the TM's Commit message. It violates
// TCConsistent.
func NewEagerCommit(rm int) (*Model, []explorer.Property[State]) {
	m := newModel(rm)
	m.eagerCommit = true
	return m, m.Properties()
}

// Properties returns the properties of TwoPhase.
func (m *Model) Properties() []explorer.Property[State] {
	return []explorer.Property[State]{
		{Name: "TCConsistent", Kind: explorer.Always, Check: m.TCConsistent},
		{Name: "SomeCommitted", Kind: explorer.Sometimes, Check: func(s State) bool {
			return m.committedMask(s) != 0
		}},
		{Name: "SomeAborted", Kind: explorer.Sometimes, Check: func(s State) bool {
			return m.abortedMask(s) != 0
		}},
	}
}

// TCConsistent is the invariant of TCommit.tla: no RM has committed
// while another has aborted.
func (m *Model) TCConsistent(s State) bool {
	return m.committedMask(s) == 0 || m.abortedMask(s) == 0
}

// CommittedWhileTMAborted is a Sometimes property that TwoPhase never
// satisfies (an RM commits only on the TM's Commit message), for tests
// of the Unreached verdict.
func (m *Model) CommittedWhileTMAborted() explorer.Property[State] {
	return explorer.Property[State]{Name: "CommittedWhileTMAborted", Kind: explorer.Sometimes,
		Check: func(s State) bool { return m.committedMask(s) != 0 && m.TMState(s) == TMAborted }}
}
