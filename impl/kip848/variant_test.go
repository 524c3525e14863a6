package kip848

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// Reference: docs/protocol.md §3.4 (E+1 per completed revocation step) vs docs/protocol.md §8 (ack → target
// epoch): a revokes twice in a row; after the first ack Kafka moves it to epoch 2, so a
// commit at epoch 1 (from before the first revocation) is STALE under the exact rule of Kafka
// 4.0 to 4.2; the KIP-848 draft keeps it at 1.
func TestVariantsTwoRevocationSteps(t *testing.T) {
	for _, tc := range []struct {
		v         impl.Variant
		wantEpoch impl.Epoch
		wantOld   impl.ErrorCode
	}{
		{impl.Kafka, 2, impl.StaleMemberEpoch},
		{impl.KIP, 1, impl.None},
	} {
		t.Run(tc.v.String(), func(t *testing.T) {
			g := New(Config{Variant: tc.v, CommitRule: CommitExactEpoch}, impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 6}))
			g, _ = step(t, g, joinReq("a", "t"), "")
			g, _ = step(t, g, joinReq("b", "t"), "")
			g, _ = step(t, g, hb("a", 1, nil), "")
			g, _ = step(t, g, joinReq("c", "t"), "")
			g, r := step(t, g, hb("a", 1, setPtr(member(t, g, "a").AssignedPartitions)), "")
			if a := member(t, g, "a"); a.State != UnrevokedPartitions || a.MemberEpoch != tc.wantEpoch || r.MemberEpoch != tc.wantEpoch {
				t.Fatalf("a = %s, response %+v; want UNREVOKED at %d", a, r, tc.wantEpoch)
			}
			_, out := g.OffsetCommit(impl.OffsetCommitRequest{MemberID: "a", Generation: 1})
			if got := out[0].Response.Code(); got != tc.wantOld {
				t.Errorf("commit at epoch 1 = %s, want %s", got, tc.wantOld)
			}
		})
	}
}

// Reference: house style: canonical encoding and rendering.
func TestEncodingAndString(t *testing.T) {
	g := revoking(t, Config{})
	same := revoking(t, Config{})
	if string(g.AppendEncoding(nil)) != string(same.AppendEncoding(nil)) {
		t.Error("equal groups encode differently")
	}
	acked, _ := step(t, g, hb("a", 1, setPtr(g.TargetOf("a"))), "")
	if string(g.AppendEncoding(nil)) == string(acked.AppendEncoding(nil)) {
		t.Error("different groups encode equally")
	}
	for _, want := range []string{"RECONCILING", "epoch=2", "target@2=", "UNREVOKED_PARTITIONS", "revoking=", "timer@1", "topics=(t)"} {
		if !strings.Contains(g.String(), want) {
			t.Errorf("String() = %s, missing %q", g, want)
		}
	}
	st, _ := step(t, New(Config{}, cluster), staticJoin("s", "i", "t"), "")
	if !strings.Contains(st.String(), "s[i]{STABLE") {
		t.Errorf("static rendering: %s", st)
	}
	for _, s := range []interface{ String() string }{MemberState(9), GroupState(9), Empty, Assigning, UnreleasedPartitions} {
		if s.String() == "" {
			t.Errorf("empty name for %#v", s)
		}
	}
	if g.Config().Variant != impl.Kafka || len(g.Members()) != 2 {
		t.Error("queries")
	}
	if _, ok := g.StaticMember(""); ok {
		t.Error("empty instance id matched")
	}
	if !New(Config{}, cluster).Target().Equal(nil) || New(Config{}, cluster).State() != Empty {
		t.Error("empty group")
	}
}

// Reference: docs/protocol.md §3.2: two holders of one partition is a broken contract.
func TestSingleHolderPanics(t *testing.T) {
	g := revoking(t, Config{})
	b := member(t, g, "b")
	b.AssignedPartitions = member(t, g, "a").PartitionsPendingRevocation
	bad := g.withMember(b)
	for name, f := range map[string]func(){
		"PartitionEpochs": func() { bad.PartitionEpochs() },
		"transition":      func() { bad.SessionExpired("zz-not-there").MetadataChanged(cluster) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(r.(string), "held by a and b") {
					t.Errorf("recover() = %v, want a panic naming the holders", r)
				}
			}()
			f()
		})
	}
}
