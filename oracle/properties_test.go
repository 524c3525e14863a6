package oracle

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

type propCase struct {
	name, source string
	proto        string
	build        func(b *hb)
	want         []string
	msg          []string
}

// history is the case's history: member a started in the case's protocol (consumer by
// default) at generation 3, then the case.
func (tc propCase) history() history.History {
	b := newHB()
	proto := tc.proto
	if proto == "" {
		proto = history.Consumer
	}
	b.start("a", proto)
	b.gen("a", "m-a", 3)
	tc.build(b)
	return b.h
}

func runCases(t *testing.T, cases []propCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The cases start mid-life and record only some requests: the plain checks only.
			r := Check(tc.history(), Options{NoReference: true})
			if got := classes(r); !slices.Equal(got, tc.want) {
				t.Fatalf("%s: findings %q, want %q\n%s", tc.source, got, tc.want, r)
			}
			for _, m := range tc.msg {
				if !strings.Contains(messages(r), m) {
					t.Errorf("%s: messages lack %q:\n%s", tc.source, m, r)
				}
			}
		})
	}
}

const lostV = LostOnlyAfterMembershipLost + " " + ClassViolation

func lostOwned(b *hb) { b.cb("a", history.Assign, parts("t", 0)) }

var lostCases = []propCase{
	{"empty lost with no sign is normal", "docs/clients.md §2 Empty callbacks are normal", "", func(b *hb) {
		b.cb("a", history.Lost, nil)
		b.cb("a", history.Lost, history.Parts{})
	}, nil, nil},
	{"lost with partitions and no sign", "docs/protocol.md §2.1 table", "", func(b *hb) {
		lostOwned(b)
		b.cb("a", history.Lost, parts("t", 0))
	}, []string{lostV}, []string{"a called onPartitionsLost with t-0 at seq 5", "since its generation m-a/3 at seq 2"}},
	{"lost after a cut", "docs/clients.md §2 classic failure behaviour", "", func(b *hb) {
		lostOwned(b)
		b.instant(history.Cut, "a")
		b.cb("a", history.Lost, parts("t", 0))
	}, nil, nil},
	{"lost after a Fenced event", "docs/clients.md §6.4", "", func(b *hb) {
		lostOwned(b)
		b.add(history.Event{Kind: history.Fenced, Node: "a", Member: "m-a", Gen: 3})
		b.cb("a", history.Lost, parts("t", 0))
	}, nil, nil},
	{"lost after a fencing answer", "docs/protocol.md §3.7", "", func(b *hb) {
		lostOwned(b)
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", 3, "FENCED_MEMBER_EPOCH")
		b.cb("a", history.Lost, parts("t", 0))
	}, nil, nil},
	{"lost after REBALANCE_IN_PROGRESS only", "docs/protocol.md §2.1: keep owned partitions, just rejoin", history.Classic, func(b *hb) {
		lostOwned(b)
		b.req("a", history.Heartbeat, "m-a", 3, "REBALANCE_IN_PROGRESS")
		b.req("a", history.JoinGroup, "m-a", 3, "MEMBER_ID_REQUIRED")
		b.cb("a", history.Lost, parts("t", 0))
	}, []string{lostV}, nil},
	{"lost after retries ran out on COORDINATOR_LOAD_IN_PROGRESS", "docs/clients.md §2: lost on every failed manage-loop iteration", history.Classic, func(b *hb) {
		lostOwned(b)
		b.req("a", history.Heartbeat, "m-a", 3, "COORDINATOR_LOAD_IN_PROGRESS")
		b.cb("a", history.Lost, parts("t", 0))
	}, nil, nil},
	{"lost after a transport error", "docs/clients.md §5 Kill mechanics", history.Classic, func(b *hb) {
		lostOwned(b)
		b.req("a", history.Heartbeat, "m-a", 3, "read tcp: connection reset by peer")
		b.cb("a", history.Lost, parts("t", 0))
	}, nil, nil},
	{"lost after a refused commit", "franz-go PR #1340 (docs/clients.md §2)", history.Classic, func(b *hb) {
		lostOwned(b)
		b.commit("a", parts("t", 0), "ILLEGAL_GENERATION")
		b.cb("a", history.Lost, parts("t", 0))
	}, []string{CommitFromOwner + " " + ClassZombie}, nil},
	{"a sign before the last generation is old news", "docs/protocol.md §1.11", "", func(b *hb) {
		b.instant(history.Cut, "a")
		b.instant(history.Heal, "a")
		b.gen("a", "m-a", 4)
		lostOwned(b)
		b.cb("a", history.Lost, parts("t", 0))
	}, []string{lostV}, nil},
	{"a generation re-read inside the callback is not new", "docs/clients.md §6.3: member and generation from GroupMetadata", "", func(b *hb) {
		lostOwned(b)
		b.instant(history.Cut, "a")
		id := b.begin(history.Event{Kind: history.Lost, Node: "a", Parts: parts("t", 0)})
		b.gen("a", "m-a", 3)
		b.end(id, history.Event{})
	}, nil, nil},
	{"the sign recorded while the callback runs", "oracle doc: recorder races", "", func(b *hb) {
		lostOwned(b)
		id := b.begin(history.Event{Kind: history.Lost, Node: "a", Parts: parts("t", 0)})
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", 3, "UNKNOWN_MEMBER_ID")
		b.end(id, history.Event{})
	}, nil, nil},
	{"an unanswered request is no sign", "history.Unfinished", "", func(b *hb) {
		lostOwned(b)
		id := b.begin(history.Event{Kind: history.Request, Node: "a", Op: history.Heartbeat})
		b.end(id, history.Event{Note: history.Unfinished, Err: "x"})
		b.cb("a", history.Lost, parts("t", 0))
	}, []string{lostV}, nil},
	{"lost inside a close begun during a rebalance, before LeaveGroup", "ConsumerCoordinator.onLeavePrepare: lost while a rebalance is in progress", history.Classic, func(b *hb) {
		lostOwned(b)
		b.req("a", history.Heartbeat, "m-a", 3, "REBALANCE_IN_PROGRESS")
		cl := b.begin(history.Event{Kind: history.Close, Node: "a"})
		b.cb("a", history.Lost, parts("t", 0))
		b.req("a", history.LeaveGroup, "m-a", 3, "")
		b.end(cl, history.Event{})
	}, nil, nil},
	{"lost after an accepted LeaveGroup", "docs/protocol.md §1.7: the leave gives the membership up", history.Classic, func(b *hb) {
		lostOwned(b)
		b.req("a", history.LeaveGroup, "m-a", 3, "")
		b.cb("a", history.Lost, parts("t", 0))
	}, nil, nil},
	{"lost after a consumer leave at epoch -1", "docs/protocol.md §3.6", "", func(b *hb) {
		lostOwned(b)
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", -1, "")
		b.cb("a", history.Lost, parts("t", 0))
	}, nil, nil},
	{"a leave before the last generation is old news", "docs/protocol.md §1.4: rejoined", history.Classic, func(b *hb) {
		b.req("a", history.LeaveGroup, "m-a", 3, "")
		b.gen("a", "m-b", 1)
		lostOwned(b)
		b.cb("a", history.Lost, parts("t", 0))
	}, []string{lostV}, nil},
	{"a close of an earlier process is old news", "brief: Start again", "", func(b *hb) {
		b.end(b.begin(history.Event{Kind: history.Close, Node: "a"}), history.Event{})
		b.start("a", history.Consumer)
		b.gen("a", "m-b", 1)
		lostOwned(b)
		b.cb("a", history.Lost, parts("t", 0))
	}, []string{lostV}, nil},
	{"since a restart", "brief: Start again", "", func(b *hb) {
		b.start("a", history.Consumer)
		lostOwned(b)
		b.cb("a", history.Lost, parts("t", 0))
	}, []string{lostV}, []string{"nothing since its start"}},
}

func TestLostOnlyAfterMembershipLost(t *testing.T) { runCases(t, lostCases) }

const (
	commitV = CommitFromOwner + " " + ClassViolation
	commitZ = CommitFromOwner + " " + ClassZombie
)

func commitOwned(b *hb) { b.cb("a", history.Assign, parts("t", 0, 1)) }

var commitCases = []propCase{
	{"owner commits", "docs/protocol.md §1.8", "", func(b *hb) {
		commitOwned(b)
		b.commit("a", parts("t", 0, 1), "")
	}, nil, nil},
	{"commit inside the revoke callback", "docs/clients.md §2: the revoke callback, including any commit in it", "", func(b *hb) {
		commitOwned(b)
		id := b.begin(history.Event{Kind: history.Revoke, Node: "a", Parts: parts("t", 1)})
		b.commit("a", parts("t", 1), "")
		b.end(id, history.Event{})
	}, nil, nil},
	{"accepted commit after the revoke returned", "docs/protocol.md §1.12: no commit accepted from a non-owner", "", func(b *hb) {
		commitOwned(b)
		b.cb("a", history.Revoke, parts("t", 1))
		b.commit("a", parts("t", 0, 1), "")
	}, []string{commitV}, []string{"a did not own t-1 when it began"}},
	{"accepted commit from a member that never owned", "docs/protocol.md §1.12", "", func(b *hb) {
		b.commit("a", parts("t", 5), "")
	}, []string{commitV}, nil},
	{"accepted commit after a Fenced event", "docs/clients.md §6.4: every commit from a fenced member is rejected", "", func(b *hb) {
		commitOwned(b)
		b.add(history.Event{Kind: history.Fenced, Node: "a", Member: "m-a"})
		b.commit("a", parts("t", 0), "")
	}, []string{commitV}, []string{"the coordinator had fenced a at seq 5"}},
	{"accepted commit after an injected fencing answer", "conformance/franzgo Fence: kfake's state unchanged", "", func(b *hb) {
		commitOwned(b)
		b.req("a", history.Heartbeat, "m-a", 3, "UNKNOWN_MEMBER_ID")
		b.commit("a", parts("t", 0), "")
		b.cb("a", history.Lost, parts("t", 0, 1))
	}, nil, nil},
	{"accepted commit after the member left", "docs/protocol.md §3.6: epoch -1 leaves", "", func(b *hb) {
		commitOwned(b)
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", -1, "")
		b.commit("a", parts("t", 0), "")
	}, []string{commitV}, nil},
	{"accepted commit after rejoining", "docs/protocol.md §1.4", "", func(b *hb) {
		commitOwned(b)
		b.add(history.Event{Kind: history.Fenced, Node: "a", Member: "m-a"})
		b.req("a", history.JoinGroup, "m-a", 3, "")
		b.commit("a", parts("t", 0), "")
	}, nil, nil},
	{"eager revoke returns late, after the partition was assigned again", "conformance/franzgo early-revoke-ack-eager: callbacks are deltas in call order", "", func(b *hb) {
		commitOwned(b)
		id := b.begin(history.Event{Kind: history.Revoke, Node: "a", Parts: parts("t", 0, 1)})
		b.cb("a", history.Assign, parts("t", 0))
		b.end(id, history.Event{})
		b.commit("a", parts("t", 0), "")
		b.commit("a", parts("t", 1), "")
	}, []string{commitV}, []string{"a did not own t-1 when it began"}},
	{"a zombie's commit is rejected", "docs/clients.md §2: its commits are rejected", "", func(b *hb) {
		commitOwned(b)
		b.instant(history.Cut, "a")
		b.commit("a", parts("t", 0), "UNKNOWN_MEMBER_ID")
	}, []string{commitZ}, []string{"rejected with UNKNOWN_MEMBER_ID", "a was cut off"}},
	{"ILLEGAL_GENERATION after the member's own rejoin moved the generation on", "conformance/confluent rejected-commit-during-rejoin-cooperative-sticky.jsonl; docs/protocol.md §1.8", history.Classic, func(b *hb) {
		commitOwned(b)
		join := b.begin(history.Event{Kind: history.Request, Node: "a", Op: history.JoinGroup, Member: "m-a", Gen: 3})
		c := b.begin(history.Event{Kind: history.Commit, Node: "a", Parts: parts("t", 0), Gen: 3})
		b.end(join, history.Event{Member: "m-a", Gen: 4})
		b.end(c, history.Event{Err: "ILLEGAL_GENERATION"})
	}, nil, nil},
	{"ILLEGAL_GENERATION at the member's own generation is a zombie", "docs/clients.md §2", history.Classic, func(b *hb) {
		commitOwned(b)
		b.end(b.begin(history.Event{Kind: history.Commit, Node: "a", Parts: parts("t", 0), Gen: 3}), history.Event{Err: "ILLEGAL_GENERATION"})
	}, []string{commitZ}, nil},
	{"a stale-epoch rejection is not fencing", "docs/protocol.md §3.1: STALE_MEMBER_EPOCH", "", func(b *hb) {
		commitOwned(b)
		b.commit("a", parts("t", 0), "STALE_MEMBER_EPOCH")
	}, nil, nil},
	{"an unanswered commit is not judged", "history.Unfinished", "", func(b *hb) {
		id := b.begin(history.Event{Kind: history.Commit, Node: "a", Parts: parts("t", 9)})
		b.end(id, history.Event{Note: history.Unfinished})
	}, nil, nil},
}

func TestCommitFromOwner(t *testing.T) { runCases(t, commitCases) }

const genV = GenerationMonotonic + " " + ClassViolation

var genCases = []propCase{
	{"up and equal", "docs/protocol.md §3.9", "", func(b *hb) {
		b.gen("a", "m-a", 5)
		b.gen("a", "m-a", 5)
	}, nil, nil},
	{"down", "docs/protocol.md §3.9: never decreases", "", func(b *hb) {
		b.gen("a", "m-a", 2)
	}, []string{genV}, []string{"member m-a, observed generation 2 at seq 3 (t 2ms) after 3 at seq 2"}},
	{"consumer resets to 0, -1, -2", "docs/protocol.md §3.1", "", func(b *hb) {
		b.gen("a", "m-a", 0)
		b.gen("a", "m-a", 4)
		b.gen("a", "m-a", -1)
		b.gen("a", "m-a", 5)
		b.gen("a", "m-a", -2)
	}, nil, nil},
	{"classic resets only to -1", "docs/protocol.md §2.2", history.Classic, func(b *hb) {
		b.gen("a", "m-a", -1)
		b.gen("a", "m-a", 4)
		b.gen("a", "m-a", 0)
	}, []string{genV}, nil},
	{"another member ID starts afresh", "docs/protocol.md §3.7", "", func(b *hb) {
		b.gen("a", "m-b", 1)
	}, nil, nil},
	{"a restart starts afresh", "brief: Start again", "", func(b *hb) {
		b.start("a", history.Consumer)
		b.gen("a", "m-a", 1)
	}, nil, nil},
	{"no member ID is not checked", "brief: within one member ID", "", func(b *hb) {
		b.gen("a", "", 7)
		b.gen("a", "", 2)
	}, nil, nil},
}

func TestGenerationMonotonic(t *testing.T) { runCases(t, genCases) }

const claimV = ClaimsTruthful + " " + ClassViolation

// join sends a classic JoinGroup from a claiming owned, answered at generation 4.
func join(b *hb, owned history.Parts) {
	b.call(history.Event{Node: "a", Proto: history.Classic, Op: history.JoinGroup, Member: "m-a", Gen: 3, Owned: owned},
		history.Event{Member: "m-a", Gen: 4, Leader: "m-a", Members: []string{"m-a"}})
}

var claimCases = []propCase{
	{"claims what it owns", "KIP-429 §2", history.Classic, func(b *hb) {
		b.cb("a", history.Assign, parts("t", 0, 1))
		b.cb("a", history.Revoke, parts("t", 1))
		join(b, parts("t", 0))
	}, nil, nil},
	{"an empty claim is not judged", "history: Owned omitted when empty", history.Classic, func(b *hb) {
		b.cb("a", history.Assign, parts("t", 0))
		join(b, nil)
	}, nil, nil},
	{"claims a partition it revoked (franz-go #686)", "docs/bugs.md B23", history.Classic, func(b *hb) {
		b.cb("a", history.Assign, parts("t", 0, 1))
		b.cb("a", history.Revoke, parts("t", 1))
		join(b, parts("t", 0, 1))
	}, []string{claimV}, []string{"claims (t-0,t-1) but by its callbacks it owns (t-0): t-1 misstated"}},
	{"omits a partition whose revoke has not returned", "docs/protocol.md §2.6", history.Classic, func(b *hb) {
		b.cb("a", history.Assign, parts("t", 0, 1))
		id := b.begin(history.Event{Kind: history.Revoke, Node: "a", Parts: parts("t", 1)})
		join(b, parts("t", 0))
		b.end(id, history.Event{})
	}, []string{claimV}, []string{"t-1 misstated"}},
}

func TestClaimsTruthful(t *testing.T) { runCases(t, claimCases) }

const cbV = CallbacksConsistent + " " + ClassViolation

var callbackCases = []propCase{
	{"assign, revoke, assign again", "docs/protocol.md §2.6: callbacks are deltas", "", func(b *hb) {
		b.cb("a", history.Assign, parts("t", 0, 1))
		b.cb("a", history.Revoke, parts("t", 1))
		b.cb("a", history.Assign, parts("t", 1))
		b.cb("a", history.Lost, parts("t", 0, 1))
	}, []string{lostV}, nil},
	{"eager: revoke everything, assign everything", "docs/protocol.md §2.1 eager", history.Classic, func(b *hb) {
		b.cb("a", history.Assign, parts("t", 0, 1))
		b.cb("a", history.Revoke, parts("t", 0, 1))
		b.cb("a", history.Assign, parts("t", 0, 1))
	}, nil, nil},
	{"assigned again while its revoke still runs", "conformance/franzgo early-revoke-ack-eager", history.Classic, func(b *hb) {
		b.cb("a", history.Assign, parts("t", 0))
		id := b.begin(history.Event{Kind: history.Revoke, Node: "a", Parts: parts("t", 0)})
		b.cb("a", history.Assign, parts("t", 0))
		b.end(id, history.Event{})
	}, nil, nil},
	{"a restart holds nothing", "brief: Start again", "", func(b *hb) {
		b.cb("a", history.Assign, parts("t", 0))
		b.start("a", history.Consumer)
		b.cb("a", history.Assign, parts("t", 0))
	}, nil, nil},
	{"assigned a partition it already holds", "ConsumerRebalanceListener: assigned gets the partitions added", "", func(b *hb) {
		b.cb("a", history.Assign, parts("t", 0, 1))
		b.cb("a", history.Assign, parts("t", 1, 2))
	}, []string{cbV}, []string{"a's assign callback at seq 5 (t 4ms) names t-1, which it already holds", "never revoked or lost"}},
	{"revoked a partition it never held", "ConsumerRebalanceListener: revoked gets partitions previously assigned", "", func(b *hb) {
		b.cb("a", history.Assign, parts("t", 0))
		b.cb("a", history.Revoke, parts("t", 0, 3))
	}, []string{cbV}, []string{"names t-3, which it does not hold"}},
	{"revoked twice", "ConsumerRebalanceListener", "", func(b *hb) {
		b.cb("a", history.Assign, parts("t", 0))
		b.cb("a", history.Revoke, parts("t", 0))
		b.cb("a", history.Revoke, parts("t", 0))
	}, []string{cbV}, nil},
	{"lost a partition it never held", "ConsumerRebalanceListener: lost gets partitions previously assigned", "", func(b *hb) {
		b.instant(history.Cut, "a")
		b.cb("a", history.Lost, parts("t", 4))
	}, []string{cbV}, []string{"a's lost callback"}},
	{"parts named on the end edge count", "history: a recorder may note parts on either edge", "", func(b *hb) {
		b.cb("a", history.Assign, parts("t", 0))
		id := b.begin(history.Event{Kind: history.Assign, Node: "a"})
		b.end(id, history.Event{Parts: parts("t", 0)})
	}, []string{cbV}, nil},
}

func TestCallbacksConsistent(t *testing.T) { runCases(t, callbackCases) }

// wire records an OffsetCommit request seen on the wire, with its answer.
func wire(b *hb, member string, ps history.Parts, errName string) {
	b.call(history.Event{Node: "a", Op: history.OffsetCommit, Member: member, Gen: 3, Parts: ps},
		history.Event{Err: errName})
}

var wireCases = []propCase{
	{"owner's wire commit", "docs/protocol.md §1.8", "", func(b *hb) {
		commitOwned(b)
		wire(b, "m-a", parts("t", 0, 1), "")
	}, nil, nil},
	{"wire commit of a partition it does not own", "docs/protocol.md §1.12: no commit accepted from a non-owner", "", func(b *hb) {
		commitOwned(b)
		b.cb("a", history.Revoke, parts("t", 1))
		wire(b, "m-a", parts("t", 0, 1), "")
	}, []string{commitV}, []string{"a's OffsetCommit (seen only on the wire) of t-0,t-1", "a did not own t-1 when it began"}},
	{"wire commit after a Fenced event", "docs/clients.md §6.4", "", func(b *hb) {
		commitOwned(b)
		b.add(history.Event{Kind: history.Fenced, Node: "a", Member: "m-a"})
		wire(b, "m-a", parts("t", 0), "")
	}, []string{commitV, RemovedStaysRemoved + " " + ClassViolation}, nil},
	{"a zombie's wire commit is rejected", "docs/clients.md §2", "", func(b *hb) {
		commitOwned(b)
		b.instant(history.Cut, "a")
		wire(b, "m-a", parts("t", 0), "UNKNOWN_MEMBER_ID")
	}, []string{commitZ}, nil},
	{"the wire request of a client commit is that commit", "conformance/franzgo: CommitOffsetsSync inside a Commit event", "", func(b *hb) {
		commitOwned(b)
		b.cb("a", history.Revoke, parts("t", 1))
		id := b.begin(history.Event{Kind: history.Commit, Node: "a", Parts: parts("t", 1)})
		wire(b, "m-a", parts("t", 1), "")
		b.end(id, history.Event{})
	}, []string{commitV}, []string{"a's commit of t-1"}},
	{"a commit from outside the group is not judged", "docs/protocol.md §1.8: generation -1, no member ID", "", func(b *hb) {
		wire(b, "", parts("t", 7), "")
	}, nil, nil},
}

func TestWireCommitFromOwner(t *testing.T) { runCases(t, wireCases) }
