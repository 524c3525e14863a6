package consumer

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// TestGateCommit: where each client sends an application's commit. Sources: Java
// ConsumerCoordinator.sendOffsetCommitRequest (generationIfStable, docs/protocol.md §1.11); librdkafka
// rdkafka_cgrp.c rd_kafka_cgrp_offsets_commit (any join state, rkcg_generation_id;
// __ASSIGNMENT_LOST once lost); franz-go pkg/kgo/consumer_group.go CommitOffsets and
// groupConsumer.commit (noCommitDuringJoinAndSync).
func TestGateCommit(t *testing.T) {
	send, wait := CommitGate{Send: true}, CommitGate{Wait: true}
	for _, tc := range []struct {
		name  string
		p     CommitPolicy
		s     ClientState
		reset bool
		want  CommitGate
	}{
		{"java stable sends", CommitJava, Stable, false, send},
		{"java joining fails as rebalance in progress", CommitJava, PreparingRebalance, false, CommitGate{Local: impl.RebalanceInProgress}},
		{"java syncing fails as rebalance in progress", CommitJava, CompletingRebalance, false, CommitGate{Local: impl.RebalanceInProgress}},
		{"java unjoined fails as commit failed", CommitJava, Unjoined, true, CommitGate{Local: impl.IllegalGeneration}},
		{"librdkafka stable sends", CommitLibrdkafka, Stable, false, send},
		{"librdkafka joining sends the held generation", CommitLibrdkafka, PreparingRebalance, false, send},
		{"librdkafka syncing sends the held generation", CommitLibrdkafka, CompletingRebalance, false, send},
		{"librdkafka after a lost assignment fails locally", CommitLibrdkafka, Unjoined, true, CommitGate{Local: impl.IllegalGeneration}},
		{"franz-go stable sends", CommitFranzGo, Stable, false, send},
		{"franz-go waits out the join", CommitFranzGo, PreparingRebalance, false, wait},
		{"franz-go waits out the sync", CommitFranzGo, CompletingRebalance, false, wait},
		{"franz-go after a lost membership has nothing to commit", CommitFranzGo, Unjoined, true, wait},
		{"franz-go unjoined but still a member sends", CommitFranzGo, Unjoined, false, send},
	} {
		if got := GateCommit(tc.p, tc.s, tc.reset); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestReactToCommit: each client's reaction to a commit's error answer. Sources: Java
// ConsumerCoordinator.OffsetCommitResponseHandler (docs/protocol.md §1.11 OffsetCommit rows);
// librdkafka rdkafka_cgrp.c rd_kafka_cgrp_op_handle_OffsetCommit and rdkafka_request.c
// rd_kafka_handle_OffsetCommit (FENCED_INSTANCE_ID fatal); franz-go pkg/kgo/consumer_group.go
// groupConsumer.commit, commitHasFatalMemberError.
func TestReactToCommit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		p       CommitPolicy
		err     impl.ErrorCode
		current bool
		s       ClientState
		want    CommitReaction
	}{
		{"java rebalance in progress rejoins", CommitJava, impl.RebalanceInProgress, true, Stable, CommitRejoin},
		{"java unknown member resets", CommitJava, impl.UnknownMemberID, true, Stable, CommitResetMember},
		{"java illegal generation resets the generation", CommitJava, impl.IllegalGeneration, true, Stable, CommitResetGeneration},
		{"java stale answer while joining is ignored", CommitJava, impl.IllegalGeneration, false, PreparingRebalance, CommitNothing},
		{"java fenced instance is fatal", CommitJava, impl.FencedInstanceID, true, Stable, CommitFatal},
		{"java stale fenced instance only fails", CommitJava, impl.FencedInstanceID, false, Stable, CommitNothing},
		{"librdkafka unknown member resets even when stale", CommitLibrdkafka, impl.UnknownMemberID, false, PreparingRebalance, CommitResetMember},
		{"librdkafka illegal generation resets when steady", CommitLibrdkafka, impl.IllegalGeneration, false, Stable, CommitResetGeneration},
		{"librdkafka illegal generation ignored while rebalancing", CommitLibrdkafka, impl.IllegalGeneration, true, CompletingRebalance, CommitNothing},
		{"librdkafka fenced instance is fatal", CommitLibrdkafka, impl.FencedInstanceID, false, Stable, CommitFatal},
		{"librdkafka rebalance in progress only fails", CommitLibrdkafka, impl.RebalanceInProgress, true, Stable, CommitNothing},
		{"franz-go unknown member rejoins", CommitFranzGo, impl.UnknownMemberID, true, Stable, CommitRejoin},
		{"franz-go illegal generation rejoins", CommitFranzGo, impl.IllegalGeneration, true, Stable, CommitRejoin},
		{"franz-go fenced instance only fails", CommitFranzGo, impl.FencedInstanceID, true, Stable, CommitNothing},
		{"franz-go rebalance in progress only fails", CommitFranzGo, impl.RebalanceInProgress, true, Stable, CommitNothing},
	} {
		if got := ReactToCommit(tc.p, tc.err, tc.current, tc.s); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestParseCommitPolicy(t *testing.T) {
	for p := CommitJava; p < numCommitPolicies; p++ {
		if got, ok := ParseCommitPolicy(p.String()); !ok || got != p {
			t.Errorf("%v does not parse back (%v, %v)", p, got, ok)
		}
	}
	if _, ok := ParseCommitPolicy("sarama"); ok {
		t.Errorf("an unknown client parses")
	}
}
