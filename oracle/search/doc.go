// Package search judges a history by the reference: it searches the reference coordinator
// (impl/coordinator for classic groups, impl/kip848 for KIP-848) for a behaviour that produces
// every recorded answer, as TLA+ trace validation does (Cirstea, Kuppe, Loillier, Merz,
// "Validating Traces of Distributed Programs Against TLA+ Specifications", 2024). What the
// history records constrains the steps; what it does not record (timers, the order in which
// the coordinator handles concurrent requests, requests without an answer, join versions,
// subscriptions, the assignor's choices) is searched.
//
// It has two drivers over one step, so that there is one model of the coordinator:
//
//   - Checker (New) reads the history in order and keeps the frontier, every behaviour that
//     explains the history so far; oracle.Check and check-history use it by default.
//   - Linearize (Collector) gives the requests to porcupine, which orders them, each placed
//     between its begin and its end, and judges each order by the same step (linModel): the
//     linearizability view, with porcupine's visualization of a failure (Visualize). It is
//     check-history --linearizability and oracle.Linearizable.
//
// Both bound each step by a count of reference states (Options.Budget), so that one input
// has one verdict on any machine; past it the verdict is Undecided, never OK. Linearize is
// also bounded by porcupine's timeout, if the caller gives one, which is a time.
//
// # Usage
//
//	r := search.New(search.Options{Shape: search.ShapeOf(h)})
//	for _, e := range h {
//		if err := r.Add(e); err != nil { ... }
//	}
//	fmt.Println(r.Result()) // ok, or the first answer no behaviour gives, with the states before it
//
//	l, err := search.Linearize(h, search.Options{}, time.Minute)
//
// # Implementation notes
//
// A behaviour is a config: the coordinator's state and where each open request stands
// (waiting, parked, answered, or orphan: without an answer, it may arrive or never). The
// Checker explores, at each recorded end, every order of handling the open requests and of
// the timers up to that answer, first keeping only the explanations with the fewest timers
// (Options.Simplest: its "ok" is the whole search's) and running the whole search only where
// those find none.
//
// Three reductions keep a group of eight members affordable, each argued where it is: a
// heartbeat or commit that cannot change the coordinator is settled at the first state where
// its answer is the recorded one (config.settleInert, settleHeartbeats); a KIP-848 member's
// previous epoch that nothing will read leaves the key (keyView); and a behaviour another
// kept one simulates is dropped from the frontier (Checker.subsumed). A crash ends its
// node's open requests (Checker.crash).
//
// Linearize's porcupine state is a set of configs. A request's linearization point is when
// the coordinator handles it; its answer may come later (a parked JoinGroup), but before its
// recorded end: a behaviour that still waits on a request that returned before the next
// one's begin is dead. Porcupine's memory grows with the square of what it is given, so the
// Collector cuts the history where it is quiescent and searches one segment at a time; the
// cut at a segment's end collects every behaviour that any order reaches and fails, so that
// porcupine tries every order, and the next segment starts from all of them: the verdict is
// the whole history's, and only one segment's requests are held.
package search
