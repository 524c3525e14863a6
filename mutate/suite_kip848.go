package mutate

// kip848Worlds are the worlds the triage of the full run of 2026-12-02 (main a47ddf5) added for
// blind spots of impl/kip848, impl/kip848client and impl/leader: each comment names the mutants it catches.
var kip848Worlds = []World{}
