package consumer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// TestFollowupRecordedOnAssignment: every applied assignment sets or clears the follow-up
// request (Streams' onAssignment → maybeScheduleFollowupRebalance), and one that is not
// applied (topics outside the subscription) leaves it as it was.
// Reference: KIP-441; docs/protocol.md §2.6 step 1.
func TestFollowupRecordedOnAssignment(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     Config
		due     bool
		a       impl.Assignment
		wantDue bool
	}{
		{"asked", testConfig(impl.Kafka), false, impl.Assignment{Partitions: P("t", 0), Followup: true}, true},
		{"a newer assignment without a request clears an old one", testConfig(impl.Kafka), true, impl.Assignment{Partitions: P("t", 0)}, false},
		{"eager", testConfig(impl.Kafka, eager...), false, impl.Assignment{Partitions: P("t", 0), Followup: true}, true},
		{"docs/protocol.md §7.3 application too", testConfig(impl.KIP), false, impl.Assignment{Partitions: P("t", 0), Followup: true}, true},
		{"not applied: unchanged", testConfig(impl.Kafka), false, impl.Assignment{Partitions: P("x", 0), Followup: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := syncingConsumer(t, tc.cfg, P("t", 0))
			c.FollowupDue = tc.due
			c, _ = c.Step(Received{Response: impl.SyncGroupResponse{Assignment: tc.a}})
			if c.FollowupDue != tc.wantDue {
				t.Errorf("FollowupDue = %v, want %v (%v)", c.FollowupDue, tc.wantDue, c)
			}
		})
	}
}

// TestFollowupTick: the follow-up is carried out only when due and no round of the member
// is under way (KAFKA-14382), as KIP-568's enforceRebalance: rejoin at the next poll, where
// onJoinPrepare decides what is given up — nothing for a cooperative member, everything for
// an eager one. The variant KIP sends JoinReason UPGRADE, Kafka none.
// Reference: KIP-441; KIP-568; docs/protocol.md §2.3.
func TestFollowupTick(t *testing.T) {
	stable := func(cfg Config) Consumer {
		c := stableConsumer(cfg, P("t", 0))
		c.FollowupDue = true
		return c
	}
	joining := func(cfg Config) Consumer {
		c := joiningConsumer(t, cfg, P("t", 0))
		c.FollowupDue = true
		return c
	}
	syncing := func(cfg Config) Consumer {
		c := syncingConsumer(t, cfg, P("t", 0))
		c.FollowupDue = true
		return c
	}
	for _, tc := range []struct {
		name       string
		c          Consumer
		wantFired  bool
		wantClaim  impl.PartitionSet // what the next poll's JoinGroup claims (member m1 kept)
		wantReason impl.JoinReason
		wantRevoke []string
	}{
		{"cooperative keeps what it owns", stable(testConfig(impl.Kafka)), true,
			P("t", 0), impl.ReasonUnspecified, nil},
		{"eager revokes everything first", stable(testConfig(impl.Kafka, eager...)), true,
			impl.PartitionSet{}, impl.ReasonUnspecified, []string{"callback revoked (t-0)"}},
		{"the KIP variant's consumer says why", stable(testConfig(impl.KIP)), true,
			P("t", 0), impl.ReasonUpgrade, nil},
		{"not while its JoinGroup is in flight", joining(testConfig(impl.Kafka)), false, impl.PartitionSet{}, 0, nil},
		{"not while its SyncGroup is in flight", syncing(testConfig(impl.Kafka)), false, impl.PartitionSet{}, 0, nil},
		{"nothing due", stableConsumer(testConfig(impl.Kafka), P("t", 0)), false, impl.PartitionSet{}, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.c
			c, effs := tc.c.Step(FollowupTick{})
			if len(effs) != 0 {
				t.Errorf("FollowupTick sends nothing itself; got %v", render(effs))
			}
			if !tc.wantFired {
				if d := cmp.Diff(summarize(before), summarize(c), cmpOpts); d != "" || c.FollowupDue != before.FollowupDue {
					t.Errorf("FollowupTick changed the state:\n%s", d)
				}
				return
			}
			if c.FollowupDue || !c.RejoinNeeded || !c.WantsToJoin() {
				t.Fatalf("after FollowupTick: due %v rejoin %v wants to join %v", c.FollowupDue, c.RejoinNeeded, c.WantsToJoin())
			}
			c, effs = c.PollTick()
			var joins []impl.JoinGroupRequest
			for _, r := range sent(effs) {
				if j, ok := r.(impl.JoinGroupRequest); ok {
					joins = append(joins, j)
				}
			}
			if len(joins) != 1 {
				t.Fatalf("poll sent %d JoinGroups, want 1: %v", len(joins), render(effs))
			}
			j := joins[0]
			if j.MemberID != "m1" || !j.Protocols[0].Metadata.OwnedPartitions.Equal(tc.wantClaim) || j.Reason != tc.wantReason {
				t.Errorf("JoinGroup member %s claims %v reason %v, want m1 %v %v", j.MemberID,
					j.Protocols[0].Metadata.OwnedPartitions, j.Reason, tc.wantClaim, tc.wantReason)
			}
			if d := cmp.Diff(tc.wantRevoke, callbacks(effs)); d != "" {
				t.Errorf("callbacks (-want +got):\n%s", d)
			}
		})
	}
}
