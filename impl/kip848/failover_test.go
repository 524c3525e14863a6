package kip848

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/groupcheck/groupcheck/impl"
)

// TestReloadKeepsEverything: a failover loses nothing of a consumer group — every field is
// replayed from its records — and the rebalance timer of a member in UNREVOKED_PARTITIONS is
// armed afresh at its epoch, of no other member. Reference: docs/protocol.md §3.2, §3.5
// (GroupMetadataManager.onLoaded).
func TestReloadKeepsEverything(t *testing.T) {
	g := revoking(t, Config{}) // a UNREVOKED at 1 with a timer, b reconciling
	for _, tc := range []struct {
		name string
		g    Group
	}{
		{"revoking", g},
		{"new", New(Config{}, cluster)},
		{"timer lost: re-armed", mutate(g, "a", func(m *Member) { m.RebalanceTimer = RebalanceTimer{} })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.g.Reload()
			want := tc.g
			want.members = append([]Member(nil), tc.g.members...)
			for i := range want.members {
				if want.members[i].State == UnrevokedPartitions {
					want.members[i].RebalanceTimer = RebalanceTimer{Armed: true, Epoch: want.members[i].MemberEpoch}
				}
			}
			if d := cmp.Diff(want, got, cmpOpts, cmp.AllowUnexported(Group{})); d != "" {
				t.Errorf("Reload (-want +got):\n%s", d)
			}
		})
	}
	if d := cmp.Diff([]RebalanceTimerRef{{"a", 1}}, g.Reload().RebalanceTimers()); d != "" {
		t.Errorf("timers after reload (-want +got):\n%s", d)
	}
}

// mutate returns g with member id's record changed by f.
func mutate(g Group, id impl.MemberID, f func(*Member)) Group {
	g.members = append([]Member(nil), g.members...)
	i, _ := g.index(id)
	f(&g.members[i])
	return g
}

// TestFailoverReplies: a broker that lost the group answers NOT_COORDINATOR, a coordinator
// still loading it COORDINATOR_LOAD_IN_PROGRESS, to heartbeats and commits alike.
// Reference: docs/protocol.md §3.1 (errors).
func TestFailoverReplies(t *testing.T) {
	for _, req := range []impl.Request{hb("a", 3, nil), impl.OffsetCommitRequest{Conn: 2, MemberID: "a", Generation: 3}} {
		for code, f := range map[impl.ErrorCode]func(impl.Request) impl.Reply{
			impl.NotCoordinator: NotCoordinatorReply, impl.CoordinatorLoadInProgress: LoadingReply,
		} {
			r := f(req)
			if r.To != req.From() || r.Response.Code() != code {
				t.Errorf("%T: reply %+v, want %v to conn %d", req, r, code, req.From())
			}
		}
	}
}
