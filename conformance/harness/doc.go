// Package harness runs real Kafka consumer clients against kfake (franz-go's in-process
// broker) or, with Config.Bootstrap (-bootstrap), against any broker at an address, records what they do as a history (package oracle/history), and checks every run
// with groupcheck's oracle. It is shared by the conformance modules (conformance/franzgo,
// sarama, kafkago, confluent), each its own Go module so that the main module stays free of
// their dependencies; each supplies a driver (Protocol.Start) and keeps its client's quirks.
//
// # Usage
//
//	h, err := harness.New(ctx, harness.Config{Protocol: p, Seed: 1})
//	...
//	runErr := h.Run(ctx, harness.Churn) // start, join, leave, add partitions, settle after each
//	h.Close()
//	v := harness.Judge(h, runErr)       // oracle.Check on the history (settle bound StallMax), plus kfake's errors
//	if !v.OK() { ... v.Save(dir, name) ... }
//
// or, in a module's tests, harness.Conformance(t, protocols, harness.Scenarios, keep), which
// adds the -soak N, -seed S and -keep flags.
//
// A run is a script of Steps: start, leave (graceful close), crash (the process's network
// goes down and it observes nothing more), cut and heal (the process loses only the group
// coordinator and keeps fetching from the other brokers), add-partitions, fence (kfake answers
// one heartbeat with a fencing error) and settle. Settle waits for a signature, never for a
// moment: every partition owned by exactly one live member as the callbacks say, the broker's
// member list equal to the live members, the group Stable, and none of it changing for a
// quiet period (docs/clients.md §5).
//
// # What is recorded
//
//   - the client's rebalance callbacks as begin/end intervals with member ID and generation
//     (epoch), and every commit the driver makes with its outcome (Node.Begin,
//     Node.BeginCommit);
//   - start, close, crash, cut and heal, as the harness does them;
//   - the group coordinator's side, from a wire tap in each client's connections (Net): every
//     JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit and ConsumerGroupHeartbeat
//     with its response, decoded with kmsg and matched by correlation ID;
//   - Fenced, where the broker side is observable: kfake's session- and rebalance-timeout
//     log lines (KIP-848), and a classic member missing from a later generation's member list.
//
// All nodes record into one history.Recorder, so every time is on one monotonic clock and
// "A's revoke returned before B's assign began" is an ordering.
package harness
