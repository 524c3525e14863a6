package mutate

// kip848ClientWorlds are worlds added for blind spots of impl/kip848client's leave; each
// comment names the mutants it catches (ids of the full run of 2026-12-02, main a47ddf5).
var kip848ClientWorlds = []World{
	// A close and a session expiry: a member whose session expires while its leave waits for
	// the heartbeat in flight is answered UNKNOWN_MEMBER_ID while LEAVING and must complete
	// its leave without sending it (kip848-leave-sent). No world had both a leave and a
	// fencing, so fence's dropped completeLeave (1382: the fenced member sends its leave
	// anyway) was never reached. 6,603 states.
	suiteWorld("kip848/leave-session-timeouts"),
}
