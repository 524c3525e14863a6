// Package franzgo runs real franz-go (kgo) consumers against kfake, franz-go's in-process
// broker, records what they do as a history (package oracle/history) and checks every run with
// groupcheck's oracle. It is its own Go module so that only it imports franz-go.
//
// # Usage
//
//	h, err := franzgo.New(ctx, franzgo.Config{Protocol: franzgo.Cooperative, Seed: 1})
//	...
//	runErr := h.Run(ctx, franzgo.Churn) // start, join, leave, add partitions, settle after each
//	h.Close()
//	v := franzgo.Judge(h, runErr)      // oracle.Check on the history, plus kfake's errors
//	if !v.OK() { ... v.Save(dir, name) ... }
//
// A run is a script of Steps: start, leave (graceful close), crash (the process's network
// goes down and it observes nothing more), cut and heal (the process loses only the group
// coordinator and keeps fetching from the other brokers), add-partitions, fence (kfake answers
// one heartbeat with a fencing error) and settle. Settle waits for a signature, never for a
// moment: every partition owned by exactly one live member as the callbacks say, the broker's
// member list equal to the live members, the group Stable, and none of it changing for a
// quiet period (PEERS.md §5).
//
// # What is recorded
//
//   - the three kgo callbacks as begin/end intervals, with member ID and generation (epoch)
//     from Client.GroupMetadata, and every commit the harness makes (in revoke, and between
//     polls) with its outcome;
//   - start, close, crash, cut and heal, as the harness does them;
//   - the group coordinator's side, from a wire tap in each client's connections: every
//     JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit and ConsumerGroupHeartbeat
//     with its response, decoded with kmsg and matched by correlation ID;
//   - Fenced, where the broker side is observable: kfake's session- and rebalance-timeout
//     log lines (KIP-848), and a classic member missing from a later generation's member list.
//
// # Implementation notes
//
// All nodes record into one history.Recorder, so every time is on one monotonic clock and
// "A's revoke returned before B's assign began" is an ordering. Client faults (Fault) are
// applied between kgo and the recorder: they change what the application does and records,
// never what kgo does, so the harness still settles on kgo's truth.
package franzgo
