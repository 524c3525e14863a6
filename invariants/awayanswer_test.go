package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestAwayAnswer: right after a failover a member's JoinGroup reaches the old broker
// (NOT_COORDINATOR); once it has looked the coordinator up again, its next one reaches the new
// coordinator while it loads (COORDINATOR_LOAD_IN_PROGRESS). The property holds on both steps
// and names a wrong code (49 answers the old broker's SyncGroup REBALANCE_IN_PROGRESS), a
// response of another type or none (54 leaves a LeaveGroup's answer empty), and two answers.
func TestAwayAnswer(t *testing.T) {
	c := config(t, eagerOneMember+"budget failovers=1\n")
	script := []string{"failover", "poll a", "deliver-request a", "deliver-response a", "poll a", "deliver-request a"}
	ws := walk(t, c, script...)
	for _, k := range []int{2, 5} {
		pre, post := ws[k], ws[k+1]
		ev := stepEvents(t, pre, script[k])
		if got := awayAnswer.Step(&pre, ev, &post); got != "" {
			t.Fatalf("the model's %q: %s", script[k], got)
		}
		var code impl.ErrorCode
		for _, e := range ev {
			if r, ok := e.(spec.ReplyEvent); ok {
				code = r.Response.Code()
			}
		}
		if want := []impl.ErrorCode{impl.NotCoordinator, impl.CoordinatorLoadInProgress}[k/5]; code != want || pre.Slots[0].Stale != (k == 2) || !pre.Loading {
			t.Fatalf("step %d: answered %s (stale %v, loading %v), want %s", k, code, pre.Slots[0].Stale, pre.Loading, want)
		}
	}
	reply := func(r impl.Response) []spec.Event { return []spec.Event{spec.ReplyEvent{Name: "a", Response: r}} }
	for _, tc := range []struct {
		name  string
		stale bool
		req   impl.Request
		ev    []spec.Event
		want  string
	}{
		{"a SyncGroup at an old broker", true, impl.SyncGroupRequest{}, reply(impl.SyncGroupResponse{Error: impl.RebalanceInProgress}), "a's SyncGroup reaching an old broker is answered REBALANCE_IN_PROGRESS, not NOT_COORDINATOR"},
		{"a SyncGroup at a loading coordinator", false, impl.SyncGroupRequest{}, reply(impl.SyncGroupResponse{Error: impl.CoordinatorLoadInProgress}), "answered COORDINATOR_LOAD_IN_PROGRESS, not REBALANCE_IN_PROGRESS"},
		{"an empty LeaveGroup answer", true, impl.LeaveGroupRequest{}, reply(nil), "a's LeaveGroup reaching an old broker is answered with <nil>"},
		{"a Heartbeat answered as a JoinGroup", false, impl.HeartbeatRequest{}, reply(impl.JoinGroupResponse{}), "is answered with JoinGroup"},
		{"two answers", true, impl.OffsetCommitRequest{}, append(reply(impl.OffsetCommitResponse{Error: impl.NotCoordinator}), reply(impl.OffsetCommitResponse{Error: impl.NotCoordinator})...), "gets 2 answers"},
	} {
		if got := awayAnswerWrong(tc.stale, tc.req, tc.ev); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want …%s…", tc.name, got, tc.want)
		}
	}
	if got := awayAnswerWrong(false, impl.HeartbeatRequest{}, reply(impl.HeartbeatResponse{})); got != "" {
		t.Errorf("a loading coordinator's blind Heartbeat answer: %q", got)
	}
}
