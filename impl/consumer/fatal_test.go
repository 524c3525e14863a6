package consumer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// TestFatalPollsAgain: the fatal rows of docs/protocol.md §1.11's reaction table when the application
// catches what poll throws and polls again (FatalPollsAgain). The error is reported as under
// FatalStops, but the consumer stays active in the state Java's handler leaves, and its next
// poll shows what it does then. Reference: AbstractCoordinator.joinGroupIfNeeded (a failed
// round requests a rejoin, then throws a non-retriable error), JoinGroupResponseHandler and
// SyncGroupResponseHandler (FENCED_INSTANCE_ID, INCONSISTENT_GROUP_PROTOCOL: future.raise),
// HeartbeatResponseHandler (FENCED_INSTANCE_ID with the generation unchanged:
// resetStateOnResponseError with the member id), AbstractCoordinator.pollHeartbeat (drops the
// failed heartbeat thread before it throws: the next ensureActiveGroup starts a new one),
// ConsumerCoordinator.OffsetCommitResponseHandler (FENCED_INSTANCE_ID with the generation
// unchanged: future.raise only).
func TestFatalPollsAgain(t *testing.T) {
	cfg := testConfig(impl.Kafka)
	cfg.OnFatal = FatalPollsAgain
	owned := P("t", 0)
	gen3 := GroupGeneration{ID: 3, MemberID: "m1", ProtocolName: CooperativeSticky}
	gen4 := GroupGeneration{ID: 4, MemberID: "m1", ProtocolName: CooperativeSticky}
	heartbeating := func(*testing.T) Consumer { return heartbeatingConsumer(cfg, owned) }
	committing := func(*testing.T) Consumer { return committingConsumer(cfg, owned) }
	for _, tc := range []struct {
		name     string
		start    func(*testing.T) Consumer
		resp     impl.Response
		want     summary
		nextPoll []string // the effects of the poll after the one that threw
	}{
		{"join fenced instance id: rejoins under the same member id", func(t *testing.T) Consumer { return joiningConsumer(t, cfg, owned) },
			impl.JoinGroupResponse{Error: impl.FencedInstanceID},
			summary{PreparingRebalance, gen3, owned, true, false, impl.None},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=3`}},
		{"join inconsistent group protocol: rejoins likewise", func(t *testing.T) Consumer { return joiningConsumer(t, cfg, owned) },
			impl.JoinGroupResponse{Error: impl.InconsistentGroupProtocol},
			summary{PreparingRebalance, gen3, owned, true, false, impl.None},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=3`}},
		{"sync fenced instance id: the round failed, rejoins under the same member id", func(t *testing.T) Consumer { return syncingConsumer(t, cfg, owned) },
			impl.SyncGroupResponse{Error: impl.FencedInstanceID},
			summary{PreparingRebalance, gen4, owned, true, false, impl.None},
			[]string{`send JoinGroup v9 member="m1" topics=[t u] owned=(t-0) gen=4`}},
		{"heartbeat fenced instance id: generation and member id reset, rejoins without a member id", heartbeating,
			impl.HeartbeatResponse{Error: impl.FencedInstanceID},
			summary{Unjoined, NoGeneration, owned, true, true, impl.None},
			[]string{"callback lost (t-0)", `send JoinGroup v9 member="" topics=[t u] owned=() gen=-1`}},
		{"commit fenced instance id: only the commit fails", committing,
			impl.OffsetCommitResponse{Error: impl.FencedInstanceID},
			summary{Stable, gen3, owned, false, true, impl.None}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, effs := tc.start(t).Step(Received{Response: tc.resp})
			if got := summarize(c); !cmp.Equal(got, tc.want) {
				t.Errorf("state (-want +got):\n%s", cmp.Diff(tc.want, got))
			}
			if !c.Active() {
				t.Errorf("the consumer stopped")
			}
			if got := render(effs); len(got) == 0 || got[len(got)-1] != "fatal "+tc.resp.Code().String() {
				t.Errorf("effects %v: the error is not reported", got)
			}
			_, next := c.PollTick()
			if got := render(next); len(got)+len(tc.nextPoll) > 0 && !cmp.Equal(got, tc.nextPoll) {
				t.Errorf("next poll (-want +got):\n%s", cmp.Diff(tc.nextPoll, got))
			}
			stop := cfg
			stop.OnFatal = FatalStops
			s := tc.start(t)
			s.Config = stop
			if s, _ = s.Step(Received{Response: tc.resp}); s.Active() || s.Fatal() != tc.resp.Code() {
				t.Errorf("FatalStops: active %v, fatal %s; want stopped with %s", s.Active(), s.Fatal(), tc.resp.Code())
			}
		})
	}
}

func TestFatalReactionNames(t *testing.T) {
	for _, r := range []FatalReaction{FatalStops, FatalPollsAgain} {
		if got, ok := ParseFatalReaction(r.String()); !ok || got != r {
			t.Errorf("%s does not round-trip: %v %v", r, got, ok)
		}
	}
	if _, ok := ParseFatalReaction("retry"); ok {
		t.Error(`"retry" parsed`)
	}
}
