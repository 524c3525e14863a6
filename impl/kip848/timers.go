package kip848

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// SessionTimers lists the members whose session timer can fire: every member, including
// static members away after a temporary leave (docs/protocol.md §3.5, §3.6).
func (g Group) SessionTimers() []impl.MemberID {
	ids := make([]impl.MemberID, len(g.members))
	for i, m := range g.members {
		ids[i] = m.ID
	}
	return ids
}

// SessionExpired fences the member whose session timed out: it is removed with its partition
// epochs and target entry, and the group epoch is bumped. Unknown ids are a no-op.
// Reference: docs/protocol.md §3.5.
func (g Group) SessionExpired(id impl.MemberID) Group {
	if _, ok := g.index(id); !ok {
		return g
	}
	return g.removeMember(id).checked("SessionExpired")
}

// RebalanceTimerRef names one armed rebalance timer: the member and the epoch it was armed at.
type RebalanceTimerRef struct {
	Member impl.MemberID
	Epoch  impl.Epoch
}

// RebalanceTimers lists the armed rebalance timers, in member order.
func (g Group) RebalanceTimers() []RebalanceTimerRef {
	var out []RebalanceTimerRef
	for _, m := range g.members {
		if m.RebalanceTimer.Armed {
			out = append(out, RebalanceTimerRef{m.ID, m.RebalanceTimer.Epoch})
		}
	}
	return out
}

// RebalanceTimeoutExpired fires the member's rebalance timer armed at epoch: the member is
// fenced (as on session expiry) only if the timer is still armed at that epoch and the member
// is still at that epoch in UNREVOKED_PARTITIONS; otherwise the firing is stale and ignored.
// Reference: docs/protocol.md §3.5.
func (g Group) RebalanceTimeoutExpired(id impl.MemberID, epoch impl.Epoch) Group {
	m, ok := g.Member(id)
	if !ok || m.State != UnrevokedPartitions || m.MemberEpoch != epoch ||
		m.RebalanceTimer != (RebalanceTimer{Armed: true, Epoch: epoch}) {
		return g
	}
	return g.removeMember(id).checked("RebalanceTimeoutExpired")
}

// MetadataChanged installs new cluster metadata and bumps the group epoch if the partition
// count of any subscribed topic changed (subscription metadata refresh, docs/protocol.md §3.3 step 4).
// The target is recomputed lazily by the next heartbeat.
func (g Group) MetadataChanged(c impl.Cluster) Group {
	changed := slices.ContainsFunc(g.AssignmentSpec().topics(), func(t string) bool {
		return g.cluster.PartitionCount(t) != c.PartitionCount(t)
	})
	g.cluster = c
	if changed {
		g.groupEpoch++
	}
	return g.checked("MetadataChanged")
}
