package oracle

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

const (
	exclV = ExclusiveOwnership + " " + ClassViolation
	exclZ = ExclusiveOwnership + " " + ClassZombie
	rbaV  = RevokeBeforeAssign + " " + ClassViolation
	rbaZ  = RevokeBeforeAssign + " " + ClassZombie
)

// twoMembers starts a and b in proto with generations, a owning t-0 and t-1.
func twoMembers(proto string) *hb {
	b := newHB()
	b.start("a", proto)
	b.start("b", proto)
	b.gen("a", "m-a", 3)
	b.gen("b", "m-b", 3)
	b.cb("a", history.Assign, parts("t", 0, 1))
	return b
}

type ownershipCase struct {
	name, source string
	build        func(b *hb)
	want         []string
	msg          []string // substrings of the messages
}

// ownershipCases start from twoMembers(history.Consumer).
var ownershipCases = []ownershipCase{
	{"cooperative handoff: revoke returns, then assign", "KIP-429 §2.4", func(b *hb) {
		b.cb("a", history.Revoke, parts("t", 1))
		b.cb("b", history.Assign, parts("t", 1))
	}, nil, nil},
	{"revoke end then assign begin at equal t, later seq", "docs/clients.md §5 Clocks", func(b *hb) {
		id := b.begin(history.Event{Kind: history.Revoke, Node: "a", Parts: parts("t", 1)})
		b.step = 0
		b.end(id, history.Event{})
		b.cb("b", history.Assign, parts("t", 1))
	}, nil, nil},
	{"assign begins one event before revoke returns, at equal t", "KIP-848 draft (docs/protocol.md §8): assigned when revoked", func(b *hb) {
		id := b.begin(history.Event{Kind: history.Revoke, Node: "a", Parts: parts("t", 1)})
		b.step = 0
		b.cb("b", history.Assign, parts("t", 1))
		b.end(id, history.Event{})
	}, []string{rbaV}, []string{"b began assigning t-1 at seq 8", "its revoke returned only at seq 10", "both were current members"}},
	{"two current owners", "docs/protocol.md §1.12", func(b *hb) {
		b.cb("b", history.Assign, parts("t", 0, 1))
	}, []string{exclV, rbaV}, []string{"a and b both owned t-0,t-1 from seq 7", "to the end of the history"}},
	{"previous owner crashed", "docs/clients.md §5 Crash semantics", func(b *hb) {
		b.instant(history.Crash, "a")
		b.cb("b", history.Assign, parts("t", 0, 1))
	}, nil, nil},
	{"previous owner closed: revoke inside close", "docs/clients.md §2 Close()", func(b *hb) {
		id := b.begin(history.Event{Kind: history.Close, Node: "a"})
		b.cb("a", history.Revoke, parts("t", 0, 1))
		b.end(id, history.Event{})
		b.cb("b", history.Assign, parts("t", 0, 1))
	}, nil, nil},
	{"previous owner's close ended without a revoke", "docs/clients.md §6.3", func(b *hb) {
		b.end(b.begin(history.Event{Kind: history.Close, Node: "a"}), history.Event{})
		b.cb("b", history.Assign, parts("t", 0))
	}, nil, nil},
	{"restart begins owning nothing", "brief: Start again owns nothing", func(b *hb) {
		b.start("a", history.Consumer)
		b.cb("b", history.Assign, parts("t", 0))
	}, nil, nil},
	{"848 zombie: cut, not told, then told and lost", "docs/clients.md §2 KIP-848 failure behaviour", func(b *hb) {
		b.instant(history.Cut, "a")
		b.cb("b", history.Assign, parts("t", 0))
		b.instant(history.Heal, "a")
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", 3, "UNKNOWN_MEMBER_ID")
		b.cb("a", history.Lost, parts("t", 0, 1))
	}, []string{exclZ, rbaZ}, []string{"a was cut off from the coordinator at seq 7", "and a was giving its partitions up after learning at seq 12"}},
	{"fenced server-side, not yet told", "docs/clients.md §6.4", func(b *hb) {
		b.add(history.Event{Kind: history.Fenced, Node: "coordinator", Member: "m-a", Gen: 3})
		b.cb("b", history.Assign, parts("t", 0))
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", 3, "FENCED_MEMBER_EPOCH")
		b.cb("a", history.Lost, parts("t", 0, 1))
	}, []string{exclZ, rbaZ}, []string{"the coordinator fenced a at seq 7"}},
	{"skips onPartitionsLost: told, rejoins still owning", "issue 7 item 3; docs/protocol.md §3.7", func(b *hb) {
		b.instant(history.Cut, "a")
		b.cb("b", history.Assign, parts("t", 0))
		b.instant(history.Heal, "a")
		b.req("a", history.ConsumerGroupHeartbeat, "m-a", 3, "UNKNOWN_MEMBER_ID")
		b.req("a", history.ConsumerGroupHeartbeat, "m-a2", 0, "")
	}, []string{exclV, rbaZ}, []string{"that it was no longer a member and went on at seq 13"}},
	{"fenced at an unknown time: told after an overlap", "docs/protocol.md §1.12 zombie window", func(b *hb) {
		b.req("a", history.Heartbeat, "m-a", 3, "")
		b.cb("b", history.Assign, parts("t", 0))
		b.req("a", history.Heartbeat, "m-a", 3, "UNKNOWN_MEMBER_ID")
		b.cb("a", history.Lost, parts("t", 0, 1))
	}, []string{exclZ, rbaZ}, []string{"a was fenced at an unknown time before it was told so at seq 12"}},
	{"the new owner fenced later does not excuse the old owner", "docs/protocol.md §1.12: the zombie is the old owner", func(b *hb) {
		b.req("b", history.Heartbeat, "m-b", 3, "")
		b.cb("b", history.Assign, parts("t", 0))
		b.req("b", history.Heartbeat, "m-b", 3, "UNKNOWN_MEMBER_ID")
		b.cb("b", history.Lost, parts("t", 0))
	}, []string{exclV, rbaV}, []string{"a was still a current member"}},
	{"same, but never told: both current", "docs/protocol.md §1.12", func(b *hb) {
		b.req("a", history.Heartbeat, "m-a", 3, "")
		b.cb("b", history.Assign, parts("t", 0))
		b.req("a", history.Heartbeat, "m-a", 3, "")
		b.cb("a", history.Revoke, parts("t", 0, 1))
	}, []string{exclV, rbaV}, nil},
	{"a Fenced event about an earlier member ID is old news", "docs/protocol.md §3.1 (KIP-1082 member IDs)", func(b *hb) {
		b.gen("a", "m-a2", 4)
		b.add(history.Event{Kind: history.Fenced, Node: "a", Member: "m-a"})
		b.cb("b", history.Assign, parts("t", 0))
	}, []string{exclV, rbaV}, nil},
	{"a Fenced event about an earlier epoch is old news", "docs/protocol.md §3.9", func(b *hb) {
		b.gen("a", "m-a", 4)
		b.add(history.Event{Kind: history.Fenced, Node: "a", Member: "m-a", Gen: 3})
		b.cb("b", history.Assign, parts("t", 0))
	}, []string{exclV, rbaV}, nil},
	{"lost that keeps a partition: stale", "docs/protocol.md §2.1: onPartitionsLost(all)", func(b *hb) {
		b.instant(history.Cut, "a")
		b.cb("a", history.Lost, parts("t", 0))
		b.cb("b", history.Assign, parts("t", 1))
	}, []string{exclV, rbaV}, []string{"a learned at seq 8", "went on at seq 9"}},
	{"a request sent while the lost callback runs is still the reaction", "docs/real-kafka.md finding 4 (librdkafka)", func(b *hb) {
		b.req("a", history.Heartbeat, "m-a", 3, "UNKNOWN_MEMBER_ID")
		lost := b.begin(history.Event{Kind: history.Lost, Node: "a", Parts: parts("t", 0, 1)})
		b.req("a", history.Heartbeat, "", 3, "UNKNOWN_MEMBER_ID")
		b.cb("b", history.Assign, parts("t", 0))
		b.end(lost, history.Event{})
	}, []string{exclZ, rbaZ}, nil},
	{"one revoke returning while another runs is still the reaction", "docs/real-kafka.md finding 4 (Sarama)", func(b *hb) {
		r0 := b.begin(history.Event{Kind: history.Revoke, Node: "a", Parts: parts("t", 0)})
		r1 := b.begin(history.Event{Kind: history.Revoke, Node: "a", Parts: parts("t", 1)})
		b.req("a", history.Heartbeat, "m-a", 3, "UNKNOWN_MEMBER_ID")
		b.cb("b", history.Assign, parts("t", 1))
		b.end(r0, history.Event{})
		b.end(r1, history.Event{})
	}, []string{exclZ, rbaZ}, nil},
	{"a request with no release running ends the reaction", "docs/protocol.md §2.1: onPartitionsLost before rejoining", func(b *hb) {
		b.req("a", history.Heartbeat, "m-a", 3, "UNKNOWN_MEMBER_ID")
		b.req("a", history.JoinGroup, "", -1, "MEMBER_ID_REQUIRED")
		b.cb("b", history.Assign, parts("t", 0))
		b.cb("a", history.Lost, parts("t", 0, 1))
	}, []string{exclV, rbaV}, []string{"went on at seq 9"}},
	{"an unfinished answer is no answer", "history.Unfinished", func(b *hb) {
		b.add(history.Event{Kind: history.Fenced, Node: "a", Member: "m-a"})
		id := b.begin(history.Event{Kind: history.Request, Node: "a", Op: history.JoinGroup, Member: "m-a"})
		b.end(id, history.Event{Note: history.Unfinished})
		b.cb("b", history.Assign, parts("t", 0))
	}, []string{exclZ, rbaZ}, nil},
	{"an answered join readmits", "docs/protocol.md §1.4", func(b *hb) {
		b.add(history.Event{Kind: history.Fenced, Node: "a", Member: "m-a"})
		b.req("a", history.JoinGroup, "m-a", 3, "")
		b.cb("b", history.Assign, parts("t", 0))
	}, []string{exclV, rbaV}, nil},
	{"a still cut off member is not readmitted by an answer", "docs/clients.md §5 Kill mechanics", func(b *hb) {
		b.instant(history.Cut, "a")
		b.req("a", history.JoinGroup, "m-a", 3, "")
		b.gen("a", "m-a", 5)
		b.cb("b", history.Assign, parts("t", 0))
	}, []string{exclZ, rbaZ}, nil},
}

func TestOwnership(t *testing.T) {
	for _, tc := range ownershipCases {
		t.Run(tc.name, func(t *testing.T) {
			b := twoMembers(history.Consumer)
			tc.build(b)
			r := Check(b.h, Options{NoReference: true}) // a snippet: the plain checks only
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

// The events of a finding are exactly those involved: both assigns, the late release, and the
// ones that explain the class.
func TestOwnershipEvents(t *testing.T) {
	b := twoMembers(history.Consumer)
	b.instant(history.Cut, "a")                                               // 7
	b.cb("b", history.Assign, parts("t", 0))                                  // 8, 9
	b.instant(history.Heal, "a")                                              // 10
	b.req("a", history.ConsumerGroupHeartbeat, "m-a", 3, "UNKNOWN_MEMBER_ID") // 11, 12
	b.cb("a", history.Lost, parts("t", 0, 1))                                 // 13, 14
	r := Check(b.h, Options{})
	if len(r.Zombies) != 2 || len(r.Violations) != 0 {
		t.Fatalf("want two zombies:\n%s", r)
	}
	want := map[string][]int64{
		ExclusiveOwnership: {5, 7, 8, 12, 14},
		RevokeBeforeAssign: {5, 7, 8, 14},
	}
	for _, v := range r.Zombies {
		if got := seqs(v.Events); !slices.Equal(got, want[v.Property]) {
			t.Errorf("%s events %v, want %v", v.Property, got, want[v.Property])
		}
	}
}
