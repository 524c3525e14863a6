package lin

import (
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// steady is a converged classic group whose two members heartbeat and commit n times each,
// two or three requests in flight at a time (a real client's pace), then, if broken, one
// SyncGroup answer that contradicts the leader's assignment: the worst case, since every
// order of the whole history must be ruled out.
func steady(n int, broken bool) history.History {
	b := group2()
	t := int64(100)
	for range n {
		b.req("a", history.Heartbeat, t, t+4, rq("a1", 1), ok())
		b.req("b", history.Heartbeat, t+3, t+5, rq("b1", 1), ok())
		b.req("a", history.OffsetCommit, t+5, t+7, rq("a1", 1), ok())
		b.req("b", history.OffsetCommit, t+6, t+9, rq("b1", 1), ok())
		t += 10
	}
	if broken {
		b.req("b", history.SyncGroup, t+100, t+101, rq("b1", 1), synced(tp(0, 1)))
	}
	return b.history()
}

func benchmarkCheck(b *testing.B, broken bool) {
	h := steady(1000, broken)
	b.ResetTimer()
	for range b.N {
		r, err := Check(h, 0)
		if err != nil || r.OK == broken {
			b.Fatalf("%+v %v", r, err)
		}
	}
}

// BenchmarkCheckLinearizable: 4008 requests of a steady group.
func BenchmarkCheckLinearizable(b *testing.B) { benchmarkCheck(b, false) }

// BenchmarkCheckViolation: the same with a violation at the very end.
func BenchmarkCheckViolation(b *testing.B) { benchmarkCheck(b, true) }
