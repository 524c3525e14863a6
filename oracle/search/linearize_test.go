package search

import (
	"reflect"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// ch builds a classic history event by event, each at the time given, so that requests
// overlap as a test wants.
type ch struct{ h history.History }

func (b *ch) at(t int64, e history.Event) {
	e.Seq, e.T, e.Kind = int64(len(b.h)+1), t, history.Request
	b.h = append(b.h, e)
}

// begin records request id's begin at t; end its answer at t (Node and Op copied).
func (b *ch) begin(t, id int64, e history.Event) {
	e.Phase, e.ID = history.Begin, id
	b.at(t, e)
}

func (b *ch) end(t, id int64, e history.Event) {
	for _, x := range b.h {
		if x.ID == id {
			e.Node, e.Op = x.Node, x.Op
		}
	}
	e.Phase, e.ID = history.End, id
	b.at(t, e)
}

// joins: a and b join together (ids 1, 2, from t 1 and 2), and the join phase ends at t 5
// with generation 1 led by a-1.
func joins(b *ch) {
	b.begin(1, 1, history.Event{Node: "a", Op: history.JoinGroup, Gen: -1, Protocols: []string{"range"}})
	b.begin(2, 2, history.Event{Node: "b", Op: history.JoinGroup, Gen: -1, Protocols: []string{"range"}})
	b.end(5, 1, history.Event{Member: "a-1", Gen: 1, Leader: "a-1", Members: []string{"a-1", "b-1"}})
	b.end(5, 2, history.Event{Member: "b-1", Gen: 1, Leader: "a-1"})
}

var (
	leaderSync   = history.Event{Node: "a", Op: history.SyncGroup, Member: "a-1", Gen: 1, Assignments: map[string]history.Parts{"a-1": {"t": {0}}, "b-1": {"t": {1}}}}
	followerSync = history.Event{Node: "b", Op: history.SyncGroup, Member: "b-1", Gen: 1}
)

// TestLinearize: porcupine finds the order in which the reference coordinator gives every
// recorded answer, or shows there is none. Each case is a rule of the classic protocol the
// order decides (docs/protocol.md §1.3–1.5; Kafka's ClassicGroup and GroupCoordinator:
// a JoinGroup is parked until the join phase completes, a follower's SyncGroup until the
// leader's arrives, KIP-394 aside).
func TestLinearize(t *testing.T) {
	for _, tc := range []struct {
		name   string
		build  func(b *ch)
		o      Options
		want   string
		naming string // in the detail: the request no order explains
	}{
		{name: "concurrent joins complete one generation", build: joins, want: OK},
		{
			// b was answered before a joined: its generation cannot be led by a.
			name: "a join answered before its leader joined",
			build: func(b *ch) {
				b.begin(1, 1, history.Event{Node: "b", Op: history.JoinGroup, Gen: -1, Protocols: []string{"range"}})
				b.end(2, 1, history.Event{Member: "b-1", Gen: 1, Leader: "a-1"})
				b.begin(3, 2, history.Event{Node: "a", Op: history.JoinGroup, Gen: -1, Protocols: []string{"range"}})
				b.end(4, 2, history.Event{Member: "a-1", Gen: 1, Leader: "a-1", Members: []string{"a-1", "b-1"}})
			},
			want: Violated, naming: "id=1 b JoinGroup",
		},
		{
			name: "the follower's SyncGroup waits for the leader's",
			build: func(b *ch) {
				joins(b)
				b.begin(6, 3, followerSync)
				b.begin(7, 4, leaderSync)
				b.end(8, 3, history.Event{Parts: history.Parts{"t": {1}}})
				b.end(9, 4, history.Event{Parts: history.Parts{"t": {0}}})
			},
			want: OK,
		},
		{
			// The follower's answer came back before the leader sent its assignment: the
			// coordinator had nothing to answer it with (late).
			name: "a follower answered before the leader's SyncGroup began",
			build: func(b *ch) {
				joins(b)
				b.begin(6, 3, followerSync)
				b.end(7, 3, history.Event{Parts: history.Parts{"t": {1}}})
				b.begin(8, 4, leaderSync)
				b.end(9, 4, history.Event{Parts: history.Parts{"t": {0}}})
			},
			want: Violated, naming: "the end of the segment",
		},
		{
			// The leader's SyncGroup has no answer (its connection died): it may still have
			// arrived and completed the round.
			name: "an unanswered leader SyncGroup may have completed the round",
			build: func(b *ch) {
				joins(b)
				b.begin(6, 3, followerSync)
				b.begin(6, 4, leaderSync)
				b.end(7, 4, history.Event{Note: history.Unfinished})
				b.end(8, 3, history.Event{Parts: history.Parts{"t": {1}}})
			},
			want: OK,
		},
		{
			// The follower gets what the leader sent for it, nothing else.
			name: "a follower answered another assignment",
			build: func(b *ch) {
				joins(b)
				b.begin(6, 3, followerSync)
				b.begin(7, 4, leaderSync)
				b.end(8, 3, history.Event{Parts: history.Parts{"t": {0, 1}}})
				b.end(9, 4, history.Event{Parts: history.Parts{"t": {0}}})
			},
			want: Violated, naming: "id=3 b SyncGroup",
		},
		{name: "past the budget, undecided", build: joins, o: Options{Budget: 1}, want: Undecided},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b ch
			tc.build(&b)
			l, err := Linearize(b.h, tc.o, 0)
			if err != nil {
				t.Fatal(err)
			}
			if l.Verdict != tc.want || !strings.Contains(l.Detail, tc.naming) {
				t.Fatalf("%s (%s), want %s naming %q", l.Verdict, l.Detail, tc.want, tc.naming)
			}
			// The search judges the same history alike.
			if s := judge(t, b.h); tc.o.Budget == 0 && s.Verdict != tc.want {
				t.Errorf("the search says %s", s)
			}
		})
	}
}

// TestLinearizeFixtures: on every history fixture, the linearizability check's verdict is
// the reference search's (both step the same reference; they differ in how they order the
// requests), the same on a second run, and the same searching the whole history at once
// (Visualize), which draws nothing for a history without requests.
func TestLinearizeFixtures(t *testing.T) {
	for _, p := range fixtures(t) {
		h := readFile(t, p)
		l, err := Linearize(h, Options{}, 0)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		r := searchFile(t, p, Options{Simplest: true})
		if r.Verdict != OK {
			r = searchFile(t, p, Options{})
		}
		if l.Verdict != r.Verdict {
			t.Errorf("%s: linearizability %s (%s), the search %s", p, l.Verdict, l.Detail, r)
		}
		again, _ := Linearize(h, Options{}, 0)
		if !reflect.DeepEqual(l, again) {
			t.Errorf("%s: two runs, two verdicts:\n%+v\n%+v", p, l, again)
		}
		if testing.Short() {
			continue
		}
		var page strings.Builder
		w, err := Visualize(h, Options{}, 0, &page)
		if l.Operations == 0 {
			// A client-only record (Kafka's Java consumer's: no wire) has nothing to draw.
			if err == nil || page.Len() > 0 {
				t.Errorf("%s: no requests, yet Visualize drew %d bytes (%v)", p, page.Len(), err)
			}
			continue
		}
		if err != nil || w.Verdict != l.Verdict || !strings.Contains(page.String(), "<html") {
			t.Errorf("%s: the whole history at once: %s (%v), by segments %s", p, w.Verdict, err, l.Verdict)
		}
	}
}

// TestVisualizeNothing: a history without coordinator requests has nothing to draw, said as
// an error, not a page of nothing (nor a panic in porcupine).
func TestVisualizeNothing(t *testing.T) {
	h := history.History{{Seq: 1, T: 1, Kind: history.Start, Node: "a", Proto: history.Classic}}
	var page strings.Builder
	if _, err := Visualize(h, Options{}, 0, &page); err == nil || page.Len() > 0 {
		t.Errorf("want an error and no page, got %v and %d bytes", err, page.Len())
	}
}

// TestLinearizeMixedProtocols: one group speaks one protocol; a history that mixes classic
// requests and ConsumerGroupHeartbeat is refused, naming the request, not judged.
func TestLinearizeMixedProtocols(t *testing.T) {
	var b ch
	joins(&b)
	b.begin(6, 3, history.Event{Node: "c", Op: history.ConsumerGroupHeartbeat, Gen: 0})
	b.end(7, 3, history.Event{Member: "c-1", Gen: 1})
	if l, err := Linearize(b.h, Options{}, 0); err == nil || !strings.Contains(err.Error(), "JoinGroup") {
		t.Errorf("want an error naming the classic request, got %v (%s)", err, l.Verdict)
	}
}
