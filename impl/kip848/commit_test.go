package kip848

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// TestOffsetCommit is the rule of Kafka 4.0 to 4.2 (CommitExactEpoch); KIP-1251's older
// epochs are TestOffsetCommitAssignmentEpochs.
func TestOffsetCommit(t *testing.T) {
	exact := Config{CommitRule: CommitExactEpoch}
	g := revoking(t, exact) // a at 1 (UNREVOKED, previous 1), b at 2
	empty := New(exact, cluster)
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

// TestOffsetCommitAssignmentEpochs is KIP-1251's rule (KAFKA-20066, Kafka 4.3 on; Kafka
// 4.4.0's ConsumerGroup.validateOffsetCommit and createAssignmentEpochValidator): a commit at
// an epoch older than the member's is accepted when every partition in it is held by the
// member and was assigned to it at or before that epoch; a newer epoch, or any partition
// assigned later or not held, refuses the whole commit. Without the rule only the member's
// epoch is accepted.
func TestOffsetCommitAssignmentEpochs(t *testing.T) {
	run := func(cfg Config) Group {
		g := revoking(t, cfg) // a at 1 revoking t-0 t-1 for b; b joined at 2
		g, _ = step(t, g, hb("a", 1, owned("t-2 t-3")), "")
		g, _ = step(t, g, hb("b", 2, owned("")), "")
		return g
	}
	g := run(Config{})
	a, b := member(t, g, "a"), member(t, g, "b")
	if a.MemberEpoch != 2 || b.MemberEpoch != 2 || !b.AssignedPartitions.Equal(ps("t-0 t-1")) {
		t.Fatalf("setup: %s", g)
	}
	// The epochs a partition was assigned at: a kept t-2 t-3 from epoch 1, b took t-0 t-1 at 2.
	if e, ok := a.AssignmentEpoch(impl.TP("t", 2)); !ok || e != 1 {
		t.Errorf("a's t-2 assigned at %d (held %v), want 1", e, ok)
	}
	if e, ok := b.AssignmentEpoch(impl.TP("t", 0)); !ok || e != 2 {
		t.Errorf("b's t-0 assigned at %d (held %v), want 2", e, ok)
	}
	exact := run(Config{CommitRule: CommitExactEpoch})
	if m := member(t, exact, "a"); m.AssignedAt != nil {
		t.Errorf("without KIP-1251 the member keeps assignment epochs: %s", m)
	}
	for _, tc := range []struct {
		name        string
		req         impl.OffsetCommitRequest
		kip1251, up impl.ErrorCode // with the rule; without it (Kafka up to 4.2)
	}{
		{"current epoch", impl.OffsetCommitRequest{MemberID: "a", Generation: 2, Partitions: ps("t-2")}, impl.None, impl.None},
		{"older epoch, assigned before it", impl.OffsetCommitRequest{MemberID: "a", Generation: 1, Partitions: ps("t-2 t-3")}, impl.None, impl.StaleMemberEpoch},
		{"older epoch, a partition no longer held", impl.OffsetCommitRequest{MemberID: "a", Generation: 1, Partitions: ps("t-2 t-0")}, impl.StaleMemberEpoch, impl.StaleMemberEpoch},
		{"older epoch, assigned after it", impl.OffsetCommitRequest{MemberID: "b", Generation: 1, Partitions: ps("t-0")}, impl.StaleMemberEpoch, impl.StaleMemberEpoch},
		{"newer epoch", impl.OffsetCommitRequest{MemberID: "a", Generation: 3, Partitions: ps("t-2")}, impl.StaleMemberEpoch, impl.StaleMemberEpoch},
		{"older epoch, no partitions", impl.OffsetCommitRequest{MemberID: "a", Generation: 1}, impl.None, impl.StaleMemberEpoch},
	} {
		for _, c := range []struct {
			g    Group
			want impl.ErrorCode
		}{{g, tc.kip1251}, {exact, tc.up}} {
			_, out := c.g.OffsetCommit(tc.req)
			if got := out[0].Response.Code(); got != c.want {
				t.Errorf("%s (%s): %s, want %s", tc.name, c.g.Config().CommitRule, got, c.want)
			}
		}
		// The group run with the rule answers as either coordinator would.
		for rule, want := range map[CommitRule]impl.ErrorCode{CommitAssignmentEpochs: tc.kip1251, CommitExactEpoch: tc.up} {
			ng, out := g.OffsetCommitUnder(tc.req, rule)
			if got := out[0].Response.Code(); got != want || ng.Config().CommitRule != CommitAssignmentEpochs {
				t.Errorf("%s: OffsetCommitUnder(%s): %s, want %s", tc.name, rule, got, want)
			}
		}
	}
}

// TestAssignmentEpochsFollowHoldings: a partition pending revocation keeps its epoch until
// the member lets it go; what a member newly holds takes the epoch it moved to.
func TestAssignmentEpochsFollowHoldings(t *testing.T) {
	g := revoking(t, Config{})
	a := member(t, g, "a")
	if e, ok := a.AssignmentEpoch(impl.TP("t", 1)); !ok || e != 1 || !a.PartitionsPendingRevocation.Contains(impl.TP("t", 1)) {
		t.Fatalf("a revoking t-1: epoch %d held %v: %s", e, ok, a)
	}
	g, _ = step(t, g, hb("a", 1, owned("t-2 t-3")), "")
	if _, ok := member(t, g, "a").AssignmentEpoch(impl.TP("t", 1)); ok {
		t.Errorf("a still has an assignment epoch for t-1 it released: %s", member(t, g, "a"))
	}
}

// TestCommitRuleNames: each rule's config-file name parses back to it (spec's commit-epochs;
// docs/protocol.md §3.1), and an unknown name is refused.
func TestCommitRuleNames(t *testing.T) {
	for _, r := range []CommitRule{CommitAssignmentEpochs, CommitExactEpoch} {
		if got, ok := ParseCommitRule(r.String()); !ok || got != r {
			t.Errorf("ParseCommitRule(%q) = %v, %v", r.String(), got, ok)
		}
	}
	if r, ok := ParseCommitRule("kip-848"); ok {
		t.Errorf("ParseCommitRule(kip-848) = %v, want refused", r)
	}
	if CommitRule(7).String() != "invalid-commit-rule" {
		t.Errorf("CommitRule(7) = %q", CommitRule(7).String())
	}
}
