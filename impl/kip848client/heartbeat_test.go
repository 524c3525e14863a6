package kip848client

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// TestJoin: subscribing sends the epoch-0 heartbeat at once, with every field: the topics and
// an empty (present) owned set. Reference: docs/protocol.md §3.1, §3.7.
func TestJoin(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"dynamic member", dynamicCfg()},
		{"static member carries its instance id", staticCfg()},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, effs := New(c.cfg).Subscribe([]string{"u", "t", "t"})
			must(t, "Subscribe", effs, []Effect{hb("", 0, c.cfg.InstanceID, []string{"t", "u"}, ptr(set()))})
			if m.State() != Joining || !m.InFlight() || m.Epoch() != 0 {
				t.Errorf("after Subscribe: %s", m)
			}
		})
	}
}

// TestHeartbeatResponse is the response table: for each state, what a response does.
func TestHeartbeatResponse(t *testing.T) {
	type want struct {
		state State
		epoch impl.Epoch
		owned impl.PartitionSet
		effs  []Effect
	}
	joined := func(t *testing.T) Member { return joining(dynamicCfg()) }
	stableTicked := func(t *testing.T) Member { return ticked(t, stable(t, dynamicCfg(), set(0, 1))) }
	reconciling := func(t *testing.T) Member { // revocation commit in flight, heartbeat in flight
		m, _ := stableTicked(t).OnHeartbeatResponse(ok(2, ptr(set(0))))
		return ticked(t, m)
	}
	leavingInFlight := func(t *testing.T) Member {
		m, _ := stableTicked(t).Unsubscribe()
		return m
	}
	cases := []struct {
		name  string
		setup func(*testing.T) Member
		resp  impl.ConsumerGroupHeartbeatResponse
		want  want
	}{
		// Reference: docs/protocol.md §3.7 — adopt id and epoch; the first assignment is reconciled at
		// once (nothing to revoke): assigned, then the acknowledgement with the new owned set.
		{"joining gets assignment", joined, ok(1, ptr(set(0, 1))), want{Stable, 1, set(0, 1), []Effect{
			Callback{Assigned, set(0, 1)},
			hb("m1", 1, "", nil, ptr(set(0, 1))),
		}}},
		// Reference: docs/protocol.md §3.7 — onPartitionsAssigned even if empty; the ack carries no
		// owned partitions since the join already sent the empty set.
		{"joining gets empty assignment", joined, ok(1, ptr(set())), want{Stable, 1, set(), []Effect{
			Callback{Assigned, set()},
			hb("m1", 1, "", nil, nil),
		}}},
		// Reference: docs/protocol.md §3.1 — Assignment null = unchanged: still joining.
		{"joining without assignment", joined, ok(1, nil), want{Joining, 1, set(), []Effect{
			hb("m1", 1, "", []string{"t"}, ptr(set())),
		}}},
		// Reference: docs/protocol.md §3.7 — added partitions only: no commit, no revoked callback.
		{"stable gets more partitions", stableTicked, ok(2, ptr(set(0, 1, 2))), want{Stable, 2, set(0, 1, 2), []Effect{
			Callback{Assigned, set(2)},
			hb("m1", 2, "", nil, ptr(set(0, 1, 2))),
		}}},
		// Reference: docs/protocol.md §3.7 — revocation starts with the auto-commit, callbacks wait.
		{"stable loses a partition", stableTicked, ok(2, ptr(set(0))), want{Reconciling, 2, set(0, 1), []Effect{
			commitReq(2, set(0, 1)),
		}}},
		// Reference: docs/protocol.md §3.7 — same assignment: nothing to do.
		{"stable same assignment", stableTicked, ok(1, ptr(set(0, 1))), want{Stable, 1, set(0, 1), nil}},
		// Reference: docs/protocol.md §3.7 — fenced: lost, epoch 0, rejoin with the same id and all fields.
		{"stable fenced", stableTicked, errResp(impl.FencedMemberEpoch), want{Joining, 0, set(), []Effect{
			Callback{Lost, set(0, 1)},
			hb("m1", 0, "", []string{"t"}, ptr(set())),
		}}},
		{"stable unknown member", stableTicked, errResp(impl.UnknownMemberID), want{Joining, 0, set(), []Effect{
			Callback{Lost, set(0, 1)},
			hb("m1", 0, "", []string{"t"}, ptr(set())),
		}}},
		// Reference: docs/protocol.md §3.7 — fenced mid-reconciliation: the reconciliation is aborted
		// (KAFKA-16375); everything owned is lost.
		{"reconciling fenced", reconciling, errResp(impl.FencedMemberEpoch), want{Joining, 0, set(), []Effect{
			Callback{Lost, set(0, 1)},
			hb("m1", 0, "", []string{"t"}, ptr(set())),
		}}},
		// Reference: docs/protocol.md §3.7 — the target went back to what is owned: STABLE, aborted.
		{"reconciling target reverts", reconciling, ok(2, ptr(set(0, 1))), want{Stable, 2, set(0, 1), nil}},
		// Reference: docs/protocol.md §3.1, §3.7 — retriable: nothing changes, retried at the next tick.
		{"stable not coordinator", stableTicked, errResp(impl.NotCoordinator), want{Stable, 1, set(0, 1), nil}},
		{"stable coordinator not available", stableTicked, errResp(impl.CoordinatorNotAvailable), want{Stable, 1, set(0, 1), nil}},
		// Reference: docs/protocol.md §3.7 — a joining member retries its join at once.
		{"joining load in progress", joined, errResp(impl.CoordinatorLoadInProgress), want{Joining, 0, set(), []Effect{
			hb("", 0, "", []string{"t"}, ptr(set())),
		}}},
		// Reference: docs/protocol.md §3.7 — fenced while leaving: UNSUBSCRIBED without rejoining or
		// sending the leave.
		{"leaving fenced", leavingInFlight, errResp(impl.FencedMemberEpoch), want{Unsubscribed, 0, set(), nil}},
		// Reference: docs/protocol.md §3.7 — a leaving member ignores the response's content and sends
		// its leave now.
		{"leaving success", leavingInFlight, ok(5, ptr(set(3))), want{Unsubscribed, -1, set(), []Effect{
			hb("m1", -1, "", nil, nil),
		}}},
	}
	for _, code := range []impl.ErrorCode{impl.UnreleasedInstanceID, impl.FencedInstanceID, impl.UnsupportedAssignor,
		impl.InvalidRequest, impl.GroupMaxSizeReached, impl.ErrorCode(30)} {
		// Reference: docs/protocol.md §3.7 — non-retriable errors are fatal; partitions are lost.
		cases = append(cases, struct {
			name  string
			setup func(*testing.T) Member
			resp  impl.ConsumerGroupHeartbeatResponse
			want  want
		}{"stable fatal " + code.String(), stableTicked, errResp(code), want{Fatal, 1, set(), []Effect{
			Callback{Lost, set(0, 1)}, FatalError{code},
		}}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, effs := c.setup(t).OnHeartbeatResponse(c.resp)
			got := want{m.State(), m.Epoch(), m.Owned(), effs}
			if diff := cmp.Diff(c.want, got, cmpOpts, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("(-want +got):\n%s\nstate %s", diff, m)
			}
		})
	}
}

// TestFatalStopsEverything: a FATAL member keeps its error and ignores further input.
// Reference: docs/protocol.md §3.7.
func TestFatalStopsEverything(t *testing.T) {
	m, _ := ticked(t, stable(t, dynamicCfg(), set(0))).OnHeartbeatResponse(errResp(impl.FencedInstanceID))
	if m.Fatal() != impl.FencedInstanceID || m.WantsHeartbeat() {
		t.Fatalf("after fatal: %s", m)
	}
	for _, in := range []Input{HeartbeatTickInput{}, SubscribeInput{[]string{"x"}}, PollInput{}, PollTimeoutInput{},
		CommitTickInput{}, UnsubscribeInput{}} {
		n, effs := m.Step(in)
		if len(effs) != 0 || n.State() != Fatal {
			t.Errorf("%T: %s %v", in, n, effs)
		}
	}
}

// TestSentFieldsCache: heartbeats carry only what changed; a failed heartbeat (error or lost
// response) and a rejoin make the next one full. Reference: docs/protocol.md §3.7; KAFKA-16190.
func TestSentFieldsCache(t *testing.T) {
	full := hb("m1", 1, "", []string{"t"}, ptr(set(0, 1)))
	cases := []struct {
		name string
		prep func(*testing.T, Member) Member
		want []Effect
	}{
		{"nothing changed", func(t *testing.T, m Member) Member { return m },
			[]Effect{hb("m1", 1, "", nil, nil)}},
		{"subscription changed", func(t *testing.T, m Member) Member {
			m, _ = m.Subscribe([]string{"t", "u"})
			return m
		}, []Effect{hb("m1", 1, "", []string{"t", "u"}, nil)}},
		{"after lost response", func(t *testing.T, m Member) Member {
			m, _ = ticked(t, m).RequestTimedOut(KindHeartbeat)
			return m
		}, []Effect{full}},
		{"after retriable error", func(t *testing.T, m Member) Member {
			m, _ = ticked(t, m).OnHeartbeatResponse(errResp(impl.NotCoordinator))
			return m
		}, []Effect{full}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.prep(t, stable(t, dynamicCfg(), set(0, 1)))
			_, effs := m.HeartbeatTick()
			must(t, "HeartbeatTick", effs, c.want)
		})
	}
}

// TestLostAckIsResent: the acknowledgement's response is lost; the next heartbeat re-sends
// the owned partitions (the coordinator waits for them). Reference: docs/protocol.md §3.7, §3.9.
func TestLostAckIsResent(t *testing.T) {
	m := joining(dynamicCfg())
	m, _ = m.OnHeartbeatResponse(ok(1, ptr(set(0))))
	m, effs := m.RequestTimedOut(KindHeartbeat)
	must(t, "RequestTimedOut", effs, nil)
	m, effs = m.HeartbeatTick()
	must(t, "HeartbeatTick", effs, []Effect{hb("m1", 1, "", []string{"t"}, ptr(set(0)))})
	// A lost join is re-sent at once.
	m, _ = joining(dynamicCfg()).RequestTimedOut(KindHeartbeat)
	if !m.InFlight() {
		t.Errorf("lost join not re-sent: %s", m)
	}
}

// TestHeartbeatTickOnlyWhenDue: no heartbeat while one is in flight or outside the group.
// Reference: docs/protocol.md §3.7.
func TestHeartbeatTickOnlyWhenDue(t *testing.T) {
	for _, m := range []Member{New(dynamicCfg()), joining(dynamicCfg()), ticked(t, stable(t, dynamicCfg(), set(0)))} {
		if m.WantsHeartbeat() {
			t.Errorf("%s wants a heartbeat", m)
		}
		if _, effs := m.HeartbeatTick(); len(effs) != 0 {
			t.Errorf("%s: tick sent %v", m, effs)
		}
	}
}

// TestResponseWithoutRequestPanics: a response, or a timeout, with nothing in flight is a
// broken caller contract.
func TestResponseWithoutRequestPanics(t *testing.T) {
	m := stable(t, dynamicCfg(), set(0))
	for name, f := range map[string]func(){
		"heartbeat response": func() { m.OnHeartbeatResponse(ok(1, nil)) },
		"commit response":    func() { m.OnOffsetCommitResponse(impl.OffsetCommitResponse{}) },
		"heartbeat timeout":  func() { m.RequestTimedOut(KindHeartbeat) },
		"commit timeout":     func() { m.RequestTimedOut(KindCommit) },
		"bad kind":           func() { m.RequestTimedOut(RequestKind(5)) },
		"bad input":          func() { m.Step(nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
