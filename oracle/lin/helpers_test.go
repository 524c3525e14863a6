package lin

import (
	"sort"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// builder writes hand-made histories: each request is an interval [call, ret] on one node;
// ret < 0 leaves it without an end (no answer). Events are sorted by time when built.
type builder struct {
	evs []history.Event
	id  int64
}

// req adds a request: begin carries the request fields, end the response fields.
func (b *builder) req(node, op string, call, ret int64, begin, end history.Event) *builder {
	b.id++
	begin.Kind, begin.Phase, begin.ID, begin.Node, begin.Op, begin.T = history.Request, history.Begin, b.id, node, op, call
	b.evs = append(b.evs, begin)
	if ret >= 0 {
		end.Kind, end.Phase, end.ID, end.Node, end.Op, end.T = history.Request, history.End, b.id, node, op, ret
		b.evs = append(b.evs, end)
	}
	return b
}

func (b *builder) history() history.History {
	h := append(history.History(nil), b.evs...)
	sort.SliceStable(h, func(i, j int) bool {
		if h[i].T != h[j].T {
			return h[i].T < h[j].T
		}
		return h[i].Phase == history.Begin && h[j].Phase == history.End
	})
	for i := range h {
		h[i].Seq = int64(i + 1)
	}
	return h
}

// Shorthands for the fields of requests and responses.
func rq(member string, gen int32) history.Event { return history.Event{Member: member, Gen: gen} }

func ok() history.Event { return history.Event{} }

func fail(err string) history.Event { return history.Event{Err: err} }

func joined(member string, gen int32, leader string, members ...string) history.Event {
	return history.Event{Member: member, Gen: gen, Leader: leader, Members: members}
}

func synced(parts history.Parts) history.Event { return history.Event{Parts: parts} }

func leaderSync(member string, gen int32, a map[string]history.Parts) history.Event {
	return history.Event{Member: member, Gen: gen, Assignments: a}
}

func epoch(member string, e int32, parts history.Parts) history.Event {
	return history.Event{Member: member, Gen: e, Parts: parts}
}

func tp(ps ...int32) history.Parts { return history.Parts{"t": ps} }

// group2 is a classic group of a and b that formed generation 1 (leader a) and synced:
// a got t-0, b got t-1. Ends at time 60.
func group2() *builder {
	b := &builder{}
	b.req("a", history.JoinGroup, 0, 10, rq("", -1), history.Event{Err: "MEMBER_ID_REQUIRED", Member: "a1"})
	b.req("b", history.JoinGroup, 0, 10, rq("", -1), history.Event{Err: "MEMBER_ID_REQUIRED", Member: "b1"})
	b.req("a", history.JoinGroup, 11, 30, rq("a1", -1), joined("a1", 1, "a1", "a1", "b1"))
	b.req("b", history.JoinGroup, 12, 30, rq("b1", -1), joined("b1", 1, "a1"))
	b.req("a", history.SyncGroup, 31, 40, leaderSync("a1", 1, map[string]history.Parts{"a1": tp(0), "b1": tp(1)}), synced(tp(0)))
	b.req("b", history.SyncGroup, 32, 41, rq("b1", 1), synced(tp(1)))
	b.req("a", history.Heartbeat, 50, 60, rq("a1", 1), ok())
	return b
}
