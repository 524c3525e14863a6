package oracle

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/groupcheck/groupcheck/oracle/search"
)

// stableOne is a classic group of one dynamic member m1 (node c1) that joined, synced at
// generation 1 with all of t and took it: what every scenario below starts from.
func stableOne(b *hb) {
	c := history.Classic
	all := parts("t", 0, 1)
	b.start("c1", c)
	b.call(history.Event{Node: "c1", Op: history.JoinGroup, Gen: -1, Protocols: []string{"range"}}, history.Event{Err: "MEMBER_ID_REQUIRED", Member: "m1"})
	b.call(history.Event{Node: "c1", Op: history.JoinGroup, Member: "m1", Gen: -1, Protocols: []string{"range"}}, history.Event{Member: "m1", Gen: 1, Leader: "m1", Members: []string{"m1"}})
	b.call(history.Event{Node: "c1", Op: history.SyncGroup, Member: "m1", Gen: 1, Assignments: map[string]history.Parts{"m1": all}}, history.Event{Parts: all})
	b.gen("c1", "m1", 1)
	b.cbAs("c1", "m1", 1, history.Assign, all)
}

// stableStatic is stableOne with m1 a static member (instance i1) and a second static member
// m2 (i2, node c2) that joined generation 1 too, with nothing assigned.
func stableStatic(b *hb) {
	c := history.Classic
	all := parts("t", 0, 1)
	b.start("c1", c)
	b.start("c2", c)
	j1 := b.begin(history.Event{Kind: history.Request, Node: "c1", Op: history.JoinGroup, Instance: "i1", Gen: -1, Protocols: []string{"range"}})
	j2 := b.begin(history.Event{Kind: history.Request, Node: "c2", Op: history.JoinGroup, Instance: "i2", Gen: -1, Protocols: []string{"range"}})
	b.end(j1, history.Event{Member: "m1", Gen: 1, Leader: "m1", Members: []string{"m1", "m2"}})
	b.end(j2, history.Event{Member: "m2", Gen: 1, Leader: "m1"})
	b.call(history.Event{Node: "c1", Op: history.SyncGroup, Member: "m1", Instance: "i1", Gen: 1, Assignments: map[string]history.Parts{"m1": all, "m2": {}}}, history.Event{Parts: all})
	b.call(history.Event{Node: "c2", Op: history.SyncGroup, Member: "m2", Instance: "i2", Gen: 1}, history.Event{})
}

// The first misjudgement of issue 25: coordinator answers that no sequence of reference
// transitions gives passed the plain check and --linearizability (oracle/lin's knowledge
// model, now retired, accepted them). The reference search finds each at the answer, and so
// does --linearizability, whose porcupine model steps the reference.
func TestReferenceImpossibleAnswers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(b *hb)
	}{
		{
			// KIP-394: a MEMBER_ID_REQUIRED answer only makes the id pending; no rebalance
			// starts until it rejoins (docs/protocol.md §1.4), so m1's heartbeat is NONE, or
			// UNKNOWN_MEMBER_ID had its session expired.
			name: "a pending member id starts no rebalance",
			build: func(b *hb) {
				stableOne(b)
				b.start("c2", history.Classic)
				b.call(history.Event{Node: "c2", Op: history.JoinGroup, Gen: -1, Protocols: []string{"range"}}, history.Event{Err: "MEMBER_ID_REQUIRED", Member: "m2"})
				b.call(history.Event{Node: "c1", Op: history.Heartbeat, Member: "m1", Gen: 1}, history.Event{Err: "REBALANCE_IN_PROGRESS"})
			},
		},
		{
			// A rejoin of a known static follower with unchanged metadata in Stable is answered
			// with the current generation (docs/protocol.md §1.10), never a later one without
			// a rebalance in which the leader rejoined.
			name: "a static follower's rejoin skips a generation alone",
			build: func(b *hb) {
				stableStatic(b)
				b.call(history.Event{Node: "c2", Op: history.JoinGroup, Member: "m2", Instance: "i2", Gen: 1, Protocols: []string{"range"}}, history.Event{Member: "m2", Gen: 3, Leader: "m1"})
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newHB()
			tc.build(b)
			lin := Check(b.h, Options{NoReference: true, Linearizability: Linearizable(time.Minute)})
			if lin.OK() || !strings.Contains(lin.Linearizable, fmt.Sprintf("[seq %d–", b.h[len(b.h)-2].Seq)) {
				t.Fatalf("--linearizability passes an impossible answer, or names another request:\n%s", lin)
			}
			r := Check(b.h, Options{Reference: &search.Options{}})
			if r.OK() || !strings.HasPrefix(r.Reference, search.Violated) {
				t.Fatalf("the reference search passes an impossible answer:\n%s", r)
			}
			last := b.h[len(b.h)-1].Seq // the impossible answer
			i := slices.IndexFunc(r.Violations, func(v Violation) bool { return v.Property == ReferenceSearch })
			if i < 0 || len(r.Violations[i].Events) != 1 || r.Violations[i].Events[0].Seq != last {
				t.Fatalf("want a %s violation at seq %d, got:\n%s", ReferenceSearch, last, r)
			}
		})
	}
}

// The third misjudgement of issue 25: a consumer outside the group (assign(), no member id,
// generation -1: how Flink, Spark and Kafka Connect commit) is judged as Kafka judges it, by
// the group's state (docs/protocol.md §1.8), whether the history recorded its commit as the
// client's, only as the OffsetCommit request, or both: one commit, one verdict.
func TestOutsideGroupCommitOneVerdict(t *testing.T) {
	record := func(b *hb, client, wire bool, errName string) {
		b.start("flink", history.Classic)
		ps := parts("t", 0)
		var cid int64
		if client {
			cid = b.begin(history.Event{Kind: history.Commit, Node: "flink", Gen: -1, Parts: ps})
		}
		if wire {
			b.call(history.Event{Node: "flink", Op: history.OffsetCommit, Gen: -1, Parts: ps}, history.Event{Err: errName})
		}
		if client {
			b.end(cid, history.Event{Err: errName})
		}
	}
	// m1's heartbeat, answered at generation 1 after the commit: it was a member all along
	// (an expired session would have made the group Empty, and a rejoin a new generation).
	stillMember := func(b *hb) {
		b.call(history.Event{Node: "c1", Op: history.Heartbeat, Member: "m1", Gen: 1}, history.Event{})
	}
	for _, group := range []struct {
		name          string
		before, after func(b *hb)
		answer        string // Kafka's answer to the commit
		ok            bool   // whether the history is fine when the commit is accepted
	}{
		{"Empty group", func(*hb) {}, func(*hb) {}, "", true},
		{"group with a member", stableOne, stillMember, "UNKNOWN_MEMBER_ID", false},
	} {
		for _, way := range []struct {
			name         string
			client, wire bool
		}{{"client commit", true, false}, {"wire request", false, true}, {"both", true, true}} {
			t.Run(group.name+"/"+way.name, func(t *testing.T) {
				// Accepted: fine in an Empty group, impossible in one with a member.
				b := newHB()
				group.before(b)
				record(b, way.client, way.wire, "")
				group.after(b)
				r := Check(b.h, Options{Reference: &search.Options{}})
				if r.OK() != group.ok {
					t.Errorf("accepted commit: OK() = %v, want %v:\n%s", r.OK(), group.ok, r)
				}
				// Kafka's own answer is always fine.
				b = newHB()
				group.before(b)
				record(b, way.client, way.wire, group.answer)
				group.after(b)
				if r := Check(b.h, Options{Reference: &search.Options{}}); !r.OK() {
					t.Errorf("Kafka's answer %q: not OK:\n%s", group.answer, r)
				}
				// The plain check alone never judges it by ownership.
				if r := Check(b.h, Options{}); !r.OK() {
					t.Errorf("plain check: not OK:\n%s", r)
				}
			})
		}
	}
}

// TestLinearizableUndecided: a linearizability check whose budget runs out is no verdict,
// never "yes".
func TestLinearizableUndecided(t *testing.T) {
	b := newHB()
	stableOne(b)
	r := Check(b.h, Options{NoReference: true, Linearizability: LinearizableUnder(search.Options{Budget: 1}, 0)})
	if !strings.HasPrefix(r.Linearizable, LinNotChecked+": linearizability undecided") {
		t.Errorf("linearizable %q, want not checked: undecided", r.Linearizable)
	}
}

// TestUndecidedNotReplayed: where the simplest explanations ran out of budget, the whole
// search would too (judgeReference), so the history is not read again for it: the first
// search's "undecided" is the verdict, at its event. Only "violated" is searched again.
func TestUndecidedNotReplayed(t *testing.T) {
	b := newHB()
	stableOne(b)
	for _, tc := range []struct {
		verdict string
		replays int
	}{{search.Undecided, 0}, {search.OK, 0}, {search.Violated, 1}} {
		replays := 0
		replay := func(add func(history.Event) error) error {
			replays++
			return replayHistory(b.h)(add)
		}
		first := search.Result{Verdict: tc.verdict, Seq: 3, States: 7}
		r, _, err := judgeReference(first, search.Options{}, replay)
		if err != nil || replays != tc.replays {
			t.Errorf("%s: %d replays (%v), want %d", tc.verdict, replays, err, tc.replays)
		}
		if tc.verdict != search.Violated && (r.Verdict != tc.verdict || r.Seq != 3) {
			t.Errorf("%s: reported %s at %d, want the first search's", tc.verdict, r.Verdict, r.Seq)
		}
	}
	// Through Check: a budget of one state is undecided at the first answer, once.
	r := Check(b.h, Options{Reference: &search.Options{Budget: 1}})
	if !strings.HasPrefix(r.Reference, search.Undecided) || !r.Undecided() {
		t.Errorf("reference %q, want undecided", r.Reference)
	}
}
