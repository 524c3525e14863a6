package mutate

// coordinatorWorlds are the worlds the triage of the full run of 2026-12-02 (main a47ddf5) added for
// blind spots of impl/coordinator: each comment names the mutants it catches.
var coordinatorWorlds = []World{
	// A poll timeout, then the member closes (529 states): a client whose LeaveGroup was never
	// answered still has one in flight, so it sends no second one when it closes and the
	// coordinator keeps an orphan (167: LeaveGroup's answer dropped; no-orphan-member). No
	// world had two LeaveGroups of one process.
	{"eager/poll-timeout-leave", eagerOne + "budget poll-timeouts=1 leaves=1\n"},
}
