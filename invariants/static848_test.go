package invariants

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// TestStaticKIP848LostFirstAnswerIsFatal pins a finding in Kafka as shipped (README Findings):
// one lost answer to a static KIP-848 member's first heartbeat kills it. The coordinator made
// it a#1 at epoch 1 with both partitions; the client, which never heard so, joins again at
// epoch 0 with its instance id; the instance id is held at an epoch other than -2, so the
// coordinator answers UNRELEASED_INSTANCE_ID (GroupMetadataManager.
// getOrMaybeSubscribeStaticConsumerGroupMember → throwIfInstanceIdIsUnreleased, which looks
// only at the holder's epoch, not at the member id) and the client stops for good (Java
// ConsumerHeartbeatRequestManager.handleSpecificError → handleFatalFailure; librdkafka
// rd_kafka_cgrp_handle_ConsumerGroupHeartbeat: RD_KAFKA_ERR_ACTION_FATAL). a#1 keeps both
// partitions, consumed by nobody, until its session expires. A dynamic member in the same
// place is not stopped (it becomes a second member; KAFKA-17116). Client-generated ids
// (KIP-1082, member-ids client) do not help: the retry carries the holder's own id and is
// refused the same way. traces/scenarios/kip848-static-lost-first-answer.trace and
// kip1082-static-first-response-lost-client.trace are the two walks.
func TestStaticKIP848LostFirstAnswerIsFatal(t *testing.T) {
	const two = "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\n"
	script := []string{"deliver-request a", "lose-response a", "deliver-request a", "deliver-response a"}
	fatal := func(w spec.World) bool {
		for _, s := range w.Slots {
			if s.Member.Fatal() == impl.UnreleasedInstanceID {
				return true
			}
		}
		return false
	}

	for _, ids := range []string{"server", "client"} {
		static := config(t, two+"member a topics=t static\nmember b topics=t static\nbudget lost-responses=1\nmember-ids "+ids+"\n")
		if d := shortest(t, static, fatal); d != len(script) {
			t.Errorf("member-ids %s: shortest way to UNRELEASED_INSTANCE_ID: %d steps, want %d", ids, d, len(script))
		}
		ws := walk(t, static, script...)
		end := ws[len(ws)-1]
		if got := end.Slots[0].Member.Fatal(); got != impl.UnreleasedInstanceID {
			t.Fatalf("member-ids %s: a after the walk: fatal %v, want UNRELEASED_INSTANCE_ID", ids, got)
		}
		held, ok := end.Group.StaticMember("a")
		if !ok || held.MemberEpoch != 1 || held.Holds().Len() != 2 {
			t.Errorf("member-ids %s: the coordinator's record of instance a: %+v (held %v), want epoch 1 holding t-0 and t-1", ids, held, ok)
		}
		if ids == "client" && held.ID != end.Slots[0].Member.MemberID() {
			t.Errorf("member-ids client: the refused retry was not the holder's own id (%s, client %s)", held.ID, end.Slots[0].Member.MemberID())
		}
	}

	dynamic := config(t, two+"member a topics=t\nmember b topics=t\nbudget lost-responses=1\n")
	ws := walk(t, dynamic, script...)
	end := ws[len(ws)-1]
	if fatal(end) || len(end.Group.Members()) != 2 {
		t.Errorf("dynamic: fatal %v, %d members; want not fatal, two members (a's orphan and a's new id)", fatal(end), len(end.Group.Members()))
	}
}

// shortest is the number of steps of a shortest behaviour reaching a world satisfying pred
// (explore lists worlds in BFS order, so a world's first discovery is at its least depth).
func shortest(t *testing.T, c spec.Config, pred func(spec.World) bool) int {
	t.Helper()
	g := explore(t, c, 200000)
	depth := make([]int, len(g.worlds))
	for i := range depth {
		depth[i] = -1
	}
	depth[0] = 0
	for i, ns := range g.next {
		for _, j := range ns {
			if depth[j] < 0 {
				depth[j] = depth[i] + 1
			}
		}
	}
	for i, w := range g.worlds {
		if pred(w) {
			return depth[i]
		}
	}
	t.Fatal("no such world")
	return -1
}
