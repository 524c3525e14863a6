package oracle

import (
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// joinAs records a classic JoinGroup from node as member (empty: none yet) answered with
// member ID got at generation gen, led by leader.
func joinAs(b *hb, node, member, got string, gen int32, leader, errName string) {
	b.call(history.Event{Node: node, Proto: history.Classic, Op: history.JoinGroup, Member: member},
		history.Event{Member: got, Gen: gen, Leader: leader, Err: errName})
}

var (
	leaderV = OneLeaderPerGeneration + " " + ClassViolation
	idV     = MemberIDUnique + " " + ClassViolation
	riseV   = CoordinatorGenerationRises + " " + ClassViolation
	removeV = RemovedStaysRemoved + " " + ClassViolation
)

var coordinatorCases = []propCase{
	{"one round: every member told the same leader", "docs/protocol.md §1.4", history.Classic, func(b *hb) {
		joinAs(b, "a", "", "m-a", 4, "m-a", "")
		joinAs(b, "b", "", "m-b", 4, "m-a", "")
		joinAs(b, "a", "m-a", "m-a", 5, "m-b", "")
	}, nil, nil},
	{"two leaders of one generation (kfake completeRebalance)", "docs/protocol.md §1.4; conformance/franzgo testdata/kfake-two-leaders-cooperative.jsonl", history.Classic, func(b *hb) {
		joinAs(b, "a", "m-a", "m-a", 4, "m-a", "")
		joinAs(b, "b", "m-b", "m-b", 4, "m-b", "")
	}, []string{leaderV}, []string{"generation 4 has two leaders: a's JoinGroup answer at seq 4 (t 3ms) names m-a, b's at seq 6 (t 5ms) names m-b"}},
	{"a static member renames the leader", "docs/protocol.md §1.10", history.Classic, func(b *hb) {
		b.call(history.Event{Node: "a", Op: history.JoinGroup, Instance: "i-a"}, history.Event{Member: "m-a", Gen: 4, Leader: "m-a"})
		b.call(history.Event{Node: "a", Op: history.JoinGroup, Instance: "i-a"}, history.Event{Member: "m-a2", Gen: 4, Leader: "m-a2"})
	}, nil, nil},
	{"a member ID handed to two nodes", "docs/protocol.md §1.4: a fresh member ID per join", history.Classic, func(b *hb) {
		joinAs(b, "a", "", "m-x", 0, "", "MEMBER_ID_REQUIRED")
		joinAs(b, "b", "", "m-x", 0, "", "MEMBER_ID_REQUIRED")
	}, []string{idV}, []string{"handed member ID m-x to a at seq 4 (t 3ms) and to b at seq 6 (t 5ms)"}},
	{"a member ID handed again to its node", "docs/protocol.md §1.4", history.Classic, func(b *hb) {
		joinAs(b, "a", "", "m-x", 0, "", "MEMBER_ID_REQUIRED")
		joinAs(b, "a", "", "m-x", 4, "m-x", "")
		joinAs(b, "b", "m-x", "m-x", 4, "m-x", "")
	}, nil, nil},
	{"a generation goes back", "docs/protocol.md §1.3: generations only rise", history.Classic, func(b *hb) {
		joinAs(b, "a", "m-a", "m-a", 5, "m-a", "")
		joinAs(b, "b", "m-b", "m-b", 4, "m-a", "")
	}, []string{riseV}, []string{"b's JoinGroup begun at seq 5 (t 4ms) was answered with generation 4 at seq 6 (t 5ms), after a's JoinGroup had been answered with generation 5"}},
	{"concurrent joins may return in any order", "docs/protocol.md §1.4: one round answers all", history.Classic, func(b *hb) {
		x := b.begin(history.Event{Kind: history.Request, Node: "b", Op: history.JoinGroup, Member: "m-b"})
		joinAs(b, "a", "m-a", "m-a", 5, "m-a", "")
		b.end(x, history.Event{Member: "m-b", Gen: 4, Leader: "m-b"})
	}, nil, nil},
	{"an answer without a generation is not judged", "history: Gen 0 when not noted", history.Classic, func(b *hb) {
		joinAs(b, "a", "m-a", "m-a", 5, "m-a", "")
		b.req("b", history.JoinGroup, "m-b", 0, "")
	}, nil, nil},
	{"a consumer heartbeat answered with a lower epoch", "docs/protocol.md §3.9: a member's epoch never goes down", "", func(b *hb) {
		b.call(history.Event{Node: "a", Op: history.ConsumerGroupHeartbeat, Member: "m-a", Gen: 5}, history.Event{Member: "m-a", Gen: 3})
	}, []string{riseV}, []string{"at epoch 5", "with epoch 3"}},
	{"a heartbeat accepted after the member left", "docs/protocol.md §1.7: the member ID is unknown after LeaveGroup", history.Classic, func(b *hb) {
		b.req("a", history.LeaveGroup, "m-a", 3, "")
		b.req("a", history.Heartbeat, "m-a", 3, "")
		b.req("a", history.SyncGroup, "m-a", 3, "")
	}, []string{removeV}, []string{"the coordinator accepted a's Heartbeat begun at seq 5 (t 4ms) (answered at seq 6 (t 5ms)), but member m-a left at seq 4"}},
	{"a JoinGroup accepted under the ID it left with", "docs/protocol.md §1.7", history.Classic, func(b *hb) {
		b.req("a", history.LeaveGroup, "m-a", 3, "")
		b.req("a", history.JoinGroup, "m-a", 0, "")
	}, []string{removeV}, nil},
	{"refused after the member left", "docs/protocol.md §1.7", history.Classic, func(b *hb) {
		b.req("a", history.LeaveGroup, "m-a", 3, "")
		b.req("a", history.Heartbeat, "m-a", 3, "UNKNOWN_MEMBER_ID")
		b.req("a", history.LeaveGroup, "m-a", 3, "")
	}, nil, nil},
	{"a request begun before the leave returned", "oracle: judged by real-time order", history.Classic, func(b *hb) {
		x := b.begin(history.Event{Kind: history.Request, Node: "a", Op: history.Heartbeat, Member: "m-a", Gen: 3})
		b.req("a", history.LeaveGroup, "m-a", 3, "")
		b.end(x, history.Event{})
	}, nil, nil},
	{"a consumer heartbeat accepted after the coordinator removed the member", "docs/protocol.md §3.3: a fenced member rejoins with epoch 0", "", func(b *hb) {
		b.add(history.Event{Kind: history.Fenced, Node: "a", Member: "m-a", Gen: 3})
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", 3, "")
	}, []string{removeV}, []string{"member m-a was removed at seq 3"}},
	{"a consumer member rejoins at epoch 0", "docs/protocol.md §3.3, §3.6", "", func(b *hb) {
		b.add(history.Event{Kind: history.Fenced, Node: "a", Member: "m-a", Gen: 3})
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", 0, "")
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", 5, "")
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", -1, "")
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", 0, "")
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", 1, "")
	}, nil, nil},
	{"an injected fencing answer is no removal", "conformance/franzgo Fence: kfake's state unchanged", history.Classic, func(b *hb) {
		b.req("a", history.Heartbeat, "m-a", 3, "UNKNOWN_MEMBER_ID")
		b.req("a", history.Heartbeat, "m-a", 3, "")
	}, nil, nil},
	{"a static member is not judged", "docs/protocol.md §1.10", history.Classic, func(b *hb) {
		b.call(history.Event{Node: "a", Op: history.LeaveGroup, Member: "m-a", Instance: "i-a"}, history.Event{})
		b.call(history.Event{Node: "a", Op: history.Heartbeat, Member: "m-a", Instance: "i-a"}, history.Event{})
	}, nil, nil},
}

func TestCoordinatorChecks(t *testing.T) { runCases(t, coordinatorCases) }
