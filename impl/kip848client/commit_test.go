package kip848client

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// TestCommitTick: a commit carries the member epoch as its generation and the owned
// partitions; it is reported with its outcome. Reference: docs/protocol.md §3.1.
func TestCommitTick(t *testing.T) {
	cases := []struct {
		name string
		m    func(*testing.T) Member
		want []Effect
	}{
		{"stable member commits with its epoch", func(t *testing.T) Member { return stable(t, dynamicCfg(), set(0)) },
			[]Effect{commitReq(1, set(0))}},
		{"nothing owned", func(t *testing.T) Member { return stable(t, dynamicCfg(), set()) }, nil},
		{"joining", func(t *testing.T) Member { return joining(dynamicCfg()) }, nil},
		{"commit already in flight", func(t *testing.T) Member {
			m, _ := stable(t, dynamicCfg(), set(0)).CommitTick()
			return m
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, effs := c.m(t).CommitTick()
			must(t, "CommitTick", effs, c.want)
		})
	}
	m, _ := stable(t, dynamicCfg(), set(0)).CommitTick()
	for _, r := range []struct {
		resp impl.ErrorCode
		want CommitResult
	}{
		{impl.None, CommitResult{Accepted: true, Epoch: 1, Partitions: set(0)}},
		// Reference: docs/protocol.md §3.1 — only revocation commits are retried on STALE_MEMBER_EPOCH.
		{impl.StaleMemberEpoch, CommitResult{Error: impl.StaleMemberEpoch, Epoch: 1, Partitions: set(0)}},
	} {
		n, effs := m.OnOffsetCommitResponse(impl.OffsetCommitResponse{Error: r.resp})
		must(t, "response "+r.resp.String(), effs, []Effect{r.want})
		if n.CommitInFlight() {
			t.Errorf("commit still in flight: %s", n)
		}
	}
	_, effs := m.RequestTimedOut(KindCommit)
	must(t, "timeout", effs, []Effect{CommitResult{TimedOut: true, Epoch: 1, Partitions: set(0)}})
}

// TestRevocationCommitStaleEpoch: the auto-commit before a revocation refused with
// STALE_MEMBER_EPOCH is retried with the latest epoch if the member learnt a newer one since;
// otherwise the revocation goes on. Reference: docs/protocol.md §3.1, §3.7.
func TestRevocationCommitStaleEpoch(t *testing.T) {
	revoking := func(t *testing.T) Member { // owns 0,1; revoking 1 at epoch 2; commit in flight
		m, _ := ticked(t, stable(t, dynamicCfg(), set(0, 1))).OnHeartbeatResponse(ok(2, ptr(set(0))))
		return m
	}
	t.Run("newer epoch known: retry", func(t *testing.T) {
		m := ticked(t, revoking(t))
		m, _ = m.OnHeartbeatResponse(ok(3, nil))
		m, effs := m.OnOffsetCommitResponse(impl.OffsetCommitResponse{Error: impl.StaleMemberEpoch})
		must(t, "stale", effs, []Effect{
			CommitResult{Retried: true, Revocation: true, Error: impl.StaleMemberEpoch, Epoch: 2, Partitions: set(0, 1)},
			commitReq(3, set(0, 1)),
		})
		if m.State() != Reconciling || !m.Owned().Equal(set(0, 1)) {
			t.Errorf("%s", m)
		}
	})
	t.Run("same epoch: revocation goes on", func(t *testing.T) {
		m, effs := revoking(t).OnOffsetCommitResponse(impl.OffsetCommitResponse{Error: impl.StaleMemberEpoch})
		must(t, "stale", effs, []Effect{
			CommitResult{Revocation: true, Error: impl.StaleMemberEpoch, Epoch: 2, Partitions: set(0, 1)},
			Callback{Revoked, set(1)},
			Callback{Assigned, set()},
			hb("m1", 2, "", nil, ptr(set(0))),
		})
		if m.State() != Stable {
			t.Errorf("%s", m)
		}
	})
	t.Run("lost commit response: revocation goes on", func(t *testing.T) {
		m, effs := revoking(t).RequestTimedOut(KindCommit)
		must(t, "timeout", effs, []Effect{
			CommitResult{TimedOut: true, Revocation: true, Epoch: 2, Partitions: set(0, 1)},
			Callback{Revoked, set(1)},
			Callback{Assigned, set()},
			hb("m1", 2, "", nil, ptr(set(0))),
		})
		if m.State() != Stable {
			t.Errorf("%s", m)
		}
	})
	t.Run("fenced meanwhile: aborted, no retry", func(t *testing.T) {
		m := ticked(t, revoking(t))
		m, _ = m.OnHeartbeatResponse(errResp(impl.FencedMemberEpoch))
		m, effs := m.OnOffsetCommitResponse(impl.OffsetCommitResponse{Error: impl.StaleMemberEpoch})
		must(t, "stale after fence", effs, []Effect{
			CommitResult{Revocation: true, Error: impl.StaleMemberEpoch, Epoch: 2, Partitions: set(0, 1)},
		})
		if m.State() != Joining {
			t.Errorf("%s", m)
		}
	})
}

// TestRevocationWaitsForEarlierCommit: a revocation needing a commit while an application
// commit is in flight sends its own commit once that one is answered. Reference: docs/protocol.md §3.7.
func TestRevocationWaitsForEarlierCommit(t *testing.T) {
	m, _ := ticked(t, stable(t, dynamicCfg(), set(0, 1))).CommitTick()
	m, effs := m.OnHeartbeatResponse(ok(2, ptr(set(1))))
	must(t, "revocation target", effs, nil)
	if !m.Rec.AwaitCommit {
		t.Fatalf("%s", m)
	}
	m, effs = m.OnOffsetCommitResponse(impl.OffsetCommitResponse{})
	must(t, "app commit answered", effs, []Effect{
		CommitResult{Accepted: true, Epoch: 1, Partitions: set(0, 1)},
		commitReq(2, set(0, 1)),
	})
	m, effs = m.OnOffsetCommitResponse(impl.OffsetCommitResponse{})
	must(t, "revocation commit answered", effs, []Effect{
		CommitResult{Accepted: true, Revocation: true, Epoch: 2, Partitions: set(0, 1)},
		Callback{Revoked, set(0)},
		Callback{Assigned, set()},
		hb("m1", 2, "", nil, ptr(set(1))),
	})
	if m.State() != Stable {
		t.Errorf("%s", m)
	}
}
