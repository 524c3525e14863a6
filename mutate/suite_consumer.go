package mutate

// consumerWorlds are the worlds the triage of the full run of 2026-12-02 (main a47ddf5) added for
// blind spots of impl/consumer: each comment names the mutants it catches.
var consumerWorlds = []World{}
