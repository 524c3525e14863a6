package consumer

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// TestFaults runs each consumer fault's scenario with and without the fault: the correct
// reference and the faulty one must differ exactly as docs/bugs.md describes.
func TestFaults(t *testing.T) {
	joinResp := Received{Response: impl.JoinGroupResponse{Generation: 4, ProtocolName: CooperativeSticky, Leader: "m0", MemberID: "m1"}}
	for _, tc := range []struct {
		name      string
		fault     impl.Fault
		assignors []string
		owned     impl.PartitionSet
		inputs    []Input
		correct   []string
		faulty    []string
		userData  bool // render JoinGroups with cooperative-sticky's user-data generation
	}{
		// Reference: docs/bugs.md B7 (KAFKA-12983) — after UNKNOWN_MEMBER_ID mid-rebalance the
		// faulty client skips onJoinPrepare: no onPartitionsLost, and it claims t-0 under no id.
		{"B7 skip join prepare after reset", impl.FaultSkipJoinPrepareAfterReset, nil, P("t", 0),
			[]Input{PollTick{}, Received{Response: impl.JoinGroupResponse{Error: impl.UnknownMemberID}}, PollTick{}},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=3`, "callback lost (t-0)", `send JoinGroup v9 member="" topics=[t u] owned=() gen=-1`},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=3`, `send JoinGroup v9 member="" topics=[t u] owned=(t-0) gen=-1`},
			false},
		// Reference: docs/bugs.md B8a (KAFKA-13419) — REBALANCE_IN_PROGRESS on SyncGroup of
		// generation 4. The v2 label is the same either way: Java's ConsumerProtocolSubscription
		// GenerationId is the client's current generation, updated from the JoinGroup response,
		// so the generation-3 content t-0 goes out labelled 4 (docs/protocol.md §2.2, §2.8: "labels them
		// with the generation it joined"). What the fault changes is cooperative-sticky's
		// user-data generation: the correct client only sets it when an assignment is applied
		// (still 3, the content's generation, docs/protocol.md §2.2), the faulty one relabels it 4 as
		// well, so a leader that falls back on it (v0/v1 reader) sees the stale claim as new.
		{"B8a stale claim after sync rebalance", impl.FaultStaleClaimAfterSyncRebalance, nil, P("t", 0),
			[]Input{PollTick{}, joinResp, Received{Response: impl.SyncGroupResponse{Error: impl.RebalanceInProgress}}, PollTick{}},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=3 userdata-gen=3`, `send SyncGroup member="m1" gen=4 assignments=0`, `send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=4 userdata-gen=3`},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=3 userdata-gen=3`, `send SyncGroup member="m1" gen=4 assignments=0`, `send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=4 userdata-gen=4`},
			true},
		// Reference: docs/bugs.md B8b (KAFKA-13891 → KAFKA-14016) — the faulty client resets its
		// generation on that error and so loses (over-revokes) everything before rejoining.
		// The correct client keeps generation 4 from the JoinGroup response and claims t-0
		// under it (docs/protocol.md §2.8; the leader's arbitration, not the client, settles it).
		{"B8b reset generation on sync rebalance", impl.FaultResetGenerationOnSyncRebalance, nil, P("t", 0),
			[]Input{PollTick{}, joinResp, Received{Response: impl.SyncGroupResponse{Error: impl.RebalanceInProgress}}, PollTick{}},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=3`, `send SyncGroup member="m1" gen=4 assignments=0`, `send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=4`},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=3`, `send SyncGroup member="m1" gen=4 assignments=0`, "callback lost (t-0)", `send JoinGroup v9 member="m1" topics=[t u] owned=() gen=-1`},
			false},
		// Reference: docs/bugs.md B23 (franz-go #686) — the eager member revokes but still
		// advertises t-0 as owned, and when the balancer leaves t-0 with it, t-0 is never
		// reported as assigned again.
		{"B23 eager keeps owned list", impl.FaultEagerKeepsOwnedList, []string{CooperativeSticky, Range}, P("t", 0),
			[]Input{PollTick{}, joinResp, Received{Response: impl.SyncGroupResponse{Assignment: impl.Assignment{Partitions: P("t", 0, 1)}}}},
			[]string{"callback revoked (t-0)", `send JoinGroup v9 member="m1" topics=[t u] owned=() gen=3`,
				`send SyncGroup member="m1" gen=4 assignments=0`, "callback assigned (t-0 t-1)"},
			[]string{"callback revoked (t-0)", `send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=3`,
				`send SyncGroup member="m1" gen=4 assignments=0`, "callback assigned (t-1)"},
			false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, faulty := range []bool{false, true} {
				cfg := testConfig(impl.Kafka, tc.assignors...)
				if faulty {
					cfg.Faults = cfg.Faults.With(tc.fault)
				}
				c := stableConsumer(cfg, tc.owned)
				c.RejoinNeeded = true
				var all []Effect
				for _, in := range tc.inputs {
					var effs []Effect
					c, effs = c.Step(in)
					all = append(all, effs...)
				}
				all = withoutCommits(all)
				want := tc.correct
				if faulty {
					want = tc.faulty
				}
				got := render(all)
				if tc.userData {
					got = renderUserData(all)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("faulty=%v (-want +got):\n%s", faulty, d)
				}
			}
		})
	}
}

// renderUserData is render with each JoinGroup's first-protocol user-data generation appended
// (the label a v0/v1 reader sees, docs/protocol.md §2.2).
func renderUserData(effs []Effect) []string {
	out := render(effs)
	for i, e := range effs {
		if s, ok := e.(Send); ok {
			if j, ok := s.Request.(impl.JoinGroupRequest); ok && len(j.Protocols) > 0 {
				out[i] += fmt.Sprintf(" userdata-gen=%d", j.Protocols[0].Metadata.UserData.Generation)
			}
		}
	}
	return out
}

// withoutCommits drops commit traffic, which every scenario shares.
func withoutCommits(effs []Effect) []Effect {
	var out []Effect
	for _, e := range effs {
		if s, ok := e.(Send); ok {
			if _, ok := s.Request.(impl.OffsetCommitRequest); ok {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

func TestFaultB23BreaksOwnershipTracking(t *testing.T) {
	// Reference: docs/bugs.md B23 — the faulty consumer still reports t-0 as owned after
	// onPartitionsRevoked(t-0): exactly what TestPropertyOwnershipFollowsCallbacks forbids.
	cfg := testConfig(impl.Kafka, Range)
	cfg.Faults = cfg.Faults.With(impl.FaultEagerKeepsOwnedList)
	c := stableConsumer(cfg, P("t", 0))
	c.RejoinNeeded = true
	c, effs := c.PollTick()
	if d := cmp.Diff([]string{"callback revoked (t-0)"}, callbacks(effs)); d != "" || !c.Owned().Contains(impl.TP("t", 0)) {
		t.Errorf("faulty eager revoke: %s owned=%v", d, c.Owned())
	}
}

func TestFaultB8aLabelsUserData(t *testing.T) {
	// Reference: docs/bugs.md B8a — the v2 field is the current generation 4 with or without the
	// fault (docs/protocol.md §2.2, §2.8); cooperative-sticky's user-data generation (the label a
	// v0/v1 reader falls back on) stays 3, the generation its content was assigned in, unless
	// the fault relabels it with the current generation too.
	for _, faulty := range []bool{false, true} {
		cfg := testConfig(impl.Kafka)
		if faulty {
			cfg.Faults = cfg.Faults.With(impl.FaultStaleClaimAfterSyncRebalance)
		}
		c := syncingConsumer(t, cfg, P("t", 0))
		c, _ = c.Receive(impl.SyncGroupResponse{Error: impl.RebalanceInProgress})
		want := impl.Generation(3)
		if faulty {
			want = 4
		}
		s := c.Subscription(CooperativeSticky)
		if s.UserData.Generation != want || s.Generation != 4 || c.Generation() != 4 {
			t.Errorf("faulty=%v: user data generation %d (want %d), v2 label %d (want 4), generation %d (want 4)",
				faulty, s.UserData.Generation, want, s.Generation, c.Generation())
		}
	}
}
