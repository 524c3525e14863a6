// Package twophase is Gray and Lamport's TwoPhase commit protocol as an
// explorer.Model, used to validate and benchmark the explorer against
// state counts published for TLC.
//
// The model follows TwoPhase.tla of github.com/tlaplus/Examples: rmState
// ∈ {working, prepared, committed, aborted} per resource manager (RM),
// tmState ∈ {init, committed, aborted}, tmPrepared ⊆ RM, and msgs ⊆
// {Prepared(r)} ∪ {Commit, Abort}; actions TMRcvPrepared(r), TMCommit,
// TMAbort, RMPrepare(r), RMChooseToAbort(r), RMRcvCommitMsg(r) and
// RMRcvAbortMsg(r). Its sizes match TLC: 288 distinct / 1,146 generated
// states for 3 RMs, 10,340,352 / 123,558,402 for 9 and 61,515,776
// distinct for 10 (generated counts the initial state plus every
// successor of an enabled action, self-loops included).
//
// # Usage
//
//	m, props := twophase.New(9) // TCConsistent, SomeCommitted, SomeAborted
//	r := explorer.Check(m, props, explorer.Options{Workers: 2})
//
// NewEagerCommit is a broken variant (RM 0 commits without the TM's
// Commit) whose shortest counterexample to TCConsistent has 3 steps.
// Benchmarks: go test ./explorer/twophase -run '^$' -bench 'TwoPhase/rm=9'
// -benchtime 1x; a single measured run: TWOPHASE_RM=9 TWOPHASE_WORKERS=2
// go test ./explorer/twophase -run TestMeasure -v.
//
// # Implementation notes
//
// A State is one uint64 (see State for the bit layout, up to 15 RMs);
// sets are bit sets, so the packing is canonical and Encode is the 8
// little-endian bytes. Actions lists only enabled actions, in a fixed
// order; Next checks the same guards. TCConsistent is two mask
// operations: committed and aborted RMs are told apart by the two bits
// of each rmState field.
package twophase
