package consumer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

func TestCommitTick(t *testing.T) {
	owned := P("t", 0)
	for _, tc := range []struct {
		name  string
		setup func(Consumer) Consumer
		want  []string
	}{
		// Reference: docs/protocol.md §1.11 (generationIfStable) — STABLE: the generation is sent.
		{"stable commits with the generation", nil, []string{`send OffsetCommit member="m1" gen=3 (t-0)`}},
		// Reference: docs/protocol.md §1.11 — rebalancing: RebalanceInProgressException, no request.
		{"preparing fails locally", func(c Consumer) Consumer { c.Status = PreparingRebalance; return c },
			[]string{"commit-result local-failure error=REBALANCE_IN_PROGRESS gen=-1 (t-0)"}},
		{"completing fails locally", func(c Consumer) Consumer { c.Status = CompletingRebalance; return c },
			[]string{"commit-result local-failure error=REBALANCE_IN_PROGRESS gen=-1 (t-0)"}},
		// Reference: docs/protocol.md §1.11 — not in the group: CommitFailedException, no request.
		{"unjoined fails locally", func(c Consumer) Consumer { c.resetGeneration(true); return c },
			[]string{"commit-result local-failure error=ILLEGAL_GENERATION gen=-1 (t-0)"}},
		{"nothing owned commits nothing", func(c Consumer) Consumer { c.OwnedPartitions = impl.PartitionSet{}; return c }, nil},
		{"one commit at a time", func(c Consumer) Consumer { c.mark(KindCommit, owned); return c }, nil},
		{"closed commits nothing", func(c Consumer) Consumer { c.Closed = true; return c }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := stableConsumer(testConfig(impl.Kafka), owned)
			if tc.setup != nil {
				c = tc.setup(c)
			}
			_, effs := c.CommitTick()
			if d := cmp.Diff(tc.want, render(effs), cmpOpts); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestHeartbeatTick(t *testing.T) {
	// Reference: docs/protocol.md §1.6, §1.11 — heartbeats only while COMPLETING_REBALANCE or STABLE.
	for _, tc := range []struct {
		state ClientState
		want  int
	}{{Unjoined, 0}, {PreparingRebalance, 0}, {CompletingRebalance, 1}, {Stable, 1}} {
		c := stableConsumer(testConfig(impl.Kafka), P("t", 0))
		c.Status = tc.state
		c, effs := c.HeartbeatTick()
		if len(effs) != tc.want {
			t.Errorf("%v: %v", tc.state, render(effs))
		}
		if _, again := c.HeartbeatTick(); len(again) != 0 {
			t.Errorf("%v: second heartbeat while one in flight", tc.state)
		}
	}
}

func TestClose(t *testing.T) {
	owned := P("t", 0)
	commit := `send OffsetCommit member="m1" gen=3 (t-0)`
	for _, tc := range []struct {
		name  string
		cfg   Config
		setup func(Consumer) Consumer
		want  []string
	}{
		// Reference: docs/protocol.md §1.7, §1.11 — dynamic member: commit, revoke, LeaveGroup.
		{"dynamic member commits revokes and leaves", testConfig(impl.Kafka), nil,
			[]string{commit, "callback revoked (t-0)", "send LeaveGroup members=1"}},
		// Reference: docs/protocol.md §1.7 — static members never send LeaveGroup.
		{"static member does not leave", func() Config { c := testConfig(impl.Kafka); c.InstanceID = "i1"; return c }(), nil,
			[]string{commit, "callback revoked (t-0)"}},
		// Reference: docs/protocol.md §2.3 step 2 (onLeavePrepare) — a reset generation loses.
		{"reset member loses and does not leave", testConfig(impl.Kafka),
			func(c Consumer) Consumer { c.resetGeneration(true); return c },
			[]string{"callback lost (t-0)"}},
		{"rebalancing member loses without commit", testConfig(impl.Kafka),
			func(c Consumer) Consumer { c.Status = PreparingRebalance; return c },
			[]string{"callback lost (t-0)", "send LeaveGroup members=1"}},
		{"failed member loses and sends nothing", testConfig(impl.Kafka),
			func(c Consumer) Consumer { c.FatalError = impl.FencedInstanceID; return c },
			[]string{"callback lost (t-0)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := stableConsumer(tc.cfg, owned)
			if tc.setup != nil {
				c = tc.setup(c)
			}
			c, effs := c.Step(Close{})
			if d := cmp.Diff(tc.want, render(effs)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if !c.Closed || !c.Owned().IsEmpty() || c.Generation() != impl.NoGeneration || c.WantsToJoin() {
				t.Errorf("after close: %v", c)
			}
			for _, in := range []Input{Close{}, PollTick{}, HeartbeatTick{}, CommitTick{}, PollTimeout{},
				SubscriptionChanged{Topics: []string{"x"}}, AssignmentFailed{}} {
				if _, effs := c.Step(in); len(effs) != 0 {
					t.Errorf("closed consumer reacted to %T: %v", in, render(effs))
				}
			}
		})
	}
}

func TestClosedConsumerStillReportsCommits(t *testing.T) {
	// A commit sent by close is still judged by the coordinator; its outcome is reported.
	c, _ := stableConsumer(testConfig(impl.Kafka), P("t", 0)).Close()
	_, effs := c.Receive(impl.OffsetCommitResponse{Error: impl.UnknownMemberID})
	want := []string{"commit-result refused error=UNKNOWN_MEMBER_ID gen=3 (t-0)"}
	if d := cmp.Diff(want, render(effs)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestPollTimeout(t *testing.T) {
	for _, tc := range []struct {
		name     string
		instance impl.InstanceID
		want     []string
	}{
		// Reference: docs/protocol.md §1.9 — dynamic: LeaveGroup; both reset and rejoin at next poll,
		// losing their partitions there.
		{"dynamic member leaves then loses on the next poll", "", []string{"send LeaveGroup members=1",
			"callback lost (t-0)", `send JoinGroup v9 member="" topics=[t u] owned=() gen=-1`}},
		// Reference: docs/protocol.md §1.9 — static: no LeaveGroup, just a reset.
		{"static member only resets", "i1", []string{
			"callback lost (t-0)", `send JoinGroup v9 member="" topics=[t u] owned=() gen=-1`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(impl.Kafka)
			cfg.InstanceID = tc.instance
			c, effs := stableConsumer(cfg, P("t", 0)).PollTimeout()
			c, more := c.PollTick()
			if d := cmp.Diff(tc.want, render(append(effs, more...))); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			c, _ = c.Receive(impl.LeaveGroupResponse{})
			if c.InFlight(KindLeave) {
				t.Error("leave marker not cleared")
			}
		})
	}
	// Not in the group: nothing to do.
	c := New(testConfig(impl.Kafka), testCluster)
	if got, effs := c.PollTimeout(); len(effs) != 0 || !cmp.Equal(summarize(c), summarize(got), cmpOpts) {
		t.Errorf("unjoined poll timeout changed %v", got)
	}
}

func TestRequestTimedOut(t *testing.T) {
	// Reference: docs/protocol.md §1.11 — a lost response is retriable; no reset (KAFKA-13214).
	t.Run("join is re-sent at the next poll without onJoinPrepare", func(t *testing.T) {
		c := joiningConsumer(t, testConfig(impl.Kafka, eager...), P("t", 0))
		c, effs := c.RequestTimedOut(KindJoin)
		c, more := c.PollTick()
		want := []string{`send JoinGroup v9 member="m1" topics=[t u] owned=() gen=3`}
		if d := cmp.Diff(want, render(append(effs, more...))); d != "" {
			t.Errorf("(-want +got):\n%s", d)
		}
	})
	t.Run("sync fails the round", func(t *testing.T) {
		c, _ := syncingConsumer(t, testConfig(impl.Kafka), P("t", 0)).RequestTimedOut(KindSync)
		if c.State() != PreparingRebalance || c.Generation() != 4 || !c.WantsToJoin() {
			t.Errorf("after lost sync: %v", c)
		}
	})
	t.Run("commit outcome is unknown", func(t *testing.T) {
		c, _ := stableConsumer(testConfig(impl.Kafka), P("t", 0)).CommitTick()
		c, effs := c.Step(RequestTimedOut{Kind: KindCommit})
		want := []string{"commit-result timed-out error=NONE gen=3 (t-0)"}
		if d := cmp.Diff(want, render(effs)); d != "" || c.InFlight(KindCommit) || c.Generation() != 3 {
			t.Errorf("(-want +got):\n%s %v", d, c)
		}
	})
	t.Run("nothing in flight is a no-op", func(t *testing.T) {
		c := stableConsumer(testConfig(impl.Kafka), P("t", 0))
		if got, effs := c.RequestTimedOut(KindHeartbeat); len(effs) != 0 || !cmp.Equal(summarize(c), summarize(got), cmpOpts) {
			t.Errorf("changed: %v", got)
		}
	})
}

func TestEncodingAndString(t *testing.T) {
	a := stableConsumer(testConfig(impl.Kafka), P("t", 0))
	b := a
	b.OwnedPartitions = P("t", 1)
	c, _ := a.CommitTick()
	encA, encB, encC := string(a.AppendEncoding(nil)), string(b.AppendEncoding(nil)), string(c.AppendEncoding(nil))
	if encA == encB || encA == encC || encB == encC {
		t.Error("different states encode equally")
	}
	if again := string(stableConsumer(testConfig(impl.Kafka), P("t", 0)).AppendEncoding(nil)); again != encA {
		t.Error("equal states encode differently")
	}
	want := `STABLE gen=3 member="m1" owned=(t-0) protocol=cooperative-sticky owned-gen=3 topics=[t u] needs-join-prepare in-flight=OffsetCommit@3`
	if got := c.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	for _, s := range []interface{ String() string }{Unjoined, ClientState(9), KindLeave, RequestKind(9), Lost, CallbackKind(9),
		TriggerFenced, JoinTrigger(99), Fatal{Error: impl.FencedInstanceID}, RunAssignment{}} {
		if s.String() == "" {
			t.Errorf("%T renders empty", s)
		}
	}
}
