package search

import (
	"fmt"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// stable: a and b join (joins) and sync generation 1 (ids 3, 4, ends at t 9).
func stable(b *ch) {
	joins(b)
	b.begin(6, 3, followerSync)
	b.begin(7, 4, leaderSync)
	b.end(8, 3, history.Event{Parts: history.Parts{"t": {1}}})
	b.end(9, 4, history.Event{Parts: history.Parts{"t": {0}}})
}

// inertBurst: after stable, n heartbeats and n commits of a and b at generation 1, all
// begun before any returns (ids from 10), each answered NONE but the one at index wrong,
// answered with err.
func inertBurst(b *ch, n, wrong int, err string) {
	stable(b)
	id := int64(10)
	var ids []int64
	for k := 0; k < n; k++ {
		for _, m := range [][2]string{{"a", "a-1"}, {"b", "b-1"}} {
			b.begin(10+int64(k), id, history.Event{Node: m[0], Op: history.Heartbeat, Member: m[1], Gen: 1})
			b.begin(10+int64(k), id+1, history.Event{Node: m[0], Op: history.OffsetCommit, Member: m[1], Gen: 1, Parts: history.Parts{"t": {0}}})
			ids = append(ids, id, id+1)
			id += 2
		}
	}
	for k, i := range ids {
		e := history.Event{}
		if k == wrong {
			e.Err = err
		}
		b.end(100+int64(k), i, e)
	}
}

// TestInertSettled: heartbeats and commits (request.inert) are settled where their
// answer is the recorded one (config.settleInert), so that k of them open at once cost the
// search states in proportion to k, not 2^k, and every verdict is kept: an answer no
// generation gives is still found, at its event, and an answer that only a later state gives
// (a heartbeat told of a rebalance that a concurrent JoinGroup starts) is still explained.
func TestInertSettled(t *testing.T) {
	t.Run("a burst of 24 is cheap and ok", func(t *testing.T) {
		var b ch
		inertBurst(&b, 6, -1, "")
		r := judge(t, b.h)
		// Without the reduction: every subset of the 24 handled, at each of 24 answers.
		if r.Verdict != OK || r.States > 2_000 {
			t.Errorf("%s (%d states), want ok within 2000 states", r, r.States)
		}
	})
	t.Run("a wrong answer in the burst is found", func(t *testing.T) {
		var b ch
		inertBurst(&b, 6, 7, "ILLEGAL_GENERATION")
		r := judge(t, b.h)
		if r.Verdict != Violated || !strings.Contains(r.Detail, "ILLEGAL_GENERATION") {
			t.Errorf("%s, want violated at the ILLEGAL_GENERATION answer", r)
		}
	})
	t.Run("an answer only a later state gives", func(t *testing.T) {
		// a's heartbeat begins while the group is Stable and returns
		// REBALANCE_IN_PROGRESS: b's rejoin, begun before it returned, must be handled
		// first. Settling it at its begin (NONE there) is not allowed to hide that.
		var b ch
		stable(&b)
		b.begin(10, 10, history.Event{Node: "a", Op: history.Heartbeat, Member: "a-1", Gen: 1})
		b.begin(11, 11, history.Event{Node: "b", Op: history.JoinGroup, Member: "b-1", Gen: 1, Protocols: []string{"range"}})
		b.end(12, 10, history.Event{Err: "REBALANCE_IN_PROGRESS"})
		b.begin(13, 12, history.Event{Node: "a", Op: history.OffsetCommit, Member: "a-1", Gen: 1, Parts: history.Parts{"t": {0}}})
		b.end(14, 12, history.Event{Err: "NONE"})
		b.end(15, 11, history.Event{Note: history.Unfinished}) // parked: a never rejoins
		if r := judge(t, b.h); r.Verdict != OK {
			t.Errorf("%s, want ok", r)
		}
	})
	t.Run("unanswered ones are dropped, the rest judged", func(t *testing.T) {
		var b ch
		stable(&b)
		for id := int64(10); id < 30; id++ {
			b.begin(10, id, history.Event{Node: "a", Op: history.Heartbeat, Member: "a-1", Gen: 1})
		}
		for id := int64(10); id < 30; id++ {
			b.end(20, id, history.Event{Err: "timeout", Note: fmt.Sprint("lost ", id)})
		}
		b.begin(30, 30, history.Event{Node: "b", Op: history.Heartbeat, Member: "b-1", Gen: 2})
		b.end(31, 30, history.Event{Err: "NONE"})
		r := judge(t, b.h)
		if r.Verdict != Violated || r.Seq != b.h[len(b.h)-1].Seq || r.States > 200 {
			t.Errorf("%s (%d states), want violated at the last event within 200 states", r, r.States)
		}
	})
}
