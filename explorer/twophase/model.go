package twophase

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// Resource-manager states, as in TwoPhase.tla.
const (
	Working   = 0
	Prepared  = 1
	Committed = 2
	Aborted   = 3
)

// Transaction-manager states.
const (
	TMInit      = 0
	TMCommitted = 1
	TMAborted   = 2
)

// MaxRM is the largest number of resource managers a State can hold.
const MaxRM = 15

// State is one state of TwoPhase packed into 64 bits, for R resource
// managers:
//
//	bits [0, 2R)       rmState[r] in bits 2r, 2r+1 (Working..Aborted)
//	bits [2R, 2R+2)    tmState (TMInit, TMCommitted, TMAborted)
//	bits [2R+2, 3R+2)  tmPrepared, bit r set iff r ∈ tmPrepared
//	bits [3R+2, 4R+2)  msgs: bit r set iff [type |-> "Prepared", rm |-> r] ∈ msgs
//	bit  4R+2          [type |-> "Commit"] ∈ msgs
//	bit  4R+3          [type |-> "Abort"] ∈ msgs
//
// Sets are bit sets, so the packing is canonical: equal states have
// equal words.
type State uint64

// Action kinds, in the order of ActionKinds.
const (
	TMCommit = iota
	TMAbort
	TMRcvPrepared
	RMPrepare
	RMChooseToAbort
	RMRcvCommitMsg
	RMRcvAbortMsg
	numKinds
)

var kindNames = [numKinds]string{
	"TMCommit", "TMAbort", "TMRcvPrepared", "RMPrepare",
	"RMChooseToAbort", "RMRcvCommitMsg", "RMRcvAbortMsg",
}

// Action is an action kind and, for the per-RM actions, the RM index.
type Action struct {
	Kind uint8
	RM   uint8
}

func (a Action) String() string {
	if a.Kind <= TMAbort {
		return kindNames[a.Kind]
	}
	return fmt.Sprintf("%s(%d)", kindNames[a.Kind], a.RM)
}

// Model is TwoPhase with a fixed number of resource managers. It
// implements explorer.Model[State, Action].
type Model struct {
	rm int
	// eagerCommit is the mutant: RM 0 commits as soon as it has
	// prepared, without waiting for the TM's Commit message.
	eagerCommit bool

	rmMask   uint64 // the low bit of each rmState field
	tmShift  uint
	prepShft uint // tmPrepared
	msgShift uint // Prepared(r) messages
	commit   uint64
	abort    uint64
	allRM    uint64
}

func newModel(rm int) *Model {
	if rm < 1 || rm > MaxRM {
		panic(fmt.Sprintf("twophase: %d resource managers, want 1..%d", rm, MaxRM))
	}
	r := uint(rm)
	m := &Model{rm: rm, tmShift: 2 * r, prepShft: 2*r + 2, msgShift: 3*r + 2}
	m.commit = 1 << (4*r + 2)
	m.abort = 1 << (4*r + 3)
	m.allRM = 1<<r - 1
	for i := range r {
		m.rmMask |= 1 << (2 * i)
	}
	return m
}

// RM returns the number of resource managers.
func (m *Model) RM() int { return m.rm }

// RMState returns rmState[r].
func (m *Model) RMState(s State, r int) int { return int(s>>(2*uint(r))) & 3 }

// TMState returns tmState.
func (m *Model) TMState(s State) int { return int(s>>m.tmShift) & 3 }

func (m *Model) tmPrepared(s State) uint64 { return uint64(s>>m.prepShft) & m.allRM }
func (m *Model) prepMsgs(s State) uint64   { return uint64(s>>m.msgShift) & m.allRM }

// Init is TPInit: every RM working, TM in init, no messages.
func (m *Model) Init() []State { return []State{0} }

// ActionKinds implements explorer.Model.
func (m *Model) ActionKinds() []string { return kindNames[:] }

// ActionKind implements explorer.Model.
func (m *Model) ActionKind(a Action) int { return int(a.Kind) }

// Encode appends the state word, little-endian.
func (m *Model) Encode(s State, buf []byte) []byte {
	return binary.LittleEndian.AppendUint64(buf, uint64(s))
}

// Actions appends the enabled actions of s in a fixed order: TMCommit,
// TMAbort, then for each RM r: TMRcvPrepared(r), RMPrepare(r),
// RMChooseToAbort(r), RMRcvCommitMsg(r), RMRcvAbortMsg(r).
func (m *Model) Actions(s State, buf []Action) []Action {
	x := uint64(s)
	tmInit := m.TMState(s) == TMInit
	if tmInit {
		if m.tmPrepared(s) == m.allRM {
			buf = append(buf, Action{Kind: TMCommit})
		}
		buf = append(buf, Action{Kind: TMAbort})
	}
	prep := m.prepMsgs(s)
	commit, abort := x&m.commit != 0, x&m.abort != 0
	for r := range m.rm {
		rm := uint8(r)
		st := x >> (2 * uint(r)) & 3
		if tmInit && prep>>uint(r)&1 == 1 {
			buf = append(buf, Action{Kind: TMRcvPrepared, RM: rm})
		}
		if st == Working {
			buf = append(buf, Action{Kind: RMPrepare, RM: rm}, Action{Kind: RMChooseToAbort, RM: rm})
		}
		if commit || m.eagerCommit && r == 0 && st == Prepared {
			buf = append(buf, Action{Kind: RMRcvCommitMsg, RM: rm})
		}
		if abort {
			buf = append(buf, Action{Kind: RMRcvAbortMsg, RM: rm})
		}
	}
	return buf
}

// enabled is the guard of each action of TwoPhase.tla.
func (m *Model) enabled(s State, a Action) bool {
	r := uint(a.RM)
	switch a.Kind {
	case TMCommit:
		return m.TMState(s) == TMInit && m.tmPrepared(s) == m.allRM
	case TMAbort:
		return m.TMState(s) == TMInit
	case TMRcvPrepared:
		return m.TMState(s) == TMInit && m.prepMsgs(s)>>r&1 == 1
	case RMPrepare, RMChooseToAbort:
		return m.RMState(s, int(r)) == Working
	case RMRcvCommitMsg:
		if m.eagerCommit && r == 0 && m.RMState(s, 0) == Prepared {
			return true
		}
		return uint64(s)&m.commit != 0
	case RMRcvAbortMsg:
		return uint64(s)&m.abort != 0
	}
	return false
}

// Next applies a, and reports false when a is not enabled in s.
func (m *Model) Next(s State, a Action) (State, bool) {
	if int(a.RM) >= m.rm || !m.enabled(s, a) {
		return s, false
	}
	r := uint(a.RM)
	x := uint64(s)
	switch a.Kind {
	case TMCommit:
		x = x&^(3<<m.tmShift) | TMCommitted<<m.tmShift | m.commit
	case TMAbort:
		x = x&^(3<<m.tmShift) | TMAborted<<m.tmShift | m.abort
	case TMRcvPrepared:
		x |= 1 << (m.prepShft + r)
	case RMPrepare:
		x = setRM(x, r, Prepared) | 1<<(m.msgShift+r)
	case RMChooseToAbort, RMRcvAbortMsg:
		x = setRM(x, r, Aborted)
	case RMRcvCommitMsg:
		x = setRM(x, r, Committed)
	}
	return State(x), true
}

func setRM(x uint64, r uint, v uint64) uint64 {
	return x&^(3<<(2*r)) | v<<(2*r)
}

// committedMask and abortedMask have bit 2r set iff RM r is committed
// (resp. aborted).
func (m *Model) committedMask(s State) uint64 {
	lo, hi := uint64(s)&m.rmMask, uint64(s)>>1&m.rmMask
	return hi &^ lo
}

func (m *Model) abortedMask(s State) uint64 {
	lo, hi := uint64(s)&m.rmMask, uint64(s)>>1&m.rmMask
	return hi & lo
}

// Format renders s, e.g. "rm=[prepared working] tm=init tmPrepared={0} msgs={Prepared(0)}".
func (m *Model) Format(s State) string {
	rmNames := [...]string{"working", "prepared", "committed", "aborted"}
	tmNames := [...]string{"init", "committed", "aborted", "?"}
	var b strings.Builder
	b.WriteString("rm=[")
	for r := range m.rm {
		if r > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(rmNames[m.RMState(s, r)])
	}
	fmt.Fprintf(&b, "] tm=%s tmPrepared={", tmNames[m.TMState(s)])
	sep := ""
	for r := range m.rm {
		if m.tmPrepared(s)>>r&1 == 1 {
			fmt.Fprintf(&b, "%s%d", sep, r)
			sep = ","
		}
	}
	b.WriteString("} msgs={")
	sep = ""
	for r := range m.rm {
		if m.prepMsgs(s)>>r&1 == 1 {
			fmt.Fprintf(&b, "%sPrepared(%d)", sep, r)
			sep = ","
		}
	}
	if uint64(s)&m.commit != 0 {
		b.WriteString(sep + "Commit")
		sep = ","
	}
	if uint64(s)&m.abort != 0 {
		b.WriteString(sep + "Abort")
	}
	b.WriteByte('}')
	return b.String()
}
