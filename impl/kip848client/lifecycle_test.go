package kip848client

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// TestLeave: Unsubscribe/Close revoke everything (PREPARE_LEAVING), then LEAVING sends epoch
// -1, or -2 for a static member, and the member is UNSUBSCRIBED.
// Reference: docs/protocol.md §3.1, §3.6, §3.7.
func TestLeave(t *testing.T) {
	cases := []struct {
		name  string
		cfg   Config
		close bool
		epoch impl.Epoch
	}{
		{"dynamic unsubscribe", dynamicCfg(), false, impl.EpochLeave},
		{"dynamic close", dynamicCfg(), true, impl.EpochLeave},
		{"static unsubscribe", staticCfg(), false, impl.EpochTemporaryLeave},
		{"static close", staticCfg(), true, impl.EpochTemporaryLeave},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := stable(t, c.cfg, set(0, 1))
			var effs []Effect
			if c.close {
				m, effs = m.Close()
			} else {
				m, effs = m.Unsubscribe()
			}
			must(t, "leave", effs, []Effect{
				Callback{Revoked, set(0, 1)},
				hb("m1", c.epoch, c.cfg.InstanceID, nil, nil),
			})
			if m.State() != Unsubscribed || m.Epoch() != c.epoch || !m.Owned().IsEmpty() || !m.InFlight() {
				t.Errorf("after leave: %s", m)
			}
			// The leave's response is ignored.
			m2, effs := m.OnHeartbeatResponse(errResp(impl.UnknownMemberID))
			if len(effs) != 0 || m2.State() != Unsubscribed || m2.InFlight() {
				t.Errorf("after leave response: %s %v", m2, effs)
			}
			// Resubscribing rejoins with epoch 0, unless closed.
			m3, effs := m2.Subscribe([]string{"t"})
			if c.close {
				if len(effs) != 0 || m3.State() != Unsubscribed {
					t.Errorf("closed member rejoined: %s %v", m3, effs)
				}
				return
			}
			must(t, "resubscribe", effs, []Effect{hb("m1", 0, c.cfg.InstanceID, []string{"t"}, ptr(set()))})
		})
	}
}

// TestLeaveWaitsForInFlight: a leave waits for the heartbeat in flight; the response's content
// is ignored and the leave goes out with it. Reference: docs/protocol.md §3.7.
func TestLeaveWaitsForInFlight(t *testing.T) {
	m := ticked(t, stable(t, dynamicCfg(), set(0)))
	m, effs := m.Unsubscribe()
	must(t, "unsubscribe", effs, []Effect{Callback{Revoked, set(0)}})
	if m.State() != Leaving {
		t.Fatalf("%s", m)
	}
	if _, effs := m.HeartbeatTick(); len(effs) != 0 {
		t.Errorf("tick while in flight sent %v", effs)
	}
	m, effs = m.RequestTimedOut(KindHeartbeat)
	must(t, "lost response", effs, []Effect{hb("m1", -1, "", nil, nil)})
	if m.State() != Unsubscribed {
		t.Errorf("%s", m)
	}
}

// TestLeaveWithoutID: a member whose join is unanswered leaves once the response arrives;
// a LEAVING member ignores the response's content, so it never learns its id and has nothing
// to leave: the coordinator keeps an orphan member until its session expires (the snapshot's
// behaviour, KAFKA-17116). Reference: docs/protocol.md §3.1, §3.7.
func TestLeaveWithoutID(t *testing.T) {
	m, effs := joining(dynamicCfg()).Unsubscribe()
	must(t, "unsubscribe", effs, nil)
	if m.State() != Leaving {
		t.Fatalf("%s", m)
	}
	m, effs = m.OnHeartbeatResponse(ok(1, ptr(set(0))))
	must(t, "join response", effs, nil)
	if m.State() != Unsubscribed || m.Epoch() != impl.EpochLeave || m.MemberID() != "" || m.InFlight() {
		t.Errorf("%s", m)
	}
}

// TestClientGeneratedID: under KIP-1082 the client names itself from the start: its join
// heartbeat and, after a lost answer, its retry carry the id (so the coordinator sees one
// member, not two), and a close before any answer leaves with it. Reference: KIP-1082;
// docs/protocol.md §3.1, §3.7.
func TestClientGeneratedID(t *testing.T) {
	cfg := dynamicCfg()
	cfg.MemberID = "m1"
	m, effs := New(cfg).Subscribe([]string{"t"})
	must(t, "join", effs, []Effect{hb("m1", 0, "", []string{"t"}, ptr(set()))})
	m2, effs := m.RequestTimedOut(KindHeartbeat)
	must(t, "retry after a lost answer", effs, []Effect{hb("m1", 0, "", []string{"t"}, ptr(set()))})
	if m2.MemberID() != "m1" {
		t.Errorf("after a lost answer: %s", m2)
	}
	m, effs = m.Unsubscribe()
	must(t, "unsubscribe", effs, nil)
	m, effs = m.OnHeartbeatResponse(ok(1, ptr(set(0))))
	must(t, "join response", effs, []Effect{hb("m1", impl.EpochLeave, "", nil, nil)})
	if m.State() != Unsubscribed {
		t.Errorf("%s", m)
	}
}

// TestPollTimeout: max.poll.interval.ms expires: leave (no revocation callbacks), STALE with
// onPartitionsLost; the next poll rejoins with epoch 0. Reference: docs/protocol.md §3.7.
func TestPollTimeout(t *testing.T) {
	for _, c := range []struct {
		name  string
		cfg   Config
		epoch impl.Epoch
	}{{"dynamic", dynamicCfg(), -1}, {"static", staticCfg(), -2}} {
		t.Run(c.name, func(t *testing.T) {
			m, effs := stable(t, c.cfg, set(0, 1)).PollTimeout()
			must(t, "PollTimeout", effs, []Effect{
				hb("m1", c.epoch, c.cfg.InstanceID, nil, nil),
				Callback{Lost, set(0, 1)},
			})
			if m.State() != Stale || !m.Owned().IsEmpty() {
				t.Fatalf("%s", m)
			}
			if n, effs := m.HeartbeatTick(); len(effs) != 0 || n.State() != Stale {
				t.Errorf("stale member heartbeats: %v", effs)
			}
			m, effs = m.Poll()
			must(t, "Poll before leave response", effs, nil) // the leave is still in flight
			if m.State() != Joining {
				t.Fatalf("%s", m)
			}
			m, effs = m.OnHeartbeatResponse(ok(c.epoch, nil))
			must(t, "leave response", effs, []Effect{hb("m1", 0, c.cfg.InstanceID, []string{"t"}, ptr(set()))})
		})
	}
}

// TestFencedWhileLeavingAfterPollTimeout: fenced before the leave went out, a poll-expired
// member completes its leave as STALE, losing its partitions. Reference: docs/protocol.md §3.7.
func TestFencedWhileLeavingAfterPollTimeout(t *testing.T) {
	m, _ := ticked(t, stable(t, dynamicCfg(), set(0))).PollTimeout()
	if m.State() != Leaving {
		t.Fatalf("%s", m)
	}
	m, effs := m.OnHeartbeatResponse(errResp(impl.FencedMemberEpoch))
	must(t, "fenced", effs, []Effect{Callback{Lost, set(0)}})
	if m.State() != Stale || m.InFlight() {
		t.Errorf("%s", m)
	}
}

// TestSubscribeWhileLeaving: a subscription given while leaving is kept for the next poll.
// Reference: docs/protocol.md §3.7.
func TestSubscribeWhileLeaving(t *testing.T) {
	m, _ := ticked(t, stable(t, dynamicCfg(), set(0))).Unsubscribe()
	m, effs := m.Subscribe([]string{"u"})
	must(t, "subscribe while leaving", effs, nil)
	m, _ = m.RequestTimedOut(KindHeartbeat) // leave sent → UNSUBSCRIBED
	m, _ = m.OnHeartbeatResponse(ok(-1, nil))
	m, effs = m.Poll()
	must(t, "poll", effs, []Effect{hb("m1", 0, "", []string{"u"}, ptr(set()))})
	// Subscribing to nothing is unsubscribing.
	m, _ = m.OnHeartbeatResponse(ok(4, ptr(set())))
	m, effs = m.Subscribe(nil)
	if m.State() != Leaving && m.State() != Unsubscribed {
		t.Errorf("Subscribe(nil) did not leave: %s %v", m, effs)
	}
}
