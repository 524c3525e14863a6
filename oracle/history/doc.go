// Package history is the record another implementation's test keeps of what happened in a
// consumer group, in the form the oracle (package oracle) checks: one Event per line of JSON.
//
// A history is written by the system under test, not by groupcheck, so it is read strictly
// (Read names the line of the first malformed event) and the schema is small and flat:
// process lifecycle (start, close, crash, cut, heal), what a member observed (generation or
// epoch, callbacks with their begin and end), commits with their outcome, and the
// coordinator's operations with their call and return. Intervals are begin/end pairs joined
// by ID, so the same file feeds the ownership checker and porcupine's linearizability check.
//
// Times are nanoseconds on one monotonic clock shared by every process of the test (a
// Recorder's), so "A's revoke returned before B's assign began" is an ordering, not a guess.
package history
