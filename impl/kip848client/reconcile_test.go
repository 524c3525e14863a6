package kip848client

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// TestReconciliationOrder: a target that both revokes and adds runs commit → revoked →
// assigned → ACKNOWLEDGING (ack sent at once). Reference: docs/protocol.md §3.7.
func TestReconciliationOrder(t *testing.T) {
	m := ticked(t, stable(t, dynamicCfg(), set(0, 1)))
	m, effs := m.OnHeartbeatResponse(ok(2, ptr(set(1, 2))))
	must(t, "response", effs, []Effect{commitReq(2, set(0, 1))})
	if m.State() != Reconciling || !m.Owned().Equal(set(0, 1)) {
		t.Fatalf("while committing: %s", m)
	}
	m, effs = m.OnOffsetCommitResponse(impl.OffsetCommitResponse{})
	must(t, "commit response", effs, []Effect{
		CommitResult{Accepted: true, Revocation: true, Epoch: 2, Partitions: set(0, 1)},
		Callback{Revoked, set(0)},
		Callback{Assigned, set(2)},
		hb("m1", 2, "", nil, ptr(set(1, 2))),
	})
	if m.State() != Stable || !m.Owned().Equal(set(1, 2)) {
		t.Errorf("after reconciliation: %s", m)
	}
}

// TestOneReconciliationAtATime: a newer target arriving during a reconciliation waits for it
// to finish; the acknowledgement's sending then starts the next one. Reference: docs/protocol.md §3.7.
func TestOneReconciliationAtATime(t *testing.T) {
	m := ticked(t, stable(t, dynamicCfg(), set(0, 1, 2)))
	m, _ = m.OnHeartbeatResponse(ok(2, ptr(set(0, 1)))) // revoke 2: commit in flight
	m = ticked(t, m)
	m, effs := m.OnHeartbeatResponse(ok(3, ptr(set(0)))) // revoke 1 too: waits
	must(t, "second target", effs, nil)
	if m.Rec.Target.Equal(set(0)) || m.State() != Reconciling {
		t.Fatalf("the running reconciliation changed target: %s", m)
	}
	m, effs = m.OnOffsetCommitResponse(impl.OffsetCommitResponse{})
	// First reconciliation completes (revoke 2); the ack goes out, and since the target moved
	// on, the member is RECONCILING again with a new revocation commit at epoch 3.
	must(t, "commit response", effs, []Effect{
		CommitResult{Accepted: true, Revocation: true, Epoch: 2, Partitions: set(0, 1, 2)},
		Callback{Revoked, set(2)},
		Callback{Assigned, set()},
		hb("m1", 3, "", nil, ptr(set(0, 1))),
		commitReq(3, set(0, 1)),
	})
	if m.State() != Reconciling {
		t.Fatalf("after first reconciliation: %s", m)
	}
	m, effs = m.OnOffsetCommitResponse(impl.OffsetCommitResponse{})
	must(t, "second commit response", effs, []Effect{
		CommitResult{Accepted: true, Revocation: true, Epoch: 3, Partitions: set(0, 1)},
		Callback{Revoked, set(1)},
		Callback{Assigned, set()},
	})
	if m.State() != Acknowledging || !m.InFlight() {
		t.Fatalf("ack must wait for the heartbeat in flight: %s", m)
	}
	m, effs = m.OnHeartbeatResponse(ok(3, nil))
	must(t, "ack after response", effs, []Effect{hb("m1", 3, "", nil, ptr(set(0)))})
	if m.State() != Stable {
		t.Errorf("final: %s", m)
	}
}

// TestNewTargetWhileAcknowledging: a target received before the ack went out sends the
// member back to RECONCILING; the next ack carries the newest owned set.
// Reference: docs/protocol.md §3.7 (RECONCILING <- ACKNOWLEDGING).
func TestNewTargetWhileAcknowledging(t *testing.T) {
	m := ticked(t, stable(t, dynamicCfg(), set(0, 1)))
	m, _ = m.OnHeartbeatResponse(ok(2, ptr(set(0)))) // revoke 1: commit in flight
	m = ticked(t, m)                                 // a heartbeat in flight
	m, _ = m.OnOffsetCommitResponse(impl.OffsetCommitResponse{})
	if m.State() != Acknowledging || !m.Owned().Equal(set(0)) {
		t.Fatalf("want ACKNOWLEDGING owning t-0, got %s", m)
	}
	m, effs := m.OnHeartbeatResponse(ok(3, ptr(set(0, 2))))
	must(t, "new target while acknowledging", effs, []Effect{
		Callback{Assigned, set(2)},
		hb("m1", 3, "", nil, ptr(set(0, 2))),
	})
	if m.State() != Stable || !m.Owned().Equal(set(0, 2)) {
		t.Errorf("after new target while acknowledging: %s", m)
	}
}
