// Package invariants names the properties groupcheck checks over spec worlds, each with a
// kind (always, sometimes), a one-line statement and its source, and adapts a spec config to
// the generic explorer.
//
// # Usage
//
//	cfg, _ := spec.LookupPreset("cooperative-kafka")
//	c, _ := cfg.Config()
//	m := invariants.NewModel(c)
//	report := explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{})
//
// # Implementation notes
//
// A state property judges one world. A step property judges one transition — the world
// before, the step's events and the world after — which a state predicate cannot see (a
// commit accepted from a non-owner leaves no trace in the state). The model runs every step
// property on every transition it generates and, when one fails, sets that property's bit in
// the successor's Observed flags, which are part of the state's encoding; the explorer then
// checks "bit clear" as an ordinary always-property. Because the bit is in the encoding, a
// violating transition into an already-known world still yields a new, flagged state, so no
// violation is lost to deduplication, and BFS still returns a shortest counterexample.
// Sometimes-step properties use a transient bit, cleared by the next step.
package invariants
