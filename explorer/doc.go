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
// workers (expand.go), then committed (commit.go); the phases are
// separated by barriers, which keeps the concurrent structures simple:
// the visited set is only read during expansion and only written during
// commit.
//
// Determinism. Every state found in a level gets a parent key (position
// of the parent in its level, index of the action; frontier.go), and a
// state reached by several parents of the same level keeps the
// smallest key: the claims table (claims.go) holds, per fingerprint of
// the level, the minimum key, lowered by a lock-free CAS-min. A worker
// that displaces a key logs it as a loser. Work units are contiguous
// slices of the current level handed out in order; the records of unit
// u are gathered in unit order, so the next level comes out sorted by
// parent key, and commit drops the records whose keys lost. The minimum
// does not depend on which worker got there first, hence neither the
// order of the next level nor any parent: by induction every level is in
// the same order for any number of workers, and the path to a state is
// the first of its shortest paths in BFS order. MaxStates cuts a level
// at a position of that order, and properties are decided at the
// smallest deciding position, so both are deterministic too.
//
// Visited set (table.go). 64-bit fingerprints of Model.Encode (hash.go:
// our own multiply-fold hash in the style of wyhash; 0 is remapped, as it
// marks an empty slot). 16 shards of uint64 slots with ordered linear
// probing at up to 93% load: the home slot is a monotone function of the
// fingerprint and each shard stays sorted, so a miss stops at the first
// larger fingerprint instead of scanning the cluster. Commit collects
// the level's new fingerprints by shard, then hands each shard to one
// worker, which sorts them and merges them into the shard in place, in
// one sequential pass (batch.go), growing it first to 75% load if it
// would pass 93%; a batch small next to the shard is put one by one in
// ascending order instead. No locks, and a shard grows at most once per
// level, within its reservation: no second table, no copy.
//
// Expansion, per parent: generate the successors, skip self-loops
// (fingerprint equal to the parent's, which is already visited), touch
// the claims and visited slots of all successors in a tight loop so that
// their cache misses overlap, then claim each one: a fingerprint already
// claimed in this level is settled in the claims table (most successors
// are such duplicates); the others are looked up in the visited set and
// inserted in the claims table if new. The claims table is sized before
// each batch of units (a rehash, by all workers) and spills to a locked
// overflow map if a batch produces more than expected, so it never
// resizes under the workers.
//
// Memory layout. Off the Go heap (mmap, mem_linux.go), so that freeing
// returns memory at once and the GC neither scans nor counts it: the
// visited set, 8 bytes / load (0.75–0.93) per distinct state, each shard
// a prefix of 1 GiB of reserved address space (MAP_NORESERVE: only the
// prefix in use is resident); the claims table, 16 bytes / load
// (0.70–0.81) per state of the level being expanded, freed before
// commit; commit's fingerprint buffers, 8 bytes per state of the level
// being committed, freed after it; the frontier, for the current level
// the state values and for the next one the state values plus a 4-byte
// parent key relative to the unit (fixed blocks of 4096 records,
// recycled, trimmed to the width of the level; a state type with
// pointers uses Go-heap blocks instead). The big tables ask for
// transparent huge pages (MADV_HUGEPAGE, on 2 MiB-aligned memory; for a
// growing shard, only on the whole huge pages in use), since their
// random probes would otherwise miss the TLB on nearly every access.
// Scratch memory on the Go heap is reused from level to level, so the
// run leaves little garbage. Parent keys of committed levels go to an
// unlinked temporary file (trace.go, TLC's trace file: 8 bytes per state
// on disk, none in memory). Paths are rebuilt from it by re-execution
// (path.go): follow the keys back to an initial state, then replay
// Actions/Next forward, checking that the last fingerprint matches. For
// TwoPhase (8-byte states) this comes to 15–16 bytes of resident memory
// per distinct state at the peak, which is reached while the widest
// level is expanded.
//
// Memory bounds (memory.go). Under Options.MaxMemory the run forecasts,
// before each level, the resident peak of expanding it and committing
// the next one, step by step (the claims table and its rehash, the next
// frontier, commit's buffers, the growth of each visited shard), and
// stops at that level boundary if the peak would pass the limit minus a
// guard, after trying to spill; after the expansion, when the width of
// the next level is known, it checks the commit again. A level much
// wider than forecast is caught by sampling, every 10ms by the monitor
// and every 4096 successors by each worker (stopCheckEvery): the level
// in progress is discarded. Either way the report describes complete
// levels.
//
// Spilling (spill.go, rebuild.go). The blocks of a spilled level of
// pointer-free states live in an unlinked temporary file and are read
// into memory only while a pass (expansion, commit's filter and checks,
// the trace) works on them, so the frontier costs a few blocks per
// worker of memory; the visited set, the claims table of the level being
// expanded and commit's buffers are what remains. States with pointers
// cannot be written without a codec; their next level keeps a
// fingerprint and a parent key per record, and commit rebuilds the
// states by re-executing one step from the parents, which halves the
// states alive (rebuild.go weighs this against re-execution from the
// initial states, which costs the depth in steps per state). Spilling
// changes no result: tests compare whole reports with and without it.
//
// Fingerprints can collide, which would silently merge two states (the
// usual risk of hash compaction); Report.Collision gives the optimistic
// estimate n²/2⁶⁵.
//
// Symmetry reduction lives in Model.Encode: a model that encodes a
// canonical representative of each orbit (twophase.NewSymmetric,
// invariants.NewSymmetric) is explored one state per orbit while paths stay
// real states. Liveness is checked outside the explorer, on a graph with
// labelled edges (invariants.Liveness).
//
// Partial-order reduction (reduce.go): a model that implements Reducer
// names an ample set for a state, and the explorer generates only its
// successors, subject to the cycle proviso, which it checks by a lookup
// in the visited set (every ample successor on the next level) unless the
// model's ample steps cannot form a cycle (invariants.Reduced).
//
// Compact frontiers (compact.go). A model whose states hold pointers can
// be explored through a Codec that packs each state into a fixed,
// pointer-free record (Compact): the explorer then keeps the frontier
// off the Go heap and can spill it whole, the record carries the
// fingerprint of the model's own encoding, and a report maps back to the
// model's states. The Kafka worlds are packed by their distinct parts
// (spec.Packer, COLLAPSE compression), 44 bytes a world instead of about
// 2 KB of Go heap. A compacted model's successors are fingerprinted first
// and packed only when the search keeps them, by a Repacker when the codec
// is one (the parent's untouched parts keep their indices).
package explorer
