package mutate

// coordinatorWorlds are the worlds the triage of the full run of 2026-12-02 (main a47ddf5) added for
// blind spots of impl/coordinator: each comment names the mutants it catches.
var coordinatorWorlds = []World{}
