package kip848

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

func TestOffsetCommit(t *testing.T) {
	g := revoking(t, Config{}) // a at 1 (UNREVOKED, previous 1), b at 2
	empty := New(Config{}, cluster)
	for _, tc := range []struct {
		name string
		g    Group
		req  impl.OffsetCommitRequest
		want impl.ErrorCode
	}{
		// Reference: docs/protocol.md §3.1: accepted only at the member's current epoch, exactly.
		{"current epoch", g, impl.OffsetCommitRequest{MemberID: "b", Generation: 2}, impl.None},
		{"revoking member at its epoch", g, impl.OffsetCommitRequest{MemberID: "a", Generation: 1, Partitions: ps("t-0")}, impl.None},
		{"previous epoch", g, impl.OffsetCommitRequest{MemberID: "b", Generation: 1}, impl.StaleMemberEpoch},
		{"future epoch", g, impl.OffsetCommitRequest{MemberID: "b", Generation: 3}, impl.StaleMemberEpoch},
		{"unknown member", g, impl.OffsetCommitRequest{MemberID: "zz", Generation: 2}, impl.UnknownMemberID},
		{"negative epoch on a group with members", g, impl.OffsetCommitRequest{Generation: -1}, impl.UnknownMemberID},
		{"admin commit on an empty group", empty, impl.OffsetCommitRequest{Generation: -1}, impl.None},
		// Reference: docs/protocol.md §3.1, §6: no per-partition ownership check.
		{"partitions the member does not own", g, impl.OffsetCommitRequest{MemberID: "b", Generation: 2, Partitions: ps("u-1")}, impl.None},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Conn = 7
			ng, out := tc.g.OffsetCommit(tc.req)
			if len(out) != 1 || out[0].To != 7 {
				t.Fatalf("replies = %+v", out)
			}
			if got := out[0].Response.Code(); got != tc.want {
				t.Errorf("error = %s, want %s", got, tc.want)
			}
			if string(ng.AppendEncoding(nil)) != string(tc.g.AppendEncoding(nil)) {
				t.Errorf("commit changed the group")
			}
		})
	}
}
