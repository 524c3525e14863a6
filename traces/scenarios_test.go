package traces

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rewrite regenerates the expected blocks of every trace in scenarios/ and golden/ instead of
// checking them (the datadriven -rewrite): go test ./traces -run TestScenarios -rewrite, then
// read the diff before committing. Expected blocks are never edited by hand.
var rewrite = flag.Bool("rewrite", false, "regenerate the expected blocks of traces/scenarios and traces/golden")

// corpus lists the trace files of the corpus directories that exist.
func corpus(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"scenarios", "golden"} {
		fs, err := filepath.Glob(filepath.Join(dir, "*.trace"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	return files
}

// TestScenarios replays every trace of the corpus and fails on the first divergence of each.
func TestScenarios(t *testing.T) {
	files := corpus(t)
	if len(files) == 0 {
		t.Fatal("no traces in traces/scenarios")
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := Parse(filepath.Base(f), bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if *rewrite {
				rewriteFile(t, f, tr)
				return
			}
			res, err := Replay(tr)
			if err != nil {
				t.Fatal(err)
			}
			if d := res.Divergence; d != nil {
				t.Fatalf("%s: %s (-want +got):\n%s\nregenerate with: go test ./traces -run TestScenarios -rewrite", d.Label, d.Reason, d.Diff)
			}
		})
	}
}

func rewriteFile(t *testing.T, f string, tr *Trace) {
	nt, err := Rewrite(tr)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Format(&b, nt); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestScenarioStories pins what each scenario exists to show, so that a rewrite that loses
// the story fails here even though the file replays.
func TestScenarioStories(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    []string // substrings of the expected output, in order
		notWant []string
	}{
		// Reference: docs/protocol.md §7.1.c, §7.2.3 — a join under kip: the three sets, nothing withheld.
		{file: "scenarios/cooperative-join-kip.trace", want: []string{
			"start c", "on-partitions-revoked", "plan: owned=() assigned=(t-0 t-1 t-2) maybe-revoking=() ready-to-migrate=(t-0 t-1 t-2)",
			"c: on-partitions-assigned (t-", "check\n----\nok",
		}, notWant: []string{"error=NEEDS_REJOIN", "!NEEDS_REJOIN"}},
		// Reference: docs/protocol.md §7.1.b, §7.2.6 — withheld maybe-revoking partition, NEEDS_REJOIN round.
		{file: "scenarios/needs-rejoin-kip.trace", want: []string{
			"add-partition t", "withheld=(t-", "error=NEEDS_REJOIN", "SyncGroup NONE assignment=", "error=NEEDS_REJOIN",
			"on-partitions-revoked", "assigns gen 3", "check\n----\nok",
		}},
		// Reference: docs/protocol.md §2.3, §2.5 — cooperative-sticky withholds; the revoking member rejoins.
		{file: "scenarios/cooperative-join-kafka.trace", want: []string{
			"start c", "assigns gen 2: a#1=(t-0) b#1=(t-1) c#1=()", "a: on-partitions-revoked (t-2)",
			"assigns gen 3: a#1=(t-0) b#1=(t-1) c#1=(t-2)", "c: on-partitions-assigned (t-2)", "check\n----\nok",
		}, notWant: []string{"!NEEDS_REJOIN"}},
		// Reference: KIP-345, KIP-423 — a restarted static leader in Stable: no rebalance.
		{file: "scenarios/static-restart-kip423.trace", want: []string{"restart a", "member=- instance=a", "reason=restart",
			"| coord    Stable gen=1 proto=cooperative-sticky leader=a#2", "check\n----\nok"},
			notWant: []string{"| coord    PreparingRebalance gen=1"}},
		{file: "scenarios/static-restart-kafka.trace", want: []string{"restart a", "member=a#2 leader=a#1",
			"| coord    Stable gen=1 proto=cooperative-sticky leader=a#2", "check\n----\nok"},
			notWant: []string{"| coord    PreparingRebalance gen=1"}},
		// Reference: docs/protocol.md §7.1.a — a subscription change revokes everything under kip.
		{file: "scenarios/join-trigger-a-subscription-kip.trace", want: []string{"resubscribe a", "poll a\n----\n",
			"trigger=subscription-change", "a: on-partitions-revoked (t-0 t-1)", "owned=() gen=1}", "check\n----\nok"}},
		// Reference: docs/protocol.md §7.1.b — a deleted topic's partitions are lost at once, the rest kept.
		{file: "scenarios/join-trigger-b-metadata-kip.trace", want: []string{"delete-topic t", "refresh a",
			"a: on-partitions-lost (t-0 t-1)", "owned=(u-0) gen=1} reason=topic_metadata_change", "maybe-revoking=(u-0)", "check\n----\nok"},
			notWant: []string{"on-partitions-revoked"}},
		// Reference: docs/protocol.md §7.1.c — REBALANCE_IN_PROGRESS on a heartbeat revokes everything.
		{file: "scenarios/join-trigger-c-rebalance-in-progress-kip.trace", want: []string{"coord -> a: Heartbeat REBALANCE_IN_PROGRESS",
			"poll a\n----\n", "a: on-partitions-revoked (t-0 t-1)", "a -> coord: JoinGroup v5 member=a#1 cooperative-sticky{topics=t owned=() gen=1}",
			"check\n----\nok"}},
		// Reference: docs/protocol.md §7.1.f, §7.3.5.2 — NEEDS_REJOIN: apply, revoke the withheld, rejoin at once.
		{file: "scenarios/join-trigger-f-needs-rejoin-kip.trace", want: []string{"withheld=(t-2) error=NEEDS_REJOIN",
			"coord -> a: SyncGroup NONE assignment=(t-0 t-1) error=NEEDS_REJOIN", "a: on-partitions-revoked (t-2)",
			"a -> coord: JoinGroup v5 member=a#1 cooperative-sticky{topics=t owned=(t-0 t-1) gen=2}", "b: on-partitions-assigned (t-2)",
			"check\n----\nok"}},
		// Reference: docs/bugs.md B3 (KAFKA-12890's fix) — the sync timer removes a hung leader.
		{file: "scenarios/hang-sync-timeout-kafka.trace", want: []string{"hang a", "hung#1", "sync-timeout",
			"coord -> b: SyncGroup REBALANCE_IN_PROGRESS", "b: assigns gen 2: b#1=(t-0 t-1)", "b: on-partitions-assigned (t-0 t-1)"}},
		// Reference: docs/protocol.md §7.1.c — REBALANCE_IN_PROGRESS on a heartbeat revokes everything
		// (also in cooperative-join-kip.trace); §1.d — MEMBER_ID_REQUIRED, nothing to revoke.
		{file: "scenarios/join-trigger-d-member-id-required-kip.trace", want: []string{"start c",
			"coord -> c: JoinGroup MEMBER_ID_REQUIRED member=c#1", "c -> coord: JoinGroup v5 member=c#1 cooperative-sticky{topics=t owned=() gen=-1}",
			"coord -> a: Heartbeat REBALANCE_IN_PROGRESS", "a: on-partitions-revoked (t-0 t-1)", "check\n----\nok"}},
		// Reference: docs/protocol.md §7.1.e — UNKNOWN_MEMBER_ID: lost, reset, rejoin empty.
		{file: "scenarios/join-trigger-e-unknown-member-kip.trace", want: []string{"session-expiry a#1",
			"coord -> a: Heartbeat UNKNOWN_MEMBER_ID", "a: on-partitions-lost (t-0 t-1)", "a -> coord: JoinGroup v5 member=- cooperative-sticky{topics=t owned=() gen=-1}",
			"check\n----\nok"}, notWant: []string{"on-partitions-revoked"}},
		// Reference: docs/protocol.md §7.2.3–§7.2.5 — the leader's three sets in one plan.
		{file: "scenarios/leader-three-sets-kip.trace", want: []string{"add-partition t", "delete-topic u",
			"plan: owned=(t-0 t-1 u-0) assigned=(t-0 t-1 t-2) maybe-revoking=(t-0 t-1) ready-to-migrate=(t-2) unknown-but-owned=(u-0)",
			"a#1=(t-0 t-1 t-2 u-0)", "check\n----\nok"}},
		// Reference: docs/protocol.md §7.3.5, §7.1.f — a v0 member does not see NEEDS_REJOIN; it revokes
		// everything at the next rebalance instead of rejoining with a claim it cannot send.
		{file: "scenarios/needs-rejoin-v0-kip.trace", want: []string{"withheld=(t-1) error=NEEDS_REJOIN",
			"coord -> a: SyncGroup NONE assignment=(t-0) error=NEEDS_REJOIN", "coord -> a: Heartbeat REBALANCE_IN_PROGRESS",
			"a: on-partitions-revoked (t-0)", "a -> coord: JoinGroup v5 member=a#1 range{topics=t owned=() gen=-1}", "check\n----\nok"}},
		// Reference: docs/protocol.md §1.10 (KIP-814) — a returning static leader told SkipAssignment
		// snapshots fresh metadata, so the partition its old process never saw stays unowned.
		{file: "scenarios/static-leader-restart-missed-partition.trace", want: []string{"add-partition t",
			"a: assigns gen 1: a#1=(t-0)", "restart a", "leader=a#2", "skip-assignment", "a: on-partitions-assigned (t-0)"},
			notWant: []string{"t-1)"}},
		// Reference: librdkafka rd_kafka_cgrp_offsets_commit — a commit while joining is
		// sent with the held generation and accepted in PreparingRebalance (docs/protocol.md §1.8).
		{file: "scenarios/commit-while-joining-librdkafka.trace", want: []string{"coord -> a: Heartbeat REBALANCE_IN_PROGRESS",
			"a -> coord: JoinGroup v9 member=a#1", "commit a\n----\na -> coord: OffsetCommit member=a#1 gen=1 partitions=(t-0)",
			"PREPARING_REBALANCE", "coord: commit (t-0) from a#1 gen 1: NONE", "check\n----\nok"}},
		// Reference: docs/protocol.md §1.8 — librdkafka's commit at a generation it has not synced: the
		// strict form fails, the harm does not.
		{file: "scenarios/commit-fencing-librdkafka-unsynced-generation.trace", want: []string{"JoinGroup NONE gen=2",
			"a -> coord: OffsetCommit member=a#1 gen=2 partitions=(t-0)", "session-expiry b#1",
			"coord: commit (t-0) from a#1 gen 2: NONE", "violation commit-fencing-strict: "},
			notWant: []string{"violation exclusive-ownership: ", "violation commit-fencing: "}},
		// Reference: ConsumerCoordinator.onJoinComplete (checkAssignmentMatchedSubscription) —
		// Java keeps what it owned when a round's answer misses its new subscription, then
		// commits it with the new generation: the strict form fails, the harm does not.
		{file: "scenarios/commit-fencing-java-subscription-change.trace", want: []string{"resubscribe a",
			"STABLE gen=2 member=\"a#1\" owned=(t-0 t-1)", "a -> coord: OffsetCommit member=a#1 gen=2 partitions=(t-0 t-1)",
			"coord: commit (t-0 t-1) from a#1 gen 2: NONE", "violation commit-fencing-strict: "},
			notWant: []string{"violation exclusive-ownership: ", "violation commit-fencing: "}},
		// Reference: KIP-1082 — a lost first answer: an orphan with server ids, none with client ids.
		{file: "scenarios/kip1082-first-response-lost-server.trace", want: []string{"lose-response a",
			"a -> coord: ConsumerGroupHeartbeat member=- epoch=0", "coord -> a: ConsumerGroupHeartbeat NONE member=a#2 epoch=2 assignment=()",
			"session-expiry a#1", "assignment=(t-0)", "check\n----\nok"}},
		{file: "scenarios/kip1082-first-response-lost-client.trace", want: []string{"lose-response a",
			"a -> coord: ConsumerGroupHeartbeat member=a#1 epoch=0", "a: on-partitions-assigned (t-0)", "check\n----\nok"},
			notWant: []string{"a#2"}},
		// Reference: KIP-1251, docs/protocol.md §3.1 — a commit at epoch 1 reaches the
		// coordinator after a moved to epoch 3 still holding its partitions: accepted from
		// Kafka 4.3, refused by Kafka 4.0 to 4.2 (TestKIP1251Scenario).
		{file: "scenarios/kip1251-older-epoch-commit.trace", want: []string{"a -> coord: OffsetCommit member=a#1 gen=1 partitions=(t-0 t-1)",
			"session-expiry b#1", "members=(a#1{STABLE e=3 prev=1 assigned=(t-0 t-1) topics=(t) at1=(t-0 t-1)})",
			"coord: commit (t-0 t-1) from a#1 gen 1: NONE", "check\n----\nok"}, notWant: []string{"STALE_MEMBER_EPOCH"}},
		{file: "scenarios/kip1251-older-epoch-commit-exact.trace", want: []string{"commit-epochs exact", "a -> coord: OffsetCommit member=a#1 gen=1 partitions=(t-0 t-1)",
			"session-expiry b#1", "members=(a#1{STABLE e=3 prev=1 assigned=(t-0 t-1) topics=(t)})",
			"coord: commit (t-0 t-1) from a#1 gen 1: STALE_MEMBER_EPOCH", "check\n----\nok"}},
		// Reference: KIP-1082 — a close before the first answer: no leave without an id.
		{file: "scenarios/kip1082-close-before-id-server.trace", want: []string{"leave a", "member=\"\" epoch=-1",
			"session-expiry a#1", "b: on-partitions-assigned (t-0 t-1)", "check\n----\nok"},
			notWant: []string{"member=a#1 epoch=-1"}},
		{file: "scenarios/kip1082-close-before-id-client.trace", want: []string{"leave a",
			"a -> coord: ConsumerGroupHeartbeat member=a#1 epoch=-1", "b: on-partitions-assigned (t-0 t-1)", "check\n----\nok"},
			notWant: []string{"session-expiry"}},
		// Reference: README Findings (GroupMetadataManager.throwIfInstanceIdIsUnreleased) — a
		// KIP-1082 client id does not save a static member whose first answer is lost.
		{file: "scenarios/kip1082-static-first-response-lost-client.trace", want: []string{"lose-response a",
			"a -> coord: ConsumerGroupHeartbeat member=a#1 epoch=0 instance=a", "coord -> a: ConsumerGroupHeartbeat UNRELEASED_INSTANCE_ID",
			"a: fatal UNRELEASED_INSTANCE_ID"}},
		// Reference: KIP-441 (Streams' nextRebalanceMs), KIP-568 — an assignor's follow-up:
		// the cooperative member keeps what it owns and the group rebalances to the same
		// assignment.
		{file: "scenarios/followup-cooperative-kafka.trace", want: []string{"assign a followup=b#1",
			"b#1=(t-1)+followup", "coord -> b: SyncGroup NONE assignment=(t-1) followup", "followup-due",
			"followup b", "b -> coord: JoinGroup v9 member=b#1 cooperative-sticky{topics=t owned=(t-1) gen=1}",
			"coord -> a: Heartbeat REBALANCE_IN_PROGRESS", "a: assigns gen 2: a#1=(t-0) b#1=(t-1)", "check\n----\nok"},
			notWant: []string{"on-partitions-revoked", "on-partitions-lost"}},
		// Reference: KAFKA-10455, docs/protocol.md §1.4 — a follower's unchanged metadata: no
		// rebalance, and the stored request comes back.
		{file: "scenarios/followup-unchanged-follower-kafka.trace", want: []string{"assign a followup=b#1",
			"b: on-partitions-revoked (t-1)", "b -> coord: JoinGroup v9 member=b#1 range{topics=t owned=() gen=-1}",
			"coord -> b: JoinGroup NONE gen=1", "coord -> b: SyncGroup NONE assignment=(t-1) followup",
			"b: on-partitions-assigned (t-1)", "followup-due", "check\n----\nok"},
			notWant: []string{"gen=2", "| coord    PreparingRebalance gen=1"}},
		// Reference: docs/protocol.md §1.12 — the zombie window.
		{file: "scenarios/session-expiry-zombie.trace", want: []string{"session-expiry a#1", "violation exclusive-ownership-strict: "},
			notWant: []string{"violation exclusive-ownership: "}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			if !strings.HasPrefix(text, FormatVersion+"\n# about: ") {
				t.Errorf("the scenario does not open with its about comment")
			}
			rest := text
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("lacks %q (in order)", w)
				}
				rest = rest[i+len(w):]
			}
			for _, w := range tc.notWant {
				if strings.Contains(text, w) {
					t.Errorf("has %q", w)
				}
			}
		})
	}
}
