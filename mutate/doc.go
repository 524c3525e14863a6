// Package mutate measures how much of impl/ the properties watch, without a list of known
// bugs: it makes small automatic mutants of the reference roles and runs each against a fixed
// suite of small worlds (Suite) with every property, converges and the rebalance-rounds bound.
// A mutant is killed when a property that holds for the reference fails (orphans-expire,
// decided on the liveness graph, included), when it needs more rebalances after one
// environment event than the reference or reaches a generation above the reference's highest
// (rounds), when it is slower (unavailable, steps), when it never takes a kind of action the
// reference takes in the world (events: a silently disabled event), when a step changes the
// world it steps from (pure-steps: impl's roles are pure functions), or when it panics; it
// survives when every world that reaches it passes; it timed out when a state cap (three times the
// reference's states, plus 5,000) or, for a loop inside impl/, the clock stopped a world first.
//
// # Usage
//
//	go run ./cmd/groupcheck mutate [--packages impl/consumer,...] [--jobs 2] [--json FILE]
//	go run ./cmd/groupcheck mutate --list --only impl/leader/    # the points, no run
//
// Survivors that cannot change any behaviour are listed, with why, in equivalents.txt, by a
// Key that survives edits elsewhere (file, function, operator, source text).
//
// # Implementation notes
//
// Mutant schemata (Untch, Offutt and Harrold, ISSTA 1993): every point of a package is
// compiled into one copy of the module, wrapped in a call to the switchboard (package rt) that
// keeps the original unless GROUPCHECK_MUTANT names that point; one binary runs every mutant,
// one process each (so a panic or a loop stays in its process), Jobs at a time. A tool that
// rebuilds and runs `go test` per mutant (gremlins v0.6.0, which the module proxy serves)
// would pay a compile and the package's tests per mutant — minutes for impl/'s 1,400 points
// before any world is explored — and tests are not what is measured here: the properties are.
//
// The reference explores the suite once first, in coverage mode (rt.Hits): which points each
// world reaches, which of them it infects (rt.Infected: some execution where the mutant would
// compute something else — a boundary comparison of equal operands, a forced result that
// differs, an assignment that changes its target; weak mutation), what holds there, its
// rounds and its size. A world that reaches a point without infecting it runs the mutant
// exactly as the reference (the same successors of the same states), so a mutant runs only
// the worlds that infect it, cheapest first, each in one pass (pass: safety checked while the liveness
// graph is built), stops at the first catch, and is judged only by what held for the reference
// (the expected zombie window of the strict properties never counts) and by how fast the
// reference converges after each environment event (rounds, unavailable, steps). Verdicts
// depend on state caps, not on the clock or on Jobs, except for a mutant that loops inside
// impl/ without returning to the explorer.
//
// The operators (points.go) are negated if/for conditions, == ↔ !=, boundary shifts
// (< ↔ <=, > ↔ >=), && ↔ ||, dropped statements (calls, assignments, ++/--), bool results
// forced to true or false, and swapped adjacent arguments of the same type. The package is
// type-checked first (go/types) so that every schema compiles; a point that still does not is
// left out and counted. The canonical encodings (encode.go) are left out by default: their
// mutants merge or split states of the checker, not steps of the protocol.
package mutate
