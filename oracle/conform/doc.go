// Package conform is trace conformance, the third use of the oracle (docs/protocol.md
// §6.7): it drives another implementation of a consumer group member through
// groupcheck's trace corpus (traces/scenarios, traces/golden) and compares what it does,
// step by step, with what the reference member does in the trace — impl/consumer for the
// classic protocol, impl/kip848client for KIP-848.
//
// A client author writes an Adapter: Start (classic) or Start848 (KIP-848) creates a member
// with the reference member's configuration, and the member's Step hands it one input — a
// poll, a timer, a coordinator response, the leader's computed assignment, a subscription
// change, a close, a lost response — and returns its effects in groupcheck's vocabulary
// (requests sent, rebalance callbacks invoked, fatal errors). Run replays the trace on the
// reference, feeds the implementation exactly the inputs the reference member received, and
// reports the first step where what it does differs, with a go-cmp diff. Classic and KIP848
// build an adapter for an implementation of one protocol; the other protocol's traces are
// then skipped (Report.Skipped).
//
// # Usage
//
//	adapter := conform.Classic(func(s conform.Start) (conform.Member, error) {
//		return newMyMember(s.Config, s.Cluster, s.Topics), nil
//	})
//	reports, err := conform.RunGlob(adapter, conform.Options{},
//		filepath.Join(groupcheckDir, "traces/scenarios/*.trace"),
//		filepath.Join(groupcheckDir, "traces/golden/*.trace"))
//	for _, r := range reports {
//		if r.Mismatch != nil && r.Faults == 0 {
//			t.Errorf("%s: %v", r.Trace, r.Mismatch)
//		}
//	}
//
// groupcheckDir is the module's directory (go list -m -f '{{.Dir}}'
// github.com/groupcheck/groupcheck). Reference() is the adapter of groupcheck's own members
// and a template for writing one.
//
// # Implementation notes
//
// Inputs are derived from each replayed step exactly as spec.Step delivers them (the head
// of the member's response queue for deliver-response, the leader's AssignEvent for assign,
// the new subscription for resubscribe, and so on), and the harness checks itself on every
// step: the reference member given the derived input must send and call back what the trace
// records, or Run fails with an error. A start or restart begins a new member (a KIP-848
// member is subscribed at once, so its join heartbeat is compared), a crash drops it, a
// graceful leave ends it once its process stops.
//
// What is compared is rendered one line per effect with every field a coordinator reads but
// the connection (Options may leave out sticky user data and KIP-423 join reasons). A
// leader's RunAssignment and commit results are not compared: a client's leader runs its own
// assignor (the assign input hands it the reference leader's result, which its SyncGroup
// must carry), and a commit's outcome is the coordinator's answer, already an input.
//
// Traces whose config switches on a fault (Report.Faults) were found with a mutant. A member
// fault (skip-join-prepare-after-reset, stale-claim-after-sync-rebalance,
// reset-generation-on-sync-rebalance, eager-keeps-owned-list, in-flight-stuck-on-error) is a
// buggy reference member, so a correct client is expected to diverge there; the adapter sees
// the faults in its Start config. Coordinator and leader faults only change the inputs.
package conform
