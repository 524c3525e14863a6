package mutate

// kip848Worlds are the worlds the triage of the full run of 2026-12-02 (main a47ddf5) added for
// blind spots of impl/kip848, impl/kip848client and impl/leader: each comment names the mutants it catches.
var kip848Worlds = []World{
	// The server range assignor with a remainder (one partition, two subscribers: the first
	// takes it). No range world had one, so dropping the extra partition (1039) left t-0 to
	// nobody unseen. 91 states.
	suiteWorld("kip848/range-remainder"),
	// Assignor any where the members' topics, in member order, are not sorted (a: u, b: t):
	// AllTargets binary-searches its partition list, which must be sorted (1064 panics). 65 states.
	suiteWorld("kip848/any-unsorted-topics"),
}
