// Package explorer is a generic, exhaustive, bounded breadth-first model
// checker. It knows nothing about Kafka: it explores any [Model] (initial
// states, actions, a next-state function and a canonical encoding) and
// judges a list of [Property] values on every reachable state.
//
// Guarantees:
//
//   - Breadth-first, so every counterexample is a shortest one. Among
//     shortest paths it is the first in BFS order: compare paths by the
//     index of each action in the list Model.Actions returns.
//   - Deterministic: Distinct, Generated, Depth, Levels, Coverage, the
//     verdicts and every path are the same for any number of workers
//     (MaxTime and MaxMemory excepted, which depend on the clock and the
//     machine).
//   - Honest: Report.Exhaustive is true only if every reachable state was
//     explored; otherwise Report.StoppedBy names the bound.
//
// Verdicts: an Always property is Violated at the shallowest state where
// Check fails, and Holds only after an exhaustive run. A Sometimes
// property Holds once a state satisfies it; after an exhaustive run
// without such a state it is Unreached, and callers should fail the run
// as vacuous. Undecided properties of a bounded run are Unknown. Every
// decided property carries a path to the state that decided it.
//
// The run stops early when every Always property is violated (there is
// nothing left to learn about them) or, with Options.StopOnViolation, at
// the end of the level where the first one is; StoppedBy is then
// "violation".
//
// # Usage
//
//	m, props := twophase.New(9)
//	r := explorer.Check(m, props, explorer.Options{Progress: os.Stderr})
//	if !r.Exhaustive {
//		log.Printf("bounded by %s", r.StoppedBy)
//	}
//	for _, p := range r.Properties {
//		if p.Status == explorer.Violated || p.Status == explorer.Unreached {
//			log.Printf("%s %s: %v", p.Kind, p.Name, p.Path)
//		}
//	}
//
// Tests pin Distinct (stateright's 2pc example pins 288 states for three
// resource managers); a change in the state space then fails loudly.
//
// # Implementation notes
//
// Search. Level-synchronous BFS (bfs.go). Each level is expanded by all
// workers (expand.go), then committed (commit.go); the two phases are
// separated by barriers, which is what makes the concurrent structures
// simple.
//
// Determinism. Every state found in a level gets a parent key (position
// of the parent in its level, index of the action), and a state reached
// by several parents of the same level keeps the smallest key: the
// claims table (claims.go) keeps, per fingerprint, the minimum key by a
// lock-free CAS-min. Work units are contiguous slices of the current
// level; records produced by unit u are gathered in unit order, so the
// next level comes out sorted by parent key, then commit drops every
// record whose key is not its state's minimum. The minimum does not
// depend on which worker got there first, hence neither the order of
// the next level nor any parent: by induction every level is in the
// same order for any number of workers. MaxStates cuts a level at a
// position of that order, and properties are decided at the smallest
// violating position, so both are deterministic too.
//
// Visited set (table.go). 64-bit fingerprints of Model.Encode (hash.go:
// our own multiply-fold hash in the style of wyhash; 0 is remapped, as it
// marks an empty slot). The table has 16 shards of uint64 slots with
// ordered linear probing at up to 90% load: the home slot is a monotone
// function of the fingerprint and each shard stays sorted, so lookups
// stop at the first larger fingerprint. It is read without locks during
// expansion and written under per-shard mutexes during commit; a shard
// grows (to 70% load, by a linear merge) under its own mutex, so the
// transient of a resize is one shard. Tables and pointer-free frontier
// blocks are mmap'd outside the Go heap (mem_linux.go), so freeing them
// returns memory at once and the GC neither scans them nor counts them
// in its heap goal.
//
// Expansion touches the claims and visited slots of all successors of a
// state in a tight loop before probing them, so that their cache misses
// overlap instead of queueing. Successors are looked up in the (smaller)
// claims table first: most are duplicates within the level, and only
// the others need the visited set.
//
// Memory layout, per distinct state: 8 bytes / load (0.7–0.9) in the
// visited set, plus for the current and next levels only: the state
// value and an 8-byte parent key per record (frontier.go: fixed blocks
// of 4096 records, recycled), and 16 bytes / load per state of the next
// level in the claims table. Parent keys of committed levels are
// written to an unlinked temporary file (trace.go, TLC's trace file: 8
// bytes per state on disk, none in memory). Paths are rebuilt from it by
// re-execution (path.go): follow the keys back to an initial state, then
// replay Actions/Next forward, checking that the last fingerprint
// matches. Fingerprint collisions make the search unsound in the usual
// way; Report.Collision gives the optimistic estimate n²/2⁶⁵.
//
// Room left for later: symmetry reduction belongs in Model.Encode
// (encode a canonical representative); liveness (Eventually) needs the
// graph edges, which could be written to the trace file alongside the
// parent keys; the frontier could spill to disk, as its blocks are
// already written and read sequentially.
package explorer
