package search

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// kh builds a KIP-848 history of requests answered one at a time.
type kh struct {
	h  history.History
	id int64
}

func (b *kh) add(e history.Event) int64 {
	e.Seq = int64(len(b.h) + 1)
	e.T = e.Seq * 1000
	e.Proto = history.Consumer
	b.h = append(b.h, e)
	return e.Seq
}

// call records a request and its answer; it returns the answer's seq.
func (b *kh) call(req, resp history.Event) int64 {
	b.id++
	req.Kind, req.Phase, req.ID = history.Request, history.Begin, b.id
	resp.Kind, resp.Phase, resp.ID, resp.Node, resp.Op = history.Request, history.End, b.id, req.Node, req.Op
	if resp.Member == "" && resp.Err == "" {
		resp.Member = req.Member
	}
	b.add(req)
	return b.add(resp)
}

// hb is node's heartbeat as member at epoch owning owned (nil: not sent), answered with
// epoch to and assignment got (nil: unchanged), or with error err.
func (b *kh) hb(node, member string, epoch int32, owned history.Parts, to int32, got history.Parts, err string) int64 {
	req := history.Event{Node: node, Op: history.ConsumerGroupHeartbeat, Member: member, Gen: epoch, Owned: owned}
	if owned == nil && epoch != 0 {
		req.Note = noteTopicsNull
	}
	resp := history.Event{Gen: to, Parts: got, Err: err}
	if got == nil && err == "" {
		resp.Note = noteAssignmentNull
	}
	return b.call(req, resp)
}

func (b *kh) commit(node, member string, epoch int32, err string) int64 {
	return b.commitOf(node, member, epoch, tp(0), err)
}

func (b *kh) commitOf(node, member string, epoch int32, ps history.Parts, err string) int64 {
	return b.call(history.Event{Node: node, Op: history.OffsetCommit, Member: member, Gen: epoch, Parts: ps}, history.Event{Err: err})
}

// regained: after shared, b leaves (epoch 3) and a takes t-1 at epoch 3, holding t-0 from
// epoch 1.
func regained(b *kh) {
	shared(b)
	b.hb("b", "b", -1, nil, -1, nil, "")
	b.hb("a", "a", 2, tp(0), 3, tp(0, 1), "")
}

func tp(ps ...int32) history.Parts { return history.Parts{"t": ps} }

var none = history.Parts{}

// joined: a joins alone and takes t-0 and t-1 at epoch 1.
func joined(b *kh) {
	b.add(history.Event{Kind: history.Start, Node: "a"})
	b.hb("a", "a", 0, nil, 1, tp(0, 1), "")
}

// shared: b joins (epoch 2); a revokes t-1 at epoch 1, acknowledges it and moves to epoch
// 2 (Kafka's E+1 after a completed revocation), and b gets t-1.
func shared(b *kh) {
	joined(b)
	b.add(history.Event{Kind: history.Start, Node: "b"})
	b.hb("b", "b", 0, nil, 2, none, "")
	b.hb("a", "a", 1, tp(0, 1), 1, tp(0), "")
	b.hb("a", "a", 1, tp(0), 2, tp(0), "")
	b.hb("b", "b", 2, none, 2, tp(1), "")
}

func TestKIP848Search(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(b *kh) int64 // returns the seq that must be violated, or 0 for ok
	}{
		{"join, share, commit", func(b *kh) int64 {
			shared(b)
			b.commit("a", "a", 2, "")
			b.commit("b", "b", 2, "")
			b.hb("a", "a", 2, nil, 2, nil, "")
			return 0
		}},
		{"a heartbeat after a fence rejoins", func(b *kh) int64 {
			joined(b)
			b.hb("a", "a", 5, nil, 0, nil, "FENCED_MEMBER_EPOCH")
			b.hb("a", "a", 0, nil, 1, tp(0, 1), "") // a rejoin of a known member keeps its epoch
			return 0
		}},
		{"KIP-1251: a commit at the previous epoch", func(b *kh) int64 {
			shared(b)
			b.commit("a", "a", 1, "")
			return 0
		}},
		{"an epoch bump with no change", func(b *kh) int64 {
			joined(b)
			return b.hb("a", "a", 1, nil, 2, nil, "")
		}},
		{"an assignment to a member that left", func(b *kh) int64 {
			joined(b)
			b.hb("a", "a", -1, nil, -1, nil, "")
			return b.hb("a", "a", 1, tp(0, 1), 1, tp(0, 1), "")
		}},
		{"a partition given while its owner still holds it", func(b *kh) int64 {
			// b may have t-1 only if a's session expired, and a is answered after.
			joined(b)
			b.add(history.Event{Kind: history.Start, Node: "b"})
			b.hb("b", "b", 0, nil, 2, none, "")
			b.hb("b", "b", 2, none, 2, tp(1), "")
			return b.hb("a", "a", 1, nil, 1, nil, "")
		}},
		{"FENCED_MEMBER_EPOCH at the current epoch", func(b *kh) int64 {
			joined(b)
			return b.hb("a", "a", 1, nil, 0, nil, "FENCED_MEMBER_EPOCH")
		}},
		{"a commit at the current epoch refused", func(b *kh) int64 {
			joined(b)
			return b.commit("a", "a", 1, "STALE_MEMBER_EPOCH")
		}},
		{"a commit ahead of the member's epoch accepted", func(b *kh) int64 {
			joined(b)
			return b.commit("a", "a", 2, "")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &kh{}
			want := tc.build(b)
			r := judge(t, b.h)
			switch {
			case want == 0 && r.Verdict != OK:
				t.Fatalf("want ok, got %s", r)
			case want != 0 && (r.Verdict != Violated || r.Seq != want):
				t.Fatalf("want violated at %d, got %s", want, r)
			case want != 0 && (len(r.Before) == 0 || len(r.Allowed) == 0 || !strings.Contains(r.Before[0], "coordinator ")):
				t.Fatalf("a violation without the states before it or the answers allowed:\n%s", r)
			}
			t.Logf("%s", r)
		})
	}
}

// TestKIP1251Commits: the broker's commit rule is not in the history, so either may explain
// it, judged exactly (impl/kip848's KIP-1251 rule), but one broker answers all its commits.
// After regained, a is at epoch 3 holding t-0 from epoch 1 and t-1 from epoch 3; every commit
// here is a's at epoch 2.
func TestKIP1251Commits(t *testing.T) {
	type commit struct {
		ps  history.Parts
		err string
	}
	stale := "STALE_MEMBER_EPOCH"
	for _, tc := range []struct {
		name     string
		commits  []commit
		violated int    // the index of the commit no behaviour answers so, or -1
		rule     string // Result.Commits when ok
	}{
		{"the partition assigned before it, accepted", []commit{{tp(0), ""}}, -1, commitRuleNames[kip1251Rule]},
		{"the partition assigned before it, refused (Kafka up to 4.2)", []commit{{tp(0), stale}}, -1, commitRuleNames[exactRule]},
		{"a partition assigned after it, accepted", []commit{{tp(0, 1), ""}}, 0, ""},
		{"a partition assigned after it, refused", []commit{{tp(1), stale}}, -1, ""},
		{"accepted, then refused: two rules in one history", []commit{{tp(0), ""}, {tp(0), stale}}, 1, ""},
		{"refused, then accepted: two rules in one history", []commit{{tp(0), stale}, {tp(0), ""}}, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &kh{}
			regained(b)
			want := int64(0)
			for i, c := range tc.commits {
				if seq := b.commitOf("a", "a", 2, c.ps, c.err); i == tc.violated {
					want = seq
				}
			}
			r := judge(t, b.h)
			switch {
			case want == 0 && (r.Verdict != OK || r.Commits != tc.rule):
				t.Fatalf("want ok judged by %q, got %s", tc.rule, r)
			case want != 0 && (r.Verdict != Violated || r.Seq != want):
				t.Fatalf("want violated at %d, got %s", want, r)
			}
			t.Logf("%s", r)
		})
	}
}

// judge is the whole search's verdict on h.
func judge(t *testing.T, h history.History) Result {
	t.Helper()
	c := New(Options{Shape: ShapeOf(h)})
	for _, e := range h {
		if err := c.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	return c.Result()
}
