// Package franzgo runs real franz-go (kgo) consumers against kfake through the shared
// conformance harness (conformance/harness) and checks every run with groupcheck's oracle. It
// is its own Go module so that only it (and the harness) imports franz-go.
//
// The driver (client.go) maps kgo's three callbacks onto the history: OnPartitionsAssigned
// is assign with the delta, OnPartitionsRevoked revoke with the delta, OnPartitionsLost lost;
// member and generation come from Client.GroupMetadata, safe inside callbacks (docs/clients.md §2).
// Commits are manual, in the revoke callback and between PollFetches and AllowRebalance
// (BlockRebalanceOnPoll), so they cannot race kgo's callbacks.
//
// Client faults (harness.Fault) are applied between kgo and the recorder: they change what
// the application does and records, never what kgo does, so the harness still settles on
// kgo's truth. TestOracleBites asserts that the oracle catches each.
package franzgo
