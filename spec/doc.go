// Package spec is groupcheck's closed world: the reference roles of impl composed with a
// nondeterministic environment — message delivery order, crashes, restarts, graceful leaves,
// subscription and metadata changes, lost responses, timeouts and a leader that hangs in its
// assignor while it goes on heartbeating — bounded by a Config.
//
// # Usage
//
//	p, _ := spec.LookupPreset("cooperative-kafka")
//	cfg, _ := p.Config()                  // or spec.ParseConfig(name, reader)
//	w := spec.Init(cfg)
//	for _, a := range spec.Actions(w, nil) {
//		if next, events, ok := spec.Step(w, a); ok {
//			fmt.Println(a.Text(&cfg), events, next)
//		}
//	}
//
// # Implementation notes
//
// A World is a value: the coordinator (impl/coordinator), one Slot per configured member
// (its process state, incarnation, consumer from impl/consumer, and its connection's two FIFO
// queues), the cluster metadata, and the budgets left. Step routes an action to the roles and
// does nothing else of its own but delivery and bookkeeping; the leader's assignment is
// impl/leader's Lead (or LeadWith over every valid assignment for the `any` assignor).
//
// Under protocol consumer (KIP-848) the coordinator is impl/kip848's Group (World.Group) and
// each slot runs impl/kip848client's Member (Slot.Member); kip848.go says what that world
// abstracts (metadata reaching the coordinator at once, `any` targets as assign actions,
// free timers when no live process stands behind a member id). KIP-848 epochs are encoded
// relative to the group epoch (encode.go).
//
// Abstractions, and what each gives up:
//   - The network is per-connection FIFO with any interleaving across members. A crash drops
//     the responses in flight to the process (nobody reads them) but not its requests (they
//     still arrive). Only responses are lost (LoseResponse); a lost request looks the same
//     to the client and is subsumed for safety by the coordinator never acting on it.
//   - Time is not a number. A timer is an action enabled when it could fire. A timer that
//     waits only for members whose process is gone is free — it is bound to fire — while one
//     that fires on a live member spends a budget (the member was slow).
//   - A heartbeat is offered only when the coordinator would answer something other than
//     NONE right now: a NONE answer only refreshes a deadline, and deadlines are abstract.
//   - Member ids are name#n with the smallest n nothing in the world refers to, so ids stay
//     finite and canonical without a counter in the state.
//   - Generations are encoded relative to the coordinator's (encode.go): the roles only
//     compare them, so worlds that differ by a shift of every generation are one state.
//   - No records or offsets: a commit is the set of partitions and the generation it was sent
//     with; the properties judge whether the coordinator accepted it.
package spec
