package consumer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

func TestOnJoinComplete(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cfg        Config
		owned      impl.PartitionSet
		assigned   impl.PartitionSet
		want       []string
		wantOwned  impl.PartitionSet
		wantRejoin bool
	}{
		// Reference: docs/protocol.md §2.6 steps 2–4 — cooperative: revoked first, then rejoin.
		{"cooperative revokes moved partitions then assigns added ones and rejoins", testConfig(impl.Kafka),
			P("t", 0, 1), P("t", 1, 2), []string{"callback revoked (t-0)", "callback assigned (t-2)"}, P("t", 1, 2), true},
		// Reference: docs/protocol.md §2.6 step 4 — onPartitionsAssigned even with an empty set.
		{"cooperative unchanged assignment calls assigned with nothing", testConfig(impl.Kafka),
			P("t", 0), P("t", 0), []string{"callback assigned ()"}, P("t", 0), false},
		// Reference: docs/protocol.md §1.11 eager — onJoinComplete assigns everything.
		{"eager assigns the whole assignment", testConfig(impl.Kafka, eager...),
			impl.PartitionSet{}, P("t", 1, 2), []string{"callback assigned (t-1 t-2)"}, P("t", 1, 2), false},
		// Reference: docs/protocol.md §2.6 step 1 — topics outside the subscription: not applied.
		{"assignment outside the subscription is not applied", testConfig(impl.Kafka),
			P("t", 0), P("t", 0).Union(P("x", 0)), nil, P("t", 0), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := stableConsumer(tc.cfg, tc.owned)
			c.Gen.ID = 4
			got, effs := OnJoinComplete(c, impl.Assignment{Partitions: tc.assigned})
			if d := cmp.Diff(tc.want, render(effs), cmpOpts); d != "" {
				t.Errorf("effects (-want +got):\n%s", d)
			}
			if !got.Owned().Equal(tc.wantOwned) || got.RejoinNeeded != tc.wantRejoin {
				t.Errorf("got owned %v rejoin %v, want %v %v", got.Owned(), got.RejoinNeeded, tc.wantOwned, tc.wantRejoin)
			}
		})
	}
}

func TestEagerRoundEndToEnd(t *testing.T) {
	// Reference: docs/protocol.md §1.11 eager behaviour, §2.3, §2.6.
	c := stableConsumer(testConfig(impl.Kafka, eager...), P("t", 0))
	c.RejoinNeeded = true
	var all []Effect
	for _, in := range []Input{
		PollTick{},
		Received{Response: impl.OffsetCommitResponse{}},
		Received{Response: impl.JoinGroupResponse{Generation: 4, ProtocolName: Range, Leader: "m0", MemberID: "m1"}},
		Received{Response: impl.SyncGroupResponse{Assignment: impl.Assignment{Partitions: P("t", 0, 1)}}},
	} {
		var effs []Effect
		c, effs = c.Step(in)
		all = append(all, effs...)
	}
	want := []string{
		`send OffsetCommit member="m1" gen=3 (t-0)`,
		"callback revoked (t-0)",
		`send JoinGroup v9 member="m1" topics=[t u] owned=() gen=3`,
		`commit-result accepted error=NONE gen=3 (t-0)`,
		`send SyncGroup member="m1" gen=4 assignments=0`,
		"callback assigned (t-0 t-1)",
	}
	if d := cmp.Diff(want, render(all)); d != "" {
		t.Errorf("effects (-want +got):\n%s", d)
	}
	if c.State() != Stable || c.Generation() != 4 || c.RejoinNeeded || !c.NeedsJoinPrepare {
		t.Errorf("after round: %v", c)
	}
}

func TestSubscriptionChangedDuringRebalanceRejoins(t *testing.T) {
	// Reference: docs/protocol.md §2.6 (joinedSubscription): a round completed with an older
	// subscription is followed by another rejoin.
	c := syncingConsumer(t, testConfig(impl.Kafka), P("t", 0))
	c, _ = c.SubscriptionChanged([]string{"t", "u", "v"})
	c, _ = c.Receive(impl.SyncGroupResponse{Assignment: impl.Assignment{Partitions: P("t", 0)}})
	if c.State() != Stable || !c.WantsToJoin() {
		t.Errorf("after round with changed subscription: %v", c)
	}
}
